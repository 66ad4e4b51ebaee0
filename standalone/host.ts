// The standalone host: lays out a host root, installs the globals, imports the plugin entry by file
// URL as Miao-Yunzai / TRSS-Yunzai do, and dispatches chat events built in-process. Tests use it
// directly; cli.ts wraps it in a console adapter.
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createAccount, type Account } from './account.js'
import { createMiaoBot, createTrssBot, type MiaoBot, type TrssBot } from './bot.js'
import { HostConfig } from './config.js'
import { ContextStore } from './context.js'
import { schedule } from './cron.js'
import { deal, type DispatchDeps } from './dispatch.js'
import { buildMessageEvent, buildPokeEvent, type MessageInput, type PokeInput } from './events.js'
import { buildIncreaseEvent, buildRecallEvent, type IncreaseInput, type RecallInput } from './notices.js'
import { createMiniExpress, type MiniExpress } from './express.js'
import { trssMiddleware } from './trss-middleware.js'
import { GlobalScope } from './globals.js'
import { linkPlugin, prepareRoot, writeFiles } from './host-root.js'
import { MemoryKV } from './kv.js'
import { Loader, type LoadError, type PluginEntry, type TaskEntry } from './loader.js'
import { createLogger, type StandaloneLogger } from './logger.js'
import { Limits } from './limits.js'
import { PluginBase, activatePluginBase } from './plugin-base.js'
import { createSegment, toSegments } from './segments.js'
import { RendererStandIn, rendererStub, type RendererMode } from './renderer.js'
import { STANDALONE_GLOBAL } from './stubs.js'
import { TimerSet } from './timers.js'
import { Transcript } from './transcript.js'
import type {
  DealResult, ForwardNode, GroupConfig, Id, LogEntry, LogLevel, Member, OtherConfig, Profile, Refusal, Sendable,
  StandaloneEvent, TranscriptEntry
} from './types.js'

const PLUGIN_KEY = 'lingxi-plugin'

export interface HostOptions {
  profile: Profile
  /** host root (its cwd); a temp folder, removed on stop, when absent */
  root?: string
  /** the plugin checkout, linked as plugins/lingxi-plugin */
  pluginDir?: string
  /** more plugin folders to link: plugins/<key> → path */
  plugins?: Record<string, string>
  masters: string[]
  botId?: string
  botNickname?: string
  /** cooldowns and the duplicate throttle (default on, with the profile's numbers) */
  cooldowns?: boolean
  /** set in process.env while the host runs */
  env?: Record<string, string>
  /** config/config/group.yaml; key `default` applies everywhere */
  groups?: Record<string, Partial<GroupConfig>>
  /** black/white lists of config/config/other.yaml */
  other?: Partial<OtherConfig>
  /** schedule collected tasks by their cron (default off; tests call runTask) */
  cron?: boolean
  /** echo log lines at or above this level to the console (default off) */
  print?: LogLevel | false
  /** the renderer stand-in (lib/puppeteer/puppeteer.js): off (none, the default), on, fail */
  renderer?: RendererMode
}

interface SendOptions {
  /** group messages: start with an @bot segment */
  at?: boolean
  nickname?: string
  role?: Member['role']
}

export interface Host {
  readonly profile: Profile
  readonly root: string
  readonly botId: string
  readonly config: HostConfig
  readonly logger: StandaloneLogger
  readonly kv: MemoryKV
  /** the global `Bot` (after start) */
  readonly bot: MiaoBot | TrssBot | undefined
  /** TRSS: base URL of the shared HTTP server (Bot.url) */
  readonly url: string | undefined
  readonly transcript: readonly TranscriptEntry[]
  readonly recalls: readonly string[]
  readonly logs: readonly LogEntry[]
  readonly refusals: readonly Refusal[]
  /** loaded plugin classes in dispatch order */
  readonly plugins: readonly PluginEntry[]
  readonly tasks: readonly TaskEntry[]
  readonly loadErrors: readonly LoadError[]
  /** the namespace of plugins/lingxi-plugin/index.js once loaded */
  readonly module: Record<string, unknown> | undefined
  readonly modules: ReadonlyMap<string, Record<string, unknown>>
  cooldowns: boolean
  start(): Promise<void>
  stop(): Promise<void>
  sendPrivate(userId: Id, message: Sendable, opts?: SendOptions): Promise<DealResult>
  sendGroup(groupId: Id, userId: Id, message: Sendable, opts?: SendOptions): Promise<DealResult>
  poke(input: PokeInput): Promise<DealResult>
  /** `userId` joined the group (notice.group.increase) */
  memberJoined(input: IncreaseInput): Promise<DealResult>
  /** a message was recalled (notice.group.recall / notice.friend.recall) */
  recalled(input: RecallInput): Promise<DealResult>
  makeEvent(input: MessageInput): StandaloneEvent
  dispatch(e: StandaloneEvent): Promise<DealResult>
  runTask(name: string): Promise<number>
  onSend(listener: (entry: TranscriptEntry) => void): () => void
  /** the first sent message at transcript index >= since (default 0, so past ones count) that matches */
  waitForSend(match?: (entry: TranscriptEntry) => boolean, since?: number): Promise<TranscriptEntry>
  /** make every send fail with `error` (undefined: sends work again) */
  failSends(error?: Error): void
  /** the renderer stand-in: switch `mode`, read what it rendered (`calls`) */
  readonly renderer: RendererStandIn
}

let running: StandaloneHost | undefined

class StandaloneHost implements Host {
  readonly profile: Profile
  readonly botId: string
  readonly config: HostConfig
  readonly logger: StandaloneLogger
  readonly kv = new MemoryKV()
  readonly logs: LogEntry[] = []
  readonly refusals: Refusal[] = []
  root: string
  bot: MiaoBot | TrssBot | undefined
  url: string | undefined

  private readonly opts: HostOptions
  private readonly recorder = new Transcript()
  private readonly contexts = new ContextStore()
  private readonly timers = new TimerSet()
  private readonly limits: Limits
  private readonly loader: Loader
  private readonly globals = new GlobalScope()
  private readonly account: Account
  readonly renderer: RendererStandIn
  private server: Server | undefined
  private cronCancels: Array<() => void> = []
  private ownsRoot = false
  private prevCwd: string | undefined
  private prevEnv = new Map<string, string | undefined>()
  private started = false
  private stopped = false
  private detachBase: () => void = () => {}

  constructor(opts: HostOptions) {
    this.opts = opts
    this.profile = opts.profile
    this.botId = opts.botId ?? '10000'
    this.root = opts.root ? resolve(opts.root) : ''
    this.logger = createLogger(this.profile, (entry) => this.logs.push(entry), opts.print ?? false)
    this.config = new HostConfig({ profile: this.profile, botId: this.botId, masters: opts.masters, other: opts.other, groups: opts.groups })
    this.limits = new Limits(this.profile, opts.cooldowns ?? true)
    this.loader = new Loader(this.profile, this.logger)
    this.account = createAccount({ profile: this.profile, botId: this.botId, nickname: opts.botNickname ?? '灵犀', transcript: this.recorder })
    this.renderer = new RendererStandIn(opts.renderer, (file) => ({ type: 'image', file }))
  }

  get transcript(): readonly TranscriptEntry[] { return this.recorder.entries }
  get recalls(): readonly string[] { return this.recorder.recalls }
  get plugins(): readonly PluginEntry[] { return this.loader.entries }
  get tasks(): readonly TaskEntry[] { return this.loader.tasks }
  get loadErrors(): readonly LoadError[] { return this.loader.errors }
  get modules(): ReadonlyMap<string, Record<string, unknown>> { return this.loader.modules }
  get module(): Record<string, unknown> | undefined { return this.loader.modules.get(PLUGIN_KEY) }
  get cooldowns(): boolean { return this.limits.enabled }
  set cooldowns(on: boolean) { this.limits.enabled = on }

  async start(): Promise<void> {
    if (this.started || this.stopped) throw new Error(this.started ? 'host already started' : 'a stopped host cannot restart; create a new one')
    // globals, cwd and the plugin base are process-wide: one running host at a time
    if (running) throw new Error(`another standalone host is running (${running.root}); stop it first`)
    running = this
    this.started = true
    try {
      await this.boot()
    } catch (error) {
      await this.stop()
      throw error
    }
  }

  private async boot(): Promise<void> {
    if (!this.root) {
      this.root = mkdtempSync(join(tmpdir(), `lingxi-${this.profile}-`))
      this.ownsRoot = true
    }
    prepareRoot(this.root, this.profile)
    if (this.opts.pluginDir) linkPlugin(this.root, PLUGIN_KEY, this.opts.pluginDir)
    for (const [key, dir] of Object.entries(this.opts.plugins ?? {})) linkPlugin(this.root, key, dir)

    let connect: ((a: Account) => void) | undefined
    let express: MiniExpress | undefined
    if (this.profile === 'trss') {
      // TRSS starts its HTTP server before plugins load; no account is connected during import.
      express = createMiniExpress((prefix) => this.logger.warn(`[standalone] ${prefix} was mounted after online: TRSS never routes it`))
      // as TRSS: compression and the body parsers run before any plugin route
      for (const mw of trssMiddleware()) express.use(mw)
      this.server = createServer(express)
      const server = this.server
      await new Promise<void>((ok, fail) => server.once('error', fail).listen(0, '127.0.0.1', () => ok()))
      const { port } = server.address() as AddressInfo
      this.url = `http://127.0.0.1:${port}`
      this.config.server = { port, url: this.url }
      const trss = createTrssBot({ express, server, url: this.url, logger: this.logger, masters: () => this.config.master })
      this.bot = trss.bot
      connect = trss.connect
    } else {
      this.bot = createMiaoBot(this.account)
    }
    writeFiles(this.root, { ...this.config.files(), 'lib/puppeteer/puppeteer.js': rendererStub(STANDALONE_GLOBAL) })

    this.detachBase = activatePluginBase({ profile: this.profile, store: this.contexts, logger: this.logger })
    this.globals.install({
      plugin: PluginBase, Bot: this.bot, logger: this.logger, segment: createSegment(this.profile), redis: this.kv,
      [STANDALONE_GLOBAL]: { config: () => this.config.view(), common: this.common(), renderer: this.renderer },
      // The port caches the kind it reads from package.json in a module that may outlive this host
      // in a test process (see plugin-base.ts), so name it explicitly.
      __lingxiHostKind: this.profile
    })
    this.prevCwd = process.cwd()
    process.chdir(this.root)
    for (const [k, v] of Object.entries(this.opts.env ?? {})) {
      if (!this.prevEnv.has(k)) this.prevEnv.set(k, process.env[k])
      process.env[k] = v
    }

    await this.loader.load(this.root)
    if (connect && express) {
      connect(this.account)
      this.bot.emit('online')
      express.online()
    }
    if (this.opts.cron) for (const task of this.loader.tasks) this.scheduleTask(task)
    this.logger.mark(`standalone ${this.profile} host ready in ${this.root}`)
  }

  async stop(): Promise<void> {
    if (!this.started) return
    this.started = false
    this.stopped = true
    // Like Miao-Yunzai and TRSS-Yunzai, no plugin's stop hook is called: a real host's exit ends the
    // process, so only what a plugin has on disk (or flushes on process exit) survives. A test that
    // goes on afterwards stops the plugin itself (tests/support/plugin-host.ts stopHost).
    for (const cancel of this.cronCancels) cancel()
    this.cronCancels = []
    this.timers.clear()
    this.contexts.clear()
    const server = this.server
    if (server) {
      server.closeAllConnections()
      await new Promise<void>((ok) => server.close(() => ok()))
      this.server = undefined
    }
    if (this.prevCwd) process.chdir(this.prevCwd)
    for (const [k, v] of this.prevEnv) {
      if (v === undefined) delete process.env[k]
      else process.env[k] = v
    }
    this.prevEnv.clear()
    this.globals.restore()
    this.detachBase()
    if (running === this) running = undefined
    if (this.ownsRoot) rmSync(this.root, { recursive: true, force: true })
  }

  makeEvent(input: MessageInput): StandaloneEvent {
    return buildMessageEvent({ profile: this.profile, account: this.account, transcript: this.recorder }, input)
  }

  async dispatch(e: StandaloneEvent): Promise<DealResult> {
    if (!this.started) throw new Error('host not started')
    const deps: DispatchDeps = {
      profile: this.profile, loader: this.loader, config: this.config, limits: this.limits, contexts: this.contexts,
      logger: this.logger, refusals: this.refusals, timers: this.timers
    }
    return deal(deps, e)
  }

  sendPrivate(userId: Id, message: Sendable, opts: SendOptions = {}): Promise<DealResult> {
    return this.dispatch(this.makeEvent({ kind: 'private', userId, message, nickname: opts.nickname }))
  }

  sendGroup(groupId: Id, userId: Id, message: Sendable, opts: SendOptions = {}): Promise<DealResult> {
    return this.dispatch(this.makeEvent({ kind: 'group', groupId, userId, message, atBot: opts.at, nickname: opts.nickname, role: opts.role }))
  }

  /** A poke notice: `userId` pokes the bot (or `targetId`), in a group or as a friend. */
  poke(input: PokeInput): Promise<DealResult> {
    return this.dispatch(buildPokeEvent({ profile: this.profile, account: this.account, transcript: this.recorder }, input))
  }

  memberJoined(input: IncreaseInput): Promise<DealResult> {
    return this.dispatch(buildIncreaseEvent({ profile: this.profile, account: this.account, transcript: this.recorder }, input))
  }

  recalled(input: RecallInput): Promise<DealResult> {
    return this.dispatch(buildRecallEvent({ profile: this.profile, account: this.account, transcript: this.recorder }, input))
  }

  /** Runs every task with this name now, `fnc()` called unbound as the hosts do; returns how many ran. */
  async runTask(name: string): Promise<number> {
    const tasks = this.loader.tasks.filter((t) => t.name === name)
    if (!tasks.length) throw new Error(`no task named "${name}" (loaded: ${this.loader.tasks.map((t) => t.name).join(', ') || 'none'})`)
    for (const task of tasks) await this.runOne(task)
    return tasks.length
  }

  private async runOne(task: TaskEntry): Promise<void> {
    const fnc = task.fnc
    try {
      if (typeof fnc !== 'function') throw new TypeError(`task "${task.name}" fnc is not a function`)
      await fnc()
    } catch (error) {
      this.logger.error(`定时任务 ${task.name} 错误`, error)
      throw error
    }
  }

  onSend(listener: (entry: TranscriptEntry) => void): () => void {
    return this.recorder.onEntry(listener)
  }

  waitForSend(match: (entry: TranscriptEntry) => boolean = () => true, since = 0): Promise<TranscriptEntry> {
    return this.recorder.waitFor(match, since)
  }

  failSends(error?: Error): void {
    this.recorder.failWith = error
  }

  private scheduleTask(task: TaskEntry): void {
    try {
      this.cronCancels.push(schedule(task.cron, () => {
        if (task.log) this.logger.mark(`定时任务 ${task.name}`)
        this.runOne(task).catch(() => { /* already logged */ })
      }))
    } catch (error) {
      this.logger.error(`定时任务 ${task.name} cron 无效: ${task.cron}`, error)
    }
  }

  /** What the lib/common/common.js stub delegates to. */
  private common(): Record<string, unknown> {
    const account = this.account
    return {
      relpyPrivate: (userId: Id, msg: Sendable) => account.pickFriend(userId).sendMsg(msg),
      makeForwardMsg: (e: StandaloneEvent | undefined, msgs: Sendable | Sendable[]) => {
        const nodes: ForwardNode[] = (Array.isArray(msgs) ? msgs : [msgs]).map((m) => ({ message: toSegments(m), nickname: account.nickname, user_id: account.uin }))
        return (e?.group ?? e?.friend ?? account).makeForwardMsg(nodes)
      }
    }
  }
}

export function createHost(opts: HostOptions): Host {
  return new StandaloneHost(opts)
}
