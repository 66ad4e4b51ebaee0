// The live set of document skills: scanned from the bundled folder and the user's folder, kept up to
// date by a chokidar watcher, with global load/unload (persisted) and per-conversation activation.
// chokidar is loaded when watching starts (lib/core/packages.ts); without it the skills are still read
// at start (and on reload), only watching is off, said once in the log.
import { mkdir } from 'node:fs/promises'
import { basename, join, resolve } from 'node:path'
import type { FSWatcher } from 'chokidar'
import type { Clock } from '../core/clock.js'
import { errorText } from '../core/errors.js'
import type { EventBus } from '../core/event-bus.js'
import type { PluginLogger } from '../core/logger.js'
import { importOptional } from '../core/packages.js'
import { Store } from '../core/store.js'
import { byPriority, policyAllows, toolPolicy, triggerMatches, type ToolPolicy } from './activation.js'
import { skillFormatOf } from './parse.js'
import { ignoredDir, MAX_DEPTH, scanSkillDir } from './scan.js'
import type { Skill, SkillDocument, SkillLoadError, SkillOrigin } from './types.js'

export interface SkillRoot { dir: string; origin: SkillOrigin }

/** The part of a turn that decides which skills are active. */
export interface SkillTurn { scope: { conversationId: string }; input: string }

export interface SkillServiceOptions {
  roots: () => SkillRoot[]
  watch: () => boolean
  dataDir: string
  bus: EventBus
  log: PluginLogger
  clock: Clock
  /** Quiet time after the last file event before re-reading (editors write in several steps). */
  debounceMs?: number
}

interface SkillsData { loaded: string[] }

const MAX_CONVERSATIONS = 2000

export class SkillService {
  private skills = new Map<string, Skill>()
  private loadErrors: SkillLoadError[] = []
  private watcher: FSWatcher | undefined
  private timer: NodeJS.Timeout | undefined
  private scanning: Promise<void> = Promise.resolve()
  private restarting: Promise<void> = Promise.resolve()
  private readonly conversations = new Map<string, Set<string>>()
  private stopped = false
  /** Watching could not start because chokidar is missing: said once. */
  private watchWarned = false

  private constructor (private readonly opts: SkillServiceOptions, private readonly store: Store<SkillsData>) {}

  static async open (opts: SkillServiceOptions): Promise<SkillService> {
    const store = await Store.open<SkillsData>(join(opts.dataDir, 'skills.json'), { loaded: [] }, { log: opts.log, pretty: true })
    if (!Array.isArray(store.data.loaded)) await store.update((d) => { d.loaded = [] })
    return new SkillService(opts, store)
  }

  /** Watches every root (when watching is on) and scans them. */
  async start (): Promise<void> {
    for (const r of this.opts.roots()) {
      if (r.origin === 'user') await mkdir(r.dir, { recursive: true, mode: 0o700 }).catch((err: unknown) => this.opts.log.warn('Cannot create the skills folder', { dir: r.dir, error: String(err) }))
    }
    // Watch first, then scan: a file written while scanning is then never missed.
    if (this.opts.watch()) await this.startWatching()
    await this.reload()
  }

  /** Restarts scanning and watching (the configured folder or the watch switch changed). Serialised, so two quick changes never leave two watchers. */
  restart (): Promise<void> {
    const run = this.restarting.then(async () => {
      await this.stopWatching()
      if (!this.stopped) await this.start()
    })
    this.restarting = run.catch(() => undefined)
    return run
  }

  async stop (): Promise<void> {
    this.stopped = true
    await this.restarting
    await this.stopWatching()
    await this.scanning
  }

  get watching (): boolean { return this.watcher !== undefined }

  /** Re-reads every root; resolves when the registry reflects the files. Emits the differences. */
  reload (): Promise<void> {
    const run = this.scanning.then(() => this.rescan())
    this.scanning = run.catch(() => undefined)
    return run
  }

  private async rescan (): Promise<void> {
    const next = new Map<string, Skill>()
    const errors: SkillLoadError[] = []
    // Later roots (the user's folder) override earlier ones (bundled) with the same skill name.
    for (const root of this.opts.roots()) {
      const r = await scanSkillDir(root.dir, root.origin)
      errors.push(...r.errors)
      for (const s of r.skills) next.set(s.name, s)
    }
    const before = this.skills
    this.skills = next
    const errorsChanged = JSON.stringify(errors) !== JSON.stringify(this.loadErrors)
    this.loadErrors = errors
    if (errorsChanged) for (const e of errors) this.opts.log.warn(`Skill file not loaded: ${e.message}`, { path: e.path })
    let changed = errorsChanged
    const ts = this.opts.clock.now()
    for (const [name, s] of next) {
      const old = before.get(name)
      if (!old) { changed = true; this.emit('skill-added', { name, path: s.path, timestamp: ts }) } else if (JSON.stringify(old) !== JSON.stringify(s)) { changed = true; this.emit('skill-changed', { name, path: s.path, timestamp: ts }) }
    }
    for (const [name, s] of before) {
      if (!next.has(name)) { changed = true; this.emit('skill-removed', { name, path: s.path, timestamp: ts }) }
    }
    if (changed) this.emit('skills-updated', { count: next.size, errors: errors.length, timestamp: ts })
  }

  private emit (name: string, data: Record<string, unknown>): void { this.opts.bus.emit('skills', name, data) }

  private async startWatching (): Promise<void> {
    let watch: typeof import('chokidar').watch
    try {
      ({ watch } = await importOptional('chokidar', () => import('chokidar')))
    } catch (err) {
      if (!this.watchWarned) this.opts.log.warn(`Skill files are not watched (read at start and on reload only): ${errorText(err)}`)
      this.watchWarned = true
      return
    }
    if (this.stopped) return
    const dirs = this.opts.roots().map((r) => resolve(r.dir))
    const rootSet = new Set(dirs)
    const w = watch(dirs, {
      ignoreInitial: true,
      depth: MAX_DEPTH,
      // Only skill definition files and folders matter; editors' temp files are ignored. A root is
      // never ignored, even when its own name starts with a dot.
      ignored: (p, st) => !rootSet.has(resolve(p)) && (ignoredDir(basename(p)) || ((st?.isFile() ?? false) && !skillFormatOf(p)))
    })
    w.on('all', () => this.schedule())
    w.on('error', (err) => this.opts.log.warn('Skills watcher error', { error: String(err) }))
    await new Promise<void>((done) => w.once('ready', () => done()))
    if (this.stopped) { await w.close(); return }
    this.watcher = w
  }

  private async stopWatching (): Promise<void> {
    if (this.timer) { this.opts.clock.clearTimeout(this.timer); this.timer = undefined }
    const w = this.watcher
    this.watcher = undefined
    if (w) await w.close()
  }

  /** Debounced re-read: an atomic save (write temp, rename) or chunked writes give one update. */
  private schedule (): void {
    if (this.stopped) return
    if (this.timer) this.opts.clock.clearTimeout(this.timer)
    this.timer = this.opts.clock.setTimeout(() => {
      this.timer = undefined
      this.reload().catch((err: unknown) => this.opts.log.error('Skills reload failed', {}, err))
    }, this.opts.debounceMs ?? 60)
  }

  // ---- queries ----

  list (): Skill[] { return [...this.skills.values()].sort(byPriority) }
  get (name: string): Skill | undefined { return this.skills.get(name) }
  errors (): SkillLoadError[] { return [...this.loadErrors] }

  /** Globally loaded skill names that exist. */
  loadedNames (): string[] { return this.store.data.loaded.filter((n) => this.skills.has(n)) }
  isLoaded (name: string): boolean { return this.store.data.loaded.includes(name) }

  document (s: Skill): SkillDocument {
    return {
      name: s.name,
      description: s.description,
      triggers: s.triggers,
      allowedTools: s.allowedTools,
      disallowedTools: s.disallowedTools,
      priority: s.priority,
      autoActivate: s.autoActivate,
      capabilities: s.capabilities,
      path: s.path,
      directory: s.directory,
      origin: s.origin,
      loaded: this.isLoaded(s.name)
    }
  }

  // ---- global load/unload (every conversation) ----

  /** Returns false when the skill does not exist. */
  async load (name: string): Promise<boolean> {
    if (!this.skills.has(name)) return false
    if (!this.isLoaded(name)) await this.store.update((d) => { d.loaded.push(name) })
    this.emit('skill-loaded', { name, timestamp: this.opts.clock.now() })
    return true
  }

  async unload (name: string): Promise<void> {
    if (this.isLoaded(name)) await this.store.update((d) => { d.loaded = d.loaded.filter((n) => n !== name) })
    this.emit('skill-unloaded', { name, timestamp: this.opts.clock.now() })
  }

  // ---- per conversation ----

  /** Activates a skill in one conversation (the `load_skill` tool). False when it does not exist. */
  activate (conversationId: string, name: string): boolean {
    if (!this.skills.has(name)) return false
    let set = this.conversations.get(conversationId)
    if (!set) {
      if (this.conversations.size >= MAX_CONVERSATIONS) {
        const oldest = this.conversations.keys().next().value
        if (oldest !== undefined) this.conversations.delete(oldest)
      }
      set = new Set()
      this.conversations.set(conversationId, set)
    }
    set.add(name)
    this.emit('skill-activated', { name, conversationId, timestamp: this.opts.clock.now() })
    return true
  }

  deactivate (conversationId: string, name: string): void {
    this.conversations.get(conversationId)?.delete(name)
  }

  /** Active in a turn: auto-activated, globally loaded, activated in this conversation, or triggered by the input. */
  activeFor (turn: SkillTurn): Skill[] {
    const conv = this.conversations.get(turn.scope.conversationId)
    const loaded = new Set(this.store.data.loaded)
    return this.list().filter((s) => s.autoActivate || loaded.has(s.name) || (conv?.has(s.name) ?? false) ||
      s.triggers.some((t) => triggerMatches(t, turn.input)))
  }

  policyFor (turn: SkillTurn): ToolPolicy { return toolPolicy(this.activeFor(turn)) }

  /** Whether the active skills of a turn let the model use a tool. */
  isToolAllowed (tool: string, turn: SkillTurn): boolean { return policyAllows(this.policyFor(turn), tool) }

  /** Filters tool names (or tool objects) by the active skills of a turn: for the tools domain. */
  filterTools<T extends string | { name: string }>(tools: T[], turn: SkillTurn): T[] {
    const policy = this.policyFor(turn)
    return tools.filter((t) => policyAllows(policy, typeof t === 'string' ? t : t.name))
  }
}
