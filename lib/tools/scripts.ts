// Script tools (`/api/tools/js`): `<data>/tools/<name>.js|.ts`, one tool per file, named by
// the file. A script exports `description`, `inputSchema`, optional `category`, and `execute(args, ctx)`
// (as named exports or one default object). What a script declares about its own `risk`/`dangerous`
// is only a hint: the master's settings (`<data>/script-tools.json`, set through the script routes)
// decide, and a script is off (not offered to chat) until the master enables it (lib/tools/README.md).
//
// Loading: esbuild transpiles the file (TS or JS, ESM syntax) to CommonJS in the bot (esbuild runs
// nothing); the module itself runs in a confined child process (script-runner.ts: Node's permission
// model, an empty environment, a time limit on loading and on every call, a memory cap). A reload
// stops the old child, so nothing of the old module stays. A script's own `require` is CommonJS (Node
// builtins and CJS packages from the node_modules folders it may read; ESM-only packages need
// `await import()`).
import { readdir, rm, stat } from 'node:fs/promises'
import { basename, extname, join } from 'node:path'
import type { FSWatcher } from 'chokidar'
import { AppError, errorText } from '../core/errors.js'
import { importOptional } from '../core/packages.js'
import { containedPath } from '../core/paths.js'
import { ensurePrivateDirSync, readPrivateText, writePrivateFile } from '../core/private-file.js'
import { Store } from '../core/store.js'
import type { Runtime } from '../runtime.js'
import { checkToolName, isToolName } from './names.js'
import { ScriptRunner, type ScriptMeta } from './script-runner.js'
import type { RegisteredTool, SourceSwitch, ToolCallContext, ToolRisk, ToolSource } from './types.js'

/** The master's settings of one script tool (absent: off, high risk, not dangerous). */
export interface ScriptSettings { enabled: boolean; risk: ToolRisk; dangerous: boolean }
const DEFAULT_SCRIPT_SETTINGS: ScriptSettings = { enabled: false, risk: 'high', dangerous: false }
/** Stored as a list (script names such as `__proto__` are valid file names; no record keyed by them). */
interface SettingsFile { scripts: Array<ScriptSettings & { name: string; updatedAt: string }> }
/** Default time limit of a script's load and of each call (config `tools.scriptTimeoutMs`). */
const DEFAULT_SCRIPT_TIMEOUT_MS = 10_000

/** A loaded script: what its module exported, and its process runner. */
interface Loaded { name: string; description: string; category: string; inputSchema: RegisteredTool['inputSchema']; declared: { risk?: ToolRisk; dangerous?: boolean }; runner: ScriptRunner
  /** The file and source it was loaded from: a watcher event for the same text keeps the running module. */
  file: string; source: string }

const EXTS = ['.js', '.ts'] as const
export type ScriptExt = typeof EXTS[number]

export interface ScriptFile extends ScriptSettings {
  name: string; filename: string; size: number; modifiedAt: string; loaded: boolean; error?: string
  /** What the script says about itself (a hint only; the master's settings apply). */
  declared?: { risk?: ToolRisk; dangerous?: boolean }
}

/** Splits `foo`, `foo.js`, `foo.ts` into a validated name and extension (undefined: not given). */
export function parseScriptName (raw: string): { name: string; ext?: ScriptExt } {
  const ext = EXTS.find((e) => raw.endsWith(e))
  const name = ext ? raw.slice(0, -ext.length) : raw
  checkToolName(name, ' (optionally ending in .js or .ts)')
  return ext ? { name, ext } : { name }
}

let transforms = 0
/** TS/JS to CommonJS; esbuild's service process (~86 MiB) is stopped once no transform is under way. */
async function transpile (source: string, ext: ScriptExt, file: string): Promise<{ code: string }> {
  // loaded on first use: most starts have no scripts (and it may be missing: the script then fails to load, saying so)
  const { transform, stop } = await importOptional('esbuild', () => import('esbuild'))
  transforms++
  try {
    return await transform(source, { loader: ext === '.ts' ? 'ts' : 'js', format: 'cjs', target: 'node20', sourcefile: file })
  } finally {
    if (--transforms === 0) await stop()
  }
}

const isRisk = (v: unknown): v is ToolRisk => v === 'low' || v === 'medium' || v === 'high'

/** The call context as plain data for the script's process (the abort signal stays in the bot). */
const plainContext = (ctx: ToolCallContext): Record<string, unknown> => {
  const { signal: _s, ...rest } = ctx
  return JSON.parse(JSON.stringify(rest)) as Record<string, unknown>
}

export class ScriptTools implements ToolSource {
  readonly id = 'script'
  readonly kind = 'script' as const
  readonly dir: string
  private tools = new Map<string, Loaded>()
  private settings = new Map<string, ScriptSettings>()
  private settingsStore: Promise<Store<SettingsFile>> | undefined
  private errors = new Map<string, string>()
  private listeners: Array<() => void> = []
  private watcher: FSWatcher | undefined
  /** The watcher being started (chokidar is imported first): a second start waits for it. */
  private watchStarting: Promise<void> | undefined
  /** Watching could not start because chokidar is missing: said once. */
  private watchWarned = false
  /** the load under way per script name (see serial) */
  private readonly loading = new Map<string, Promise<void>>()
  private timers = new Map<string, NodeJS.Timeout>()
  /** Runners whose script is loading (stopped by stopAll too). */
  private readonly compiling = new Set<ScriptRunner>()
  private cached: RegisteredTool[] | undefined

  constructor (private readonly rt: Runtime) {
    this.dir = join(rt.paths.dataDir, 'tools')
    ensurePrivateDirSync(this.dir)
    ;(rt as Partial<Pick<Runtime, 'onStop'>>).onStop?.push(() => this.stopAll())
  }

  onChange (fn: () => void): void { this.listeners.push(fn) }
  private changed (): void { this.cached = undefined; for (const fn of this.listeners) fn() }
  list (): RegisteredTool[] { return (this.cached ??= [...this.tools.values()].map((l) => this.registered(l))) }
  errorOf (name: string): string | undefined { return this.errors.get(name) }

  // ---- the master's settings -----------------------------------------------------------------------
  private openSettings (): Promise<Store<SettingsFile>> {
    return (this.settingsStore ??= Store.open<SettingsFile>(join(this.rt.paths.dataDir, 'script-tools.json'), { scripts: [] }, { log: this.rt.log, pretty: true })
      .then(async (store) => {
        if (!Array.isArray(store.data.scripts)) await store.update((d) => { d.scripts = [] })
        for (const e of store.data.scripts) {
          if (e && typeof e.name === 'string') this.settings.set(e.name, { enabled: e.enabled === true, risk: isRisk(e.risk) ? e.risk : 'high', dangerous: e.dangerous === true })
        }
        return store
      }))
  }

  settingsOf (name: string): ScriptSettings { return this.settings.get(name) ?? DEFAULT_SCRIPT_SETTINGS }
  /** Whether the master enabled the script (the registry's switch for script tools). */
  isOn (name: string): boolean { return this.settingsOf(name).enabled }
  async setOn (name: string, on: boolean): Promise<void> { await this.configure(name, { enabled: on }) }
  /** The registry's switches use isOn/setOn above as this source's own switch. */
  get ownSwitch (): SourceSwitch { return this }

  /** Stores the master's settings of a script (missing fields keep their value or the default). */
  async configure (name: string, patch: Partial<ScriptSettings>): Promise<ScriptSettings> {
    parseScriptName(name)
    const store = await this.openSettings()
    const next: ScriptSettings = { ...this.settingsOf(name), ...patch }
    const updatedAt = new Date(this.rt.clock.now()).toISOString()
    await store.update((d) => { d.scripts = [...d.scripts.filter((e) => e.name !== name), { name, ...next, updatedAt }] })
    this.settings.set(name, next)
    this.changed()
    return next
  }

  private async forget (name: string): Promise<void> {
    const store = await this.openSettings()
    if (!this.settings.delete(name)) return
    await store.update((d) => { d.scripts = d.scripts.filter((e) => e.name !== name) })
  }

  private timeoutMs (): number {
    const cfg = (this.rt as Partial<Pick<Runtime, 'config'>>).config?.get().tools as { scriptTimeoutMs?: number } | undefined
    return cfg?.scriptTimeoutMs ?? DEFAULT_SCRIPT_TIMEOUT_MS
  }

  private registered (l: Loaded): RegisteredTool {
    const s = this.settingsOf(l.name)
    return {
      name: l.name,
      description: l.description,
      category: l.category,
      source: 'script',
      inputSchema: l.inputSchema,
      risk: s.risk,
      dangerous: s.dangerous,
      execute: async (args: Record<string, unknown>, ctx: ToolCallContext) => {
        if (ctx.signal?.aborted) throw new Error(`Script tool ${l.name} was cancelled`)
        return await l.runner.call(args, plainContext(ctx))
      }
    }
  }

  /** The file of a script, contained in the tools folder (README, "Security model"). */
  pathOf (name: string, ext: ScriptExt): string {
    parseScriptName(name)
    return containedPath(this.dir, `${name}${ext}`)
  }

  /** The existing file of a script name, if any. */
  async existing (name: string): Promise<{ file: string; ext: ScriptExt } | undefined> {
    for (const ext of EXTS) {
      const file = this.pathOf(name, ext)
      try { if ((await stat(file)).isFile()) return { file, ext } } catch { /* absent */ }
    }
    return undefined
  }

  async files (): Promise<ScriptFile[]> {
    const out: ScriptFile[] = []
    for (const f of (await readdir(this.dir)).sort()) {
      const ext = extname(f)
      const name = basename(f, ext)
      if (!(EXTS as readonly string[]).includes(ext) || !isToolName(name)) continue
      const st = await stat(join(this.dir, f)).catch(() => undefined)
      if (!st?.isFile()) continue
      const error = this.errors.get(name)
      const declared = this.tools.get(name)?.declared
      out.push({ name, filename: f, size: st.size, modifiedAt: st.mtime.toISOString(), loaded: this.tools.has(name), ...this.settingsOf(name),
        ...(declared && Object.keys(declared).length ? { declared } : {}), ...(error ? { error } : {}) })
    }
    return out
  }

  async read (name: string): Promise<Omit<ScriptFile, 'loaded'> & { source: string; loaded: boolean }> {
    const found = await this.existing(name)
    if (!found) throw new AppError('TOOL_NOT_FOUND', `Script tool ${name} does not exist`)
    await this.openSettings()
    const [source, st] = await Promise.all([readPrivateText(found.file), stat(found.file)])
    const error = this.errors.get(name)
    const declared = this.tools.get(name)?.declared
    return { name, filename: basename(found.file), source, size: st.size, modifiedAt: st.mtime.toISOString(), loaded: this.tools.has(name), ...this.settingsOf(name),
      ...(declared && Object.keys(declared).length ? { declared } : {}), ...(error ? { error } : {}) }
  }

  /** Writes atomically, then loads the file now (the watcher's later event reloads it harmlessly). */
  async write (name: string, ext: ScriptExt, source: string): Promise<{ loaded: boolean; error?: string }> {
    const file = this.pathOf(name, ext)
    await writePrivateFile(file, source) // 0600, atomic, never through a planted symlink
    await this.load(name)
    const error = this.errors.get(name)
    return { loaded: this.tools.has(name), ...(error ? { error } : {}) }
  }

  async remove (name: string): Promise<void> {
    const found = await this.existing(name)
    if (!found) throw new AppError('TOOL_NOT_FOUND', `Script tool ${name} does not exist`)
    await rm(found.file)
    this.drop(name)
    await this.forget(name) // a new script of that name starts from the defaults (off)
  }

  private drop (name: string): void {
    const old = this.tools.get(name)
    const had = this.tools.delete(name)
    this.errors.delete(name)
    old?.runner.retire()
    if (had) this.changed()
  }

  /** Stops every script's process (plugin stop), those still loading too. */
  async stopAll (): Promise<void> { await Promise.all([...[...this.tools.values()].map((l) => l.runner), ...this.compiling].map((r) => r.stop())) }

  /** (Re)loads one script by name, after any load of it under way (one at a time per script); a broken script is reported, never thrown. */
  load (name: string): Promise<void> { return this.serial(name, () => this.loadNow(name)) }

  // A save loads the script itself and the watcher's event follows: run them in turn, so the event
  // sees the finished load (and keeps it when the text is the same) instead of racing it.
  private serial (name: string, fn: () => Promise<void>): Promise<void> {
    const next = (this.loading.get(name) ?? Promise.resolve()).then(fn, fn)
    const tracked = next.finally(() => { if (this.loading.get(name) === tracked) this.loading.delete(name) })
    this.loading.set(name, tracked)
    return tracked
  }

  private async loadNow (name: string): Promise<void> {
    await this.openSettings()
    const found = await this.existing(name)
    if (!found) { this.drop(name); return }
    try {
      const loaded = await this.compile(name, found.file, found.ext)
      this.tools.get(name)?.runner.retire() // calls under way on the old version still answer
      this.tools.set(name, loaded)
      this.errors.delete(name)
    } catch (err) {
      this.tools.get(name)?.runner.retire()
      this.tools.delete(name)
      this.errors.set(name, errorText(err).slice(0, 1000))
      this.rt.log.warn('A script tool failed to load', { tool: name, error: errorText(err).slice(0, 300) })
    }
    this.changed()
  }

  async reloadAll (): Promise<{ loaded: number; errors: Record<string, string> }> {
    const files = await readdir(this.dir).catch(() => [] as string[])
    const names = new Set(files.filter((f) => (EXTS as readonly string[]).includes(extname(f))).map((f) => basename(f, extname(f))).filter((n) => isToolName(n)))
    for (const n of [...this.tools.keys()]) if (!names.has(n)) this.drop(n)
    for (const n of names) await this.load(n)
    return { loaded: this.tools.size, errors: Object.fromEntries(this.errors) }
  }

  /** Transpiles here, runs the module in a fresh child process (confined, time-limited) and reads its exports. */
  private async compile (name: string, file: string, ext: ScriptExt): Promise<Loaded> {
    const source = await readPrivateText(file)
    const { code } = await transpile(source, ext, file)
    const runner = new ScriptRunner(name, file, code, () => this.timeoutMs(), this.rt.clock)
    let m: ScriptMeta
    this.compiling.add(runner)
    try {
      m = await runner.start()
    } finally {
      this.compiling.delete(runner)
      // Idle scripts hold no process: the child starts again on the first call.
      await runner.stop()
    }
    const schema = m.inputSchema && typeof m.inputSchema === 'object' ? m.inputSchema as RegisteredTool['inputSchema'] : { type: 'object' as const, properties: {} }
    if (schema.type !== 'object') throw new Error('inputSchema.type must be "object"')
    return {
      name,
      description: typeof m.description === 'string' ? m.description : `Script tool ${name}`,
      category: typeof m.category === 'string' && m.category ? m.category : 'script',
      inputSchema: schema,
      declared: { ...(isRisk(m.risk) ? { risk: m.risk } : {}), ...(typeof m.dangerous === 'boolean' ? { dangerous: m.dangerous } : {}) },
      runner,
      file,
      source
    }
  }

  /** Watcher events: reloads only when the file's text changed (our own saves already loaded it). */
  private reloadIfChanged (name: string): Promise<void> {
    return this.serial(name, async () => {
      const found = await this.existing(name)
      const current = this.tools.get(name)
      if (found && current && current.file === found.file) {
        const source = await readPrivateText(found.file).catch(() => undefined)
        if (source === current.source) return
      }
      await this.loadNow(name)
    })
  }

  // ---- watcher -------------------------------------------------------------------------------------
  get watching (): boolean { return this.watcher !== undefined }

  /**
   * Watches the folder (reloads a script when its file changes). Without chokidar (lib/core/packages.ts)
   * the scripts stay as loaded at start and by the routes: watching is off, said once in the log.
   */
  startWatching (): Promise<void> {
    if (this.watcher) return Promise.resolve()
    return (this.watchStarting ??= this.watchNow().finally(() => { this.watchStarting = undefined }))
  }

  private async watchNow (): Promise<void> {
    let watch: typeof import('chokidar').watch
    try {
      ({ watch } = await importOptional('chokidar', () => import('chokidar')))
    } catch (err) {
      if (!this.watchWarned) this.rt.log.warn(`Script tool files are not watched (loaded at start and when saved only): ${errorText(err)}`)
      this.watchWarned = true
      return
    }
    const w = watch(this.dir, {
      ignoreInitial: true,
      depth: 0,
      ignored: (p: string) => p !== this.dir && (basename(p).startsWith('.') || (extname(p) !== '' && !(EXTS as readonly string[]).includes(extname(p))))
    })
    const onFile = (p: string): void => {
      const name = basename(p, extname(p))
      if (!isToolName(name)) return
      const old = this.timers.get(name)
      if (old) this.rt.clock.clearTimeout(old)
      // Debounce bursts of events from one save (editors write, rename, touch).
      this.timers.set(name, this.rt.clock.setTimeout(() => { this.timers.delete(name); void this.reloadIfChanged(name) }, 50))
    }
    w.on('add', onFile).on('change', onFile).on('unlink', onFile)
    w.on('error', (err) => this.rt.log.warn('Script tools watcher error', { error: errorText(err) }))
    this.watcher = w
    await new Promise<void>((resolve) => w.once('ready', () => resolve()))
  }

  async stopWatching (): Promise<void> {
    await this.watchStarting?.catch(() => undefined)
    const w = this.watcher
    this.watcher = undefined
    for (const t of this.timers.values()) this.rt.clock.clearTimeout(t)
    this.timers.clear()
    await w?.close()
  }
}
