// The MCP client manager: the configured servers (config `mcp.servers`) and the built-in ones, their
// connections and states (connecting, connected, disconnected, error), health checks, reconnect
// with back-off and the server events of /api/skills/sse (docs/api.md) on the bus's `skills` stream. Connected servers' tools are sources of the tool registry.
import type { Clock } from '../core/clock.js'
import { dict } from '../core/dict.js'
import { AppError, errorText } from '../core/errors.js'
import type { EventBus } from '../core/event-bus.js'
import type { PluginLogger } from '../core/logger.js'
import type { ConfigService } from '../config/service.js'
import { keepMaskedSecrets, maskSecrets } from '../config/secrets.js'
import type { RegisteredTool, ToolRegistryApi } from '../tools/types.js'
import { CommandNotFoundError } from './command.js'
import { McpConnection } from './connection.js'
import { mcpOff, SdkMissing } from './sdk.js'
import { McpToolSource } from './tool-source.js'
import { isTrusted, parseTrust, withInferredType, type McpToolInfo, type ServerConfig, type ServerStatus, type ServerView } from './types.js'
import { validateServerConfig, validateServerName } from './validate.js'

export interface McpManagerOptions {
  config: ConfigService
  bus: EventBus
  log: PluginLogger
  clock: Clock
  version: string
  /** The tool registry, looked up when needed (the tools domain may start later or not at all). */
  tools?: () => ToolRegistryApi | undefined
  healthIntervalMs?: number
  pingTimeoutMs?: number
  backoffBaseMs?: number
  backoffMaxMs?: number
  /** Re-read interval of the tool list of servers that do not announce changes (connection.ts TOOLS_REFRESH_MS). */
  toolsRefreshMs?: number
}

interface Entry {
  name: string
  /** The config as stored (unmasked). */
  raw: Record<string, unknown>
  config?: ServerConfig
  /** Why the stored config is unusable. */
  invalid?: string
  builtin: boolean
  status: ServerStatus
  error?: string
  conn?: McpConnection
  /** A connection still being opened (closed too when the server is closed or removed). */
  pending?: McpConnection
  connectedAt: number | null
  attempts: number
  retryTimer?: NodeJS.Timeout
  /** Disconnected by the user: no automatic reconnect. */
  manual: boolean
  /** Retrying cannot help (missing command). */
  fatal: boolean
  pinging: boolean
  /** Bumped on every connect/close so a late connect result is dropped. */
  generation: number
  removed: boolean
  source: McpToolSource
  sourceAdded: boolean
  /** This server's own queue of management calls (connect, disconnect, update...): one server hanging
   * in connect never holds up another's. */
  queue: Promise<unknown>
}

/**
 * The server's tools with the master's trust applied: the tools of an untrusted server are dangerous, so
 * the registry's gate asks the master in chat and refuses MCP clients (lib/tools/README.md). The trust is
 * read on every listing, so a change applies as soon as the registry re-lists (no reconnect).
 */
class TrustAwareSource extends McpToolSource {
  private base?: RegisteredTool[]
  private mapped?: RegisteredTool[]
  private mappedTrust?: boolean

  constructor (server: string, connection: () => McpConnection | undefined, private readonly trusted: () => boolean) {
    super(server, connection)
  }

  override list (): RegisteredTool[] {
    const base = super.list()
    const trusted = this.trusted()
    if (!this.mapped || base !== this.base || trusted !== this.mappedTrust) {
      this.base = base
      this.mappedTrust = trusted
      this.mapped = trusted ? base : base.map((t) => ({ ...t, dangerous: true, untrusted: true }))
    }
    return this.mapped
  }
}

/** Builtin servers are the plugin's own: trusted unless their config says otherwise. */
const trustOf = (e: { builtin: boolean; config?: ServerConfig }): boolean =>
  e.builtin && e.config?.trust === undefined ? true : isTrusted(e.config)

/** The config with `trust` stored as a boolean (accepted as boolean or 'trusted'/'untrusted'). */
function withTrust (c: ServerConfig, trust?: unknown): ServerConfig {
  if (trust === undefined) return { ...c, trust: isTrusted(c) }
  const t = parseTrust(trust)
  if (t === undefined) throw new AppError('INVALID_ARGS', 'trust must be true, false, "trusted" or "untrusted"')
  return { ...c, trust: t }
}

/** A config without its trust, to tell a trust-only change (no reconnect) from a real one. */
function withoutTrust (raw: Record<string, unknown>): Record<string, unknown> {
  const { trust: _t, ...rest } = raw
  return rest
}

export interface ImportResult { success: number; failed: number; total: number; errors: Array<{ name: string; error: string }> }

/** Key order does not matter when comparing stored configs. */
function stable (v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${stable((v as Record<string, unknown>)[k])}`).join(',')}}`
  return JSON.stringify(v) ?? 'null'
}

export class McpManager {
  private readonly entries = new Map<string, Entry>()
  private chain: Promise<unknown> = Promise.resolve()
  private healthTimer?: NodeJS.Timeout
  private stopped = false
  private offConfig?: () => void

  constructor (private readonly o: McpManagerOptions) {}

  private get healthIntervalMs (): number { return this.o.healthIntervalMs ?? 30_000 }

  /** Runs the mutations of the server list (add, import, config edits) one at a time; never waits for a connect. */
  private serial<T>(fn: () => Promise<T> | T): Promise<T> {
    const run = this.chain.then(fn, fn)
    this.chain = run.catch(() => undefined)
    return run
  }

  /** Runs one server's management calls one at a time, on that server's own queue. */
  private queued<T>(e: Entry, fn: () => Promise<T> | T): Promise<T> {
    const run = e.queue.then(fn, fn)
    e.queue = run.catch(() => undefined)
    return run
  }

  /**
   * Ends a connect still under way (a server that never answers initialize): its connection is closed
   * and the attempt superseded, so the call queued behind it runs at once.
   */
  private abortConnect (e: Entry): void {
    const pending = e.pending
    if (!pending) return
    e.generation++
    e.pending = undefined
    if (e.status === 'connecting') e.status = 'disconnected'
    void pending.close()
  }

  private emit (event: string, data: Record<string, unknown>): void {
    this.o.bus.emit('skills', event, { ...data, timestamp: this.o.clock.now() })
  }

  /** Loads the configured servers and connects them in the background (never blocks start-up). */
  start (): void {
    for (const [name, raw] of Object.entries(this.o.config.get().mcp.servers)) this.createEntry(name, raw, false)
    // without the SDK no server connects (connectEntry); said once here, and in each server's status
    const off = mcpOff()
    if (off && this.entries.size) this.o.log.warn(`${off}; the MCP servers are not connected`)
    for (const e of this.entries.values()) this.autoConnect(e)
    this.healthTimer = this.o.clock.setInterval(() => { void this.checkHealth() }, this.healthIntervalMs)
    this.healthTimer.unref?.()
    this.offConfig = this.o.bus.on('config', (paths) => {
      if (paths.some((p) => p === 'mcp' || p.startsWith('mcp.servers'))) void this.serial(() => this.syncFromConfig())
    })
  }

  async stop (): Promise<void> {
    this.stopped = true
    this.offConfig?.()
    if (this.healthTimer) this.o.clock.clearInterval(this.healthTimer)
    await Promise.all([...this.entries.values()].map((e) => this.closeEntry(e, 'disconnected')))
  }

  /** A server defined by the plugin itself: not stored, cannot be updated or deleted. */
  registerBuiltin (name: string, config: unknown): void {
    validateServerName(name)
    const existing = this.entries.get(name)
    if (existing) throw new AppError('CONFLICT', `Server ${name} already exists`)
    const e = this.createEntry(name, config as Record<string, unknown>, true)
    if (this.healthTimer) this.autoConnect(e)
  }

  private createEntry (name: string, raw: unknown, builtin: boolean): Entry {
    const e: Entry = {
      name, raw: (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>, builtin,
      status: 'disconnected', connectedAt: null, attempts: 0, manual: false, fatal: false, pinging: false,
      generation: 0, removed: false, sourceAdded: false, queue: Promise.resolve(),
      source: new TrustAwareSource(name, () => e.conn, () => trustOf(e))
    }
    this.setConfig(e, raw)
    this.entries.set(name, e)
    return e
  }

  private setConfig (e: Entry, raw: unknown): void {
    e.raw = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>
    try {
      e.config = validateServerConfig(raw)
      e.invalid = undefined
    } catch (err) {
      e.config = undefined
      e.invalid = `Invalid config: ${errorText(err)}`
      e.status = 'error'
      e.error = e.invalid
    }
  }

  private autoConnect (e: Entry): void {
    if (!e.config || e.config.enabled === false || this.stopped) return
    this.connectEntry(e, 'connect').catch(() => { /* state, event and log already recorded */ })
  }

  // ---- connection life cycle ----

  private async connectEntry (e: Entry, mode: 'connect' | 'reconnect'): Promise<void> {
    if (!e.config) throw new AppError('INVALID_ARGS', e.invalid ?? 'Invalid config')
    // Bumped first: a stale attempt closed below must see that it was superseded.
    const gen = ++e.generation
    await this.dropConnection(e)
    if (gen !== e.generation) throw new AppError('CONFLICT', `Server ${e.name} was changed while connecting`)
    const off = mcpOff()
    if (off) {
      // the SDK is not installed (sdk.ts): not connected, the status says why, no retries
      e.status = 'error'
      e.error = off
      e.fatal = true
      e.connectedAt = null
      this.emit('server-error', { name: e.name, error: off })
      throw new SdkMissing(off)
    }
    e.status = 'connecting'
    e.fatal = false
    this.emit(mode === 'reconnect' ? 'server-reconnecting' : 'server-connecting', { name: e.name, attempt: e.attempts })
    const conn: McpConnection = new McpConnection(e.name, e.config, {
      clock: this.o.clock,
      clientVersion: this.o.version,
      onUnexpectedClose: (reason) => { this.onDead(e, conn, `connection closed: ${reason}`) },
      onToolsChanged: () => { if (e.conn === conn) e.source.changed() },
      onSessionRenewed: () => { this.o.log.info(`MCP server ${e.name} had lost our session (restarted?): a new session was opened`, { server: e.name }) },
      ...(this.o.toolsRefreshMs ? { toolsRefreshMs: this.o.toolsRefreshMs } : {}),
      onTrouble: (reason) => { void this.checkNow(e, conn, reason) },
      onStderr: (line) => { this.o.log.debug(`MCP ${e.name}: ${line}`) }
    })
    e.pending = conn
    try {
      await conn.open()
    } catch (err) {
      if (e.pending === conn) e.pending = undefined
      if (gen !== e.generation) throw err
      const msg = errorText(err)
      e.status = 'error'
      e.error = msg
      e.fatal = err instanceof CommandNotFoundError || err instanceof SdkMissing
      this.o.log.warn(`MCP server ${e.name} failed to connect: ${msg}`, { server: e.name })
      this.emit('server-error', { name: e.name, error: msg })
      this.scheduleReconnect(e)
      throw err
    }
    if (e.pending === conn) e.pending = undefined
    if (gen !== e.generation || e.removed || this.stopped) { await conn.close(); return }
    e.conn = conn
    e.status = 'connected'
    e.error = undefined
    e.connectedAt = this.o.clock.now()
    e.attempts = 0
    this.attachSource(e)
    e.source.changed()
    this.o.log.info(`MCP server ${e.name} connected (${conn.tools.length} tools)`, { server: e.name })
    this.emit(mode === 'reconnect' ? 'server-reconnected' : 'server-connected', { name: e.name, toolCount: conn.tools.length })
  }

  /** A connection died (process exited, stream closed, health check failed). */
  private onDead (e: Entry, conn: McpConnection, reason: string): void {
    if (e.conn !== conn) return
    e.conn = undefined
    e.generation++
    void conn.abandon(reason)
    this.detachSource(e)
    e.status = 'error'
    e.error = reason
    e.connectedAt = null
    this.o.log.warn(`MCP server ${e.name} lost: ${reason}`, { server: e.name })
    this.emit('server-error', { name: e.name, error: reason })
    this.scheduleReconnect(e)
  }

  private scheduleReconnect (e: Entry): void {
    if (e.manual || e.removed || e.fatal || this.stopped || e.retryTimer) return
    const base = this.o.backoffBaseMs ?? 1000
    const delay = Math.min(base * 2 ** Math.min(e.attempts, 20), this.o.backoffMaxMs ?? 60_000)
    e.attempts++
    e.retryTimer = this.o.clock.setTimeout(() => {
      e.retryTimer = undefined
      if (e.manual || e.removed || this.stopped || e.conn) return
      this.connectEntry(e, 'reconnect').catch(() => { /* next attempt already scheduled */ })
    }, delay)
    e.retryTimer.unref?.()
  }

  /** The entry's connection and any attempt under way closed, its tools withdrawn, no retry pending. */
  private async dropConnection (e: Entry): Promise<void> {
    if (e.retryTimer) { this.o.clock.clearTimeout(e.retryTimer); e.retryTimer = undefined }
    const conns = [e.conn, e.pending]
    e.conn = undefined
    e.pending = undefined
    this.detachSource(e)
    await Promise.all(conns.map((c) => c?.close()))
  }

  private async closeEntry (e: Entry, status: ServerStatus): Promise<void> {
    e.generation++
    await this.dropConnection(e)
    e.status = status
    e.connectedAt = null
    if (status === 'disconnected') e.error = undefined
  }

  private attachSource (e: Entry): void {
    const reg = this.o.tools?.()
    if (!reg || e.sourceAdded) return
    try {
      reg.addSource(e.source)
      e.sourceAdded = true
    } catch (err) {
      this.o.log.warn(`Could not add the tools of MCP server ${e.name}: ${errorText(err)}`)
    }
  }

  private detachSource (e: Entry): void {
    if (!e.sourceAdded) return
    e.sourceAdded = false
    try { this.o.tools?.()?.removeSource(e.source.id) } catch { /* already gone */ }
  }

  /** Adds the tool sources of connected servers to a registry that appeared after they connected. */
  attachAll (): void {
    for (const e of this.entries.values()) if (e.conn) this.attachSource(e)
  }

  /**
   * A call failed without an answer or the transport reported an error: the connection is checked now
   * (not at the next health check, up to healthIntervalMs away). A dead one is given up, which fails the
   * calls still waiting on it at once, and a reconnect is scheduled.
   */
  private async checkNow (e: Entry, conn: McpConnection, reason: string): Promise<void> {
    if (e.conn !== conn || e.pinging) return
    e.pinging = true
    try {
      await conn.ping(Math.min(this.o.pingTimeoutMs ?? 10_000, conn.timeoutMs, 5_000))
    } catch (err) {
      this.onDead(e, conn, `${reason}; check failed: ${errorText(err)}`)
    } finally {
      e.pinging = false
    }
  }

  /** Pings every connected server; a failed ping counts as a dead connection. */
  async checkHealth (): Promise<void> {
    const ms = this.o.pingTimeoutMs ?? 10_000
    await Promise.all([...this.entries.values()].map(async (e) => {
      const conn = e.conn
      if (!conn || e.pinging) return
      e.pinging = true
      try {
        await conn.ping(Math.min(ms, conn.timeoutMs))
      } catch (err) {
        this.onDead(e, conn, `health check failed: ${errorText(err)}`)
      } finally {
        e.pinging = false
      }
    }))
  }

  // ---- queries ----

  count (): number { return this.entries.size }
  connectedCount (): number { return [...this.entries.values()].filter((e) => e.status === 'connected').length }
  names (): string[] { return [...this.entries.keys()] }

  private entry (name: string): Entry {
    const e = this.entries.get(name)
    if (!e) throw new AppError('SERVER_NOT_FOUND', 'Server not found')
    return e
  }

  private view (e: Entry): ServerView {
    const tools: McpToolInfo[] = e.conn?.tools ?? []
    const type = e.config?.type ?? (String(e.raw.type ?? 'stdio') as ServerView['type'])
    const v: ServerView = {
      name: e.name,
      type,
      transport: type,
      status: e.status,
      enabled: e.config?.enabled !== false,
      trusted: trustOf(e),
      trust: trustOf(e) ? 'trusted' : 'untrusted',
      toolCount: tools.length,
      toolsCount: tools.length,
      isBuiltin: e.builtin,
      connectedAt: e.connectedAt,
      config: maskSecrets(e.config ?? (e.raw as ServerConfig)),
      tools,
      reconnectAttempts: e.attempts
    }
    if (e.error) v.error = e.error
    if (e.conn?.serverInfo) v.serverInfo = e.conn.serverInfo
    return v
  }

  list (): ServerView[] { return [...this.entries.values()].map((e) => this.view(e)) }
  get (name: string): ServerView { return this.view(this.entry(name)) }
  /** The child process id of a connected stdio/npx server. */
  pidOf (name: string): number | undefined { const e = this.entry(name); return (e.conn ?? e.pending)?.pid }
  tools (name: string): McpToolInfo[] { return this.entry(name).conn?.tools ?? [] }

  // ---- mutations (routes) ----

  /** Variant B add: stores the server, then connects it (events connecting, connected or error). */
  async add (name: unknown, rawConfig: unknown, trust?: unknown): Promise<ServerView> {
    const n = validateServerName(name)
    const config = withTrust(validateServerConfig(rawConfig), trust)
    const e = await this.serial(async () => {
      if (this.entries.has(n)) throw new AppError('CONFLICT', `Server ${n} already exists`)
      await this.o.config.writer('mcp').update({ servers: { [n]: config } })
      return this.createEntry(n, config, false)
    })
    return this.queued(e, async () => {
      if (config.enabled !== false && !e.removed) await this.connectEntry(e, 'connect').catch(() => undefined)
      return this.view(e)
    })
  }

  /** Replaces the config (masked secrets sent back keep the stored ones) and reconnects. */
  async update (name: string, rawConfig: unknown, trust?: unknown): Promise<ServerView> {
    const e = this.entry(name)
    return this.queued(e, async () => {
      if (e.builtin) throw new AppError('INVALID_ARGS', 'Cannot update builtin server')
      const config = withTrust(validateServerConfig(keepMaskedSecrets(withInferredType(rawConfig), e.raw)), trust)
      // Only the trust changed: the tools are re-listed with their new risk, the connection stays.
      const trustOnly = e.config !== undefined && stable(e.raw) !== stable(config) && stable(withoutTrust(e.raw)) === stable(withoutTrust(config))
      if (!trustOnly) this.abortConnect(e)
      // The writes and the new config in one step of the server list's queue: the config event they
      // raise (syncFromConfig, queued behind) then finds the entry up to date. The connect comes after.
      await this.serial(async () => {
        // Two writes: a deep merge would keep keys the new config dropped.
        await this.o.config.writer('mcp').update({ servers: { [name]: null } })
        await this.o.config.writer('mcp').update({ servers: { [name]: config } })
        if (!trustOnly) await this.closeEntry(e, 'disconnected')
        this.setConfig(e, config)
      })
      if (trustOnly) {
        e.source.changed()
        return this.view(e)
      }
      e.manual = false
      e.attempts = 0
      if (config.enabled !== false) await this.connectEntry(e, 'reconnect').catch(() => undefined)
      return this.view(e)
    })
  }

  /** The master's trust in a server (PUT with only `trust`): the tools' risk changes at once, no reconnect. */
  async setTrust (name: string, trust: unknown): Promise<ServerView> {
    const e = this.entry(name)
    return this.queued(e, async () => {
      if (e.builtin) throw new AppError('INVALID_ARGS', 'Cannot update builtin server')
      const trusted = parseTrust(trust)
      if (trusted === undefined) throw new AppError('INVALID_ARGS', 'trust must be true, false, "trusted" or "untrusted"')
      const raw = { ...e.raw, trust: trusted }
      await this.serial(async () => {
        await this.o.config.writer('mcp').update({ servers: { [name]: { trust: trusted } } })
        this.setConfig(e, raw)
      })
      e.source.changed()
      return this.view(e)
    })
  }

  async remove (name: string): Promise<void> {
    const e = this.entry(name)
    if (e.builtin) throw new AppError('INVALID_ARGS', 'Cannot delete builtin server')
    this.abortConnect(e)
    return this.queued(e, async () => {
      if (e.removed) throw new AppError('SERVER_NOT_FOUND', 'Server not found')
      await this.serial(async () => {
        await this.o.config.writer('mcp').update({ servers: { [name]: null } })
        await this.removeEntry(e)
      })
    })
  }

  private async removeEntry (e: Entry): Promise<void> {
    e.removed = true
    this.entries.delete(e.name)
    await this.closeEntry(e, 'disconnected')
    this.emit('server-removed', { name: e.name })
  }

  /** Variant A connect: 409 ALREADY_CONNECTED when connected; CONNECTION_FAILED/TIMEOUT on failure. */
  async connect (name: string): Promise<ServerView> {
    const e = this.entry(name)
    return this.queued(e, async () => {
      if (e.status === 'connected') throw new AppError('ALREADY_CONNECTED', `Server ${name} is already connected`)
      e.manual = false
      e.attempts = 0
      await this.connectEntry(e, 'connect')
      return this.view(e)
    })
  }

  /** Variant A disconnect: closes the connection; no automatic reconnect until connected again. */
  async disconnect (name: string): Promise<ServerView> {
    const e = this.entry(name)
    // a connect under way (hanging) is ended now, not waited for
    e.manual = true
    this.abortConnect(e)
    return this.queued(e, async () => {
      e.manual = true
      await this.closeEntry(e, 'disconnected')
      this.emit('server-disconnected', { name })
      return this.view(e)
    })
  }

  /** Reconnect: events reconnecting, then reconnected or error. Throws when the attempt fails. */
  async reconnect (name: string): Promise<ServerView> {
    const e = this.entry(name)
    return this.queued(e, async () => {
      e.manual = false
      e.attempts = 0
      await this.connectEntry(e, 'reconnect')
      return this.view(e)
    })
  }

  /** `POST /api/mcp/import`: the desktop-client `{ mcpServers: { name: config } }` format. */
  importServers (servers: Record<string, unknown>): Promise<ImportResult> {
    return this.serial(async () => {
      const names = Object.keys(servers)
      const result: ImportResult = { success: 0, failed: 0, total: names.length, errors: [] }
      const good = dict<ServerConfig>()
      for (const name of names) {
        try {
          validateServerName(name)
          if (this.entries.has(name)) throw new AppError('CONFLICT', `Server ${name} already exists`)
          const raw = servers[name]
          // Desktop clients mark disabled servers with `disabled: true`.
          const disabled = raw && typeof raw === 'object' && (raw as { disabled?: unknown }).disabled === true
          const { disabled: _d, ...rest } = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>
          const config = validateServerConfig(raw && typeof raw === 'object' ? (disabled ? { ...rest, enabled: false } : rest) : raw)
          good[name] = withTrust(config)
          result.success++
        } catch (err) {
          result.failed++
          result.errors.push({ name, error: errorText(err) })
        }
      }
      if (result.success > 0) {
        await this.o.config.writer('mcp').update({ servers: good })
        for (const [name, config] of Object.entries(good)) this.autoConnect(this.createEntry(name, config, false))
      }
      return result
    })
  }

  /** Applies hand edits of config `mcp.servers` (YAML or PUT /api/config). */
  private async syncFromConfig (): Promise<void> {
    if (this.stopped) return
    const desired = this.o.config.get().mcp.servers
    for (const e of [...this.entries.values()]) {
      if (e.builtin) continue
      if (!Object.hasOwn(desired, e.name)) await this.removeEntry(e)
    }
    for (const [name, raw] of Object.entries(desired)) {
      const e = this.entries.get(name)
      if (!e) { this.autoConnect(this.createEntry(name, raw, false)); continue }
      if (e.builtin || stable(e.raw) === stable(raw)) continue
      if (stable(withoutTrust(e.raw)) === stable(withoutTrust(raw))) {
        this.setConfig(e, raw) // a hand-edited trust: re-listed at once, no reconnect
        e.source.changed()
        continue
      }
      await this.closeEntry(e, 'disconnected')
      this.setConfig(e, raw)
      e.attempts = 0
      this.autoConnect(e)
    }
  }

  // ---- resources and prompts (variant B) ----

  private connected (): Entry[] { return [...this.entries.values()].filter((e) => e.conn) }

  private connection (serverName: string): McpConnection {
    const e = this.entry(serverName)
    if (!e.conn) throw new AppError('CONNECTION_FAILED', `Server ${serverName} is not connected`)
    return e.conn
  }

  private async gather (fn: (c: McpConnection) => Promise<unknown[]>): Promise<Array<Record<string, unknown>>> {
    const lists = await Promise.all(this.connected().map(async (e) => {
      try {
        const items = e.conn ? await fn(e.conn) : []
        return items.map((i) => ({ ...(i as Record<string, unknown>), serverName: e.name }))
      } catch (err) {
        this.o.log.warn(`MCP server ${e.name}: listing failed: ${errorText(err)}`)
        return []
      }
    }))
    return lists.flat()
  }

  resources (): Promise<Array<Record<string, unknown>>> { return this.gather((c) => c.listResources()) }
  resourceTemplates (): Promise<Array<Record<string, unknown>>> { return this.gather((c) => c.listResourceTemplates()) }
  prompts (): Promise<Array<Record<string, unknown>>> { return this.gather((c) => c.listPrompts()) }
  async readResource (serverName: string, uri: string): Promise<unknown> { return this.connection(serverName).readResource(uri) }
  async getPrompt (serverName: string, name: string, args: Record<string, string>): Promise<unknown> {
    return this.connection(serverName).getPrompt(name, args)
  }
}
