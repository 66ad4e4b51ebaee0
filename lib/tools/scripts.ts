// Script tools (spec 4.5 `/api/tools/js`): `<data>/tools/<name>.js|.ts`, one tool per file, named by
// the file. A script exports `description`, `inputSchema`, optional `category`/`dangerous`/`risk`, and
// `execute(args, ctx)` (as named exports or one default object).
//
// Loading: esbuild transpiles the file (TS or JS, ESM syntax) to CommonJS and it runs through
// vm.runInThisContext with its own module object. Unlike `import()` (even with a cache-busting query
// or tsx's namespaced tsImport), nothing is kept in Node's ESM module map, so a reload drops the old
// module for the GC: no leak however often a file is edited. Trade-off: a script's own `require` is
// CommonJS (Node builtins and CJS packages; ESM-only packages need `await import()`), and helper
// files a script itself requires stay in Node's CJS cache (only the tool file is reloaded).
import { readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, dirname, extname, join } from 'node:path'
import vm from 'node:vm'
import { watch, type FSWatcher } from 'chokidar'
import type { ToolResult } from '../chat/contracts.js'
import { AppError, errorText } from '../core/errors.js'
import { containedPath } from '../core/paths.js'
import type { Runtime } from '../runtime.js'
import type { RegisteredTool, ToolCallContext, ToolRisk, ToolSource } from './types.js'

export const SCRIPT_NAME = /^[a-zA-Z0-9_-]{1,64}$/
const EXTS = ['.js', '.ts'] as const
export type ScriptExt = typeof EXTS[number]

export interface ScriptFile { name: string; filename: string; size: number; modifiedAt: string; loaded: boolean; error?: string }

interface ScriptModule {
  description?: unknown
  inputSchema?: unknown
  category?: unknown
  dangerous?: unknown
  risk?: unknown
  execute?: unknown
  default?: unknown
}

/** Splits `foo`, `foo.js`, `foo.ts` into a validated name and extension (undefined: not given). */
export function parseScriptName (raw: string): { name: string; ext?: ScriptExt } {
  const ext = EXTS.find((e) => raw.endsWith(e))
  const name = ext ? raw.slice(0, -ext.length) : raw
  if (!SCRIPT_NAME.test(name)) throw new AppError('INVALID_ARGS', 'name must be 1-64 letters, digits, _ or - (optionally ending in .js or .ts)')
  return ext ? { name, ext } : { name }
}

function toResult (v: unknown): ToolResult {
  if (v && typeof v === 'object' && Array.isArray((v as ToolResult).content)) {
    const r = v as ToolResult
    return { content: r.content, isError: r.isError === true }
  }
  return { content: [{ type: 'text', text: typeof v === 'string' ? v : JSON.stringify(v ?? null) }], isError: false }
}

export class ScriptTools implements ToolSource {
  readonly id = 'script'
  readonly kind = 'script' as const
  readonly dir: string
  private tools = new Map<string, RegisteredTool>()
  private errors = new Map<string, string>()
  private listeners: Array<() => void> = []
  private watcher: FSWatcher | undefined
  private timers = new Map<string, NodeJS.Timeout>()
  private cached: RegisteredTool[] | undefined

  constructor (private readonly rt: Runtime) {
    this.dir = join(rt.paths.dataDir, 'tools')
    mkdirSync(this.dir, { recursive: true })
  }

  onChange (fn: () => void): void { this.listeners.push(fn) }
  private changed (): void { this.cached = undefined; for (const fn of this.listeners) fn() }
  list (): RegisteredTool[] { return (this.cached ??= [...this.tools.values()]) }
  errorOf (name: string): string | undefined { return this.errors.get(name) }

  /** The file of a script, contained in the tools folder (DECISIONS part 4). */
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
      if (!(EXTS as readonly string[]).includes(ext) || !SCRIPT_NAME.test(name)) continue
      const st = await stat(join(this.dir, f)).catch(() => undefined)
      if (!st?.isFile()) continue
      const error = this.errors.get(name)
      out.push({ name, filename: f, size: st.size, modifiedAt: st.mtime.toISOString(), loaded: this.tools.has(name), ...(error ? { error } : {}) })
    }
    return out
  }

  async read (name: string): Promise<{ name: string; filename: string; source: string; size: number; modifiedAt: string; error?: string }> {
    const found = await this.existing(name)
    if (!found) throw new AppError('TOOL_NOT_FOUND', `Script tool ${name} does not exist`)
    const [source, st] = await Promise.all([readFile(found.file, 'utf8'), stat(found.file)])
    const error = this.errors.get(name)
    return { name, filename: basename(found.file), source, size: st.size, modifiedAt: st.mtime.toISOString(), ...(error ? { error } : {}) }
  }

  /** Writes atomically, then loads the file now (the watcher's later event reloads it harmlessly). */
  async write (name: string, ext: ScriptExt, source: string): Promise<{ loaded: boolean; error?: string }> {
    const file = this.pathOf(name, ext)
    const tmp = join(dirname(file), `.${name}${ext}.${process.pid}.tmp`)
    await writeFile(tmp, source, 'utf8')
    await rename(tmp, file)
    await this.load(name)
    const error = this.errors.get(name)
    return { loaded: this.tools.has(name), ...(error ? { error } : {}) }
  }

  async remove (name: string): Promise<void> {
    const found = await this.existing(name)
    if (!found) throw new AppError('TOOL_NOT_FOUND', `Script tool ${name} does not exist`)
    await rm(found.file)
    this.drop(name)
  }

  private drop (name: string): void {
    const had = this.tools.delete(name)
    this.errors.delete(name)
    if (had) this.changed()
  }

  /** (Re)loads one script by name; a broken script is reported, never thrown. */
  async load (name: string): Promise<void> {
    const found = await this.existing(name)
    if (!found) { this.drop(name); return }
    try {
      const tool = await this.compile(name, found.file, found.ext)
      this.tools.set(name, tool)
      this.errors.delete(name)
    } catch (err) {
      this.tools.delete(name)
      this.errors.set(name, errorText(err).slice(0, 1000))
      this.rt.log.warn('A script tool failed to load', { tool: name, error: errorText(err).slice(0, 300) })
    }
    this.changed()
  }

  async reloadAll (): Promise<{ loaded: number; errors: Record<string, string> }> {
    const files = await readdir(this.dir).catch(() => [] as string[])
    const names = new Set(files.filter((f) => (EXTS as readonly string[]).includes(extname(f))).map((f) => basename(f, extname(f))).filter((n) => SCRIPT_NAME.test(n)))
    for (const n of [...this.tools.keys()]) if (!names.has(n)) this.drop(n)
    for (const n of names) await this.load(n)
    return { loaded: this.tools.size, errors: Object.fromEntries(this.errors) }
  }

  private async compile (name: string, file: string, ext: ScriptExt): Promise<RegisteredTool> {
    const source = await readFile(file, 'utf8')
    const { transform } = await import('esbuild') // loaded on first use: most starts have no scripts
    const { code } = await transform(source, { loader: ext === '.ts' ? 'ts' : 'js', format: 'cjs', target: 'node20', sourcefile: file })
    const mod: { exports: ScriptModule } = { exports: {} }
    const fn = vm.runInThisContext(`(function (exports, require, module, __filename, __dirname) {${code}\n})`, { filename: file }) as
      (e: unknown, r: NodeJS.Require, m: unknown, f: string, d: string) => void
    fn(mod.exports, createRequire(file), mod, file, dirname(file))
    const ex = mod.exports
    const m: ScriptModule = ex.default && typeof ex.default === 'object' ? ex.default as ScriptModule : ex
    const exec = typeof m.execute === 'function' ? m.execute : typeof ex.default === 'function' ? ex.default : undefined
    if (typeof exec !== 'function') throw new Error('a script tool must export an execute(args, ctx) function')
    const schema = m.inputSchema && typeof m.inputSchema === 'object' ? m.inputSchema as RegisteredTool['inputSchema'] : { type: 'object' as const, properties: {} }
    if (schema.type !== 'object') throw new Error('inputSchema.type must be "object"')
    const risk: ToolRisk = m.risk === 'medium' || m.risk === 'high' ? m.risk : 'low'
    return {
      name,
      description: typeof m.description === 'string' ? m.description : `Script tool ${name}`,
      category: typeof m.category === 'string' && m.category ? m.category : 'script',
      source: 'script',
      inputSchema: schema,
      risk,
      dangerous: m.dangerous === true,
      execute: async (args: Record<string, unknown>, ctx: ToolCallContext) => toResult(await (exec as (a: unknown, c: unknown) => unknown)(args, ctx))
    }
  }

  // ---- watcher -------------------------------------------------------------------------------------
  get watching (): boolean { return this.watcher !== undefined }

  async startWatching (): Promise<void> {
    if (this.watcher) return
    const w = watch(this.dir, {
      ignoreInitial: true,
      depth: 0,
      ignored: (p: string) => p !== this.dir && (basename(p).startsWith('.') || (extname(p) !== '' && !(EXTS as readonly string[]).includes(extname(p))))
    })
    const onFile = (p: string): void => {
      const name = basename(p, extname(p))
      if (!SCRIPT_NAME.test(name)) return
      const old = this.timers.get(name)
      if (old) this.rt.clock.clearTimeout(old)
      // Debounce bursts of events from one save (editors write, rename, touch).
      this.timers.set(name, this.rt.clock.setTimeout(() => { this.timers.delete(name); void this.load(name) }, 50))
    }
    w.on('add', onFile).on('change', onFile).on('unlink', onFile)
    w.on('error', (err) => this.rt.log.warn('Script tools watcher error', { error: errorText(err) }))
    this.watcher = w
    await new Promise<void>((resolve) => w.once('ready', () => resolve()))
  }

  async stopWatching (): Promise<void> {
    const w = this.watcher
    this.watcher = undefined
    for (const t of this.timers.values()) this.rt.clock.clearTimeout(t)
    this.timers.clear()
    await w?.close()
  }
}
