// Plugin discovery and loading: plugins/<dir>/index.js only, else each
// top-level .js file; the `apps` export rule; `new p()` without an event; init() with its "return"
// skip; tasks collected per profile; a stable sort by ascending priority.
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { StandaloneLogger } from './logger.js'
import type { PluginClass, PluginInstance, Profile, RuleSpec, TaskOption } from './types.js'

interface CompiledRule extends RuleSpec { regExp: RegExp }

export interface PluginEntry {
  class: PluginClass
  /** `<dir>` for index.js plugins, `<dir>/<file>` for loose files */
  key: string
  file: string
  name: string
  priority: number
  /** the load-time instance (TRSS filters events with it) */
  plugin: PluginInstance
  /** TRSS compiles rule patterns once, at load time */
  rules?: CompiledRule[]
}

export interface TaskEntry {
  name: string
  cron: string
  fnc: unknown
  log: boolean
  plugin: string
}

export interface LoadError { file: string; error: unknown }

// ESM caches modules by URL and resolves symlinks, so a second host in the same process would get
// classes built on the first host's `plugin`; later loads of the same file get a fresh URL.
const importCount = new Map<string, number>()
function importUrl(file: string): string {
  const real = realpathSync(file)
  const n = importCount.get(real) ?? 0
  importCount.set(real, n + 1)
  const url = pathToFileURL(file).href
  return n === 0 ? url : `${url}?standalone=${n}`
}

function isDir(path: string): boolean {
  try { return statSync(path).isDirectory() } catch { return false }
}

/** The files the hosts would import, in a deterministic order. */
export function discover(pluginsDir: string): Array<{ key: string; file: string }> {
  if (!isDir(pluginsDir)) return []
  const found: Array<{ key: string; file: string }> = []
  for (const dir of readdirSync(pluginsDir).sort()) {
    const path = join(pluginsDir, dir)
    if (!isDir(path)) continue
    const index = join(path, 'index.js')
    if (existsSync(index)) {
      found.push({ key: dir, file: index })
      continue
    }
    for (const name of readdirSync(path).sort()) {
      const file = join(path, name)
      if (name.endsWith('.js') && !isDir(file)) found.push({ key: `${dir}/${name}`, file })
    }
  }
  return found
}

function compileRules(rules: RuleSpec[] | undefined): CompiledRule[] {
  return (Array.isArray(rules) ? rules : []).map((r) => ({ ...r, regExp: new RegExp(r.reg ?? '') }))
}

function collectTasks(profile: Profile, plugin: PluginInstance): TaskEntry[] {
  const list: TaskOption[] = (Array.isArray(plugin.task) ? plugin.task : [plugin.task]).filter(Boolean)
  const out: TaskEntry[] = []
  for (const t of list) {
    // Miao needs cron and name (its constructor drops the name); TRSS needs cron and fnc.
    if (!t.cron || (profile === 'miao' ? !t.name : !t.fnc)) continue
    const cron = profile === 'trss' ? t.cron.trim().split(/\s+/).slice(0, 6).join(' ') : t.cron
    out.push({ name: t.name || plugin.name, cron, fnc: t.fnc, log: t.log !== false, plugin: plugin.name })
  }
  return out
}

export class Loader {
  entries: PluginEntry[] = []
  tasks: TaskEntry[] = []
  errors: LoadError[] = []
  /** module namespaces by key */
  modules = new Map<string, Record<string, unknown>>()

  constructor(private profile: Profile, private logger: StandaloneLogger) {}

  async load(root: string): Promise<void> {
    for (const { key, file } of discover(join(root, 'plugins'))) {
      let mod: Record<string, unknown>
      try {
        mod = await import(importUrl(file)) as Record<string, unknown>
      } catch (error) {
        this.fail(file, `插件加载错误 ${key}`, error)
        continue
      }
      this.modules.set(key, mod)
      // Only the values of `apps` count when it is exported; otherwise every export is a candidate.
      const candidates = mod.apps && typeof mod.apps === 'object' ? Object.values(mod.apps) : Object.values(mod)
      for (const value of candidates) await this.loadClass(key, file, value)
    }
    // Array#sort is stable: ties keep load order. Comparing (not subtracting) handles -Infinity.
    this.entries.sort((a, b) => (a.priority < b.priority ? -1 : a.priority > b.priority ? 1 : 0))
    this.logger.info(`加载定时任务[${this.tasks.length}个]`)
    this.logger.info(`加载插件[${this.entries.length}个]`)
  }

  private async loadClass(key: string, file: string, value: unknown): Promise<void> {
    if (!(value as { prototype?: unknown } | null)?.prototype) return // arrow functions, plain objects
    let plugin: PluginInstance
    try {
      plugin = new (value as PluginClass)()
      if (typeof plugin.init === 'function' && (await plugin.init()) === 'return') return
    } catch (error) {
      this.fail(file, `插件加载错误 ${key}`, error)
      return
    }
    this.tasks.push(...collectTasks(this.profile, plugin))
    this.entries.push({
      class: value as PluginClass, key, file, name: plugin.name, priority: plugin.priority, plugin,
      ...(this.profile === 'trss' ? { rules: compileRules(plugin.rule) } : {})
    })
  }

  private fail(file: string, text: string, error: unknown): void {
    this.errors.push({ file, error })
    this.logger.error(text, error)
  }
}
