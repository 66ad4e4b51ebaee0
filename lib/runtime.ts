// The runtime: the core every part shares (config, log, bus, stats, the web sessions), built
// complete here, and the domain services, which each domain declares on `Services` in its own files
// and attaches at start with `rt.provide()`. Others reach them with `rt.need()` (declared in the
// domain's `needs`) or `rt.optional()` (a neighbour that may be absent). The plugin starts in
// lib/plugin.ts; routes and bot commands receive this object; nothing else holds global state.
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import type { ChatHooks } from './chat/contracts.js'
import { LOGIN_TOKEN_TTL_MS, LoginTokens } from './auth/login-tokens.js'
import { TerminalLinks } from './auth/terminal-links.js'
import { Sessions } from './auth/sessions.js'
import { type Clock, systemClock } from './core/clock.js'
import { AppError } from './core/errors.js'
import { EventBus } from './core/event-bus.js'
import { PluginLogger } from './core/logger.js'
import { type Paths, resolvePaths } from './core/paths.js'
import { secureDataFolders } from './core/private-file.js'
import { FailureLimiter, RateLimiter } from './core/rate-limit.js'
import { configSecrets, Redactor, registerRedactor } from './core/redact.js'
import { ConfigService } from './config/service.js'
import { SHARED_CONFIG_STORE, type SharedConfigRecord } from './config/shared.js'
import { hostLogger } from './host/port.js'
import { StatsStore, type StatsRecord } from './stats/store.js'
import { openRecords, type RecordsDeps } from './storage/open.js'
import { openSharedState, type SharedState } from './storage/redis/shared.js'
import { redisPassword, redisSetting } from './storage/redis/settings.js'
import { databaseUrl } from './storage/settings.js'

/**
 * The domain services by name. Each domain adds its own in its start-up file:
 * `declare module '../runtime.js' { interface Services { memory: MemoryService } }`.
 */
export interface Services {}

export type ServiceName = keyof Services

/** One domain's start-up, declared next to its service (lib/<domain>/index.ts) and listed in lib/domains.ts. */
export interface Domain {
  name: string
  /** Services this domain attaches with rt.provide() during start. */
  provides: ServiceName[]
  /** Services it uses through rt.need(): their domains start first; a missing one is a start error. */
  needs: ServiceName[]
  /** Services it uses when present (rt.optional()): their domains start first when they exist. */
  optional?: ServiceName[]
  start(rt: Runtime): Promise<void> | void
}

export interface Runtime {
  version: string
  startedAt: number
  paths: Paths
  clock: Clock
  bus: EventBus
  log: PluginLogger
  config: ConfigService
  loginTokens: LoginTokens
  sessions: Sessions
  /** Failed logins per client address (routes/auth.ts); the MCP endpoint keeps its own. */
  loginLimiter: FailureLimiter
  /** This run of this copy of the plugin, as the other instances see it (heartbeats, change notices). */
  instanceId: string
  /** The state shared with other instances through Redis; undefined without Redis (lib/storage/README.md). */
  shared?: SharedState | undefined
  /** A limiter of `max()` hits per `windowMs` per key, counted across instances with Redis (`name` keeps limiters apart). */
  rateLimiter(name: string, max: () => number, windowMs: number): RateLimiter
  /** Masks stored secrets in logs, events and error texts (lib/core/redact.ts); domains add their stores. */
  redactor: Redactor
  stats: StatsStore
  /** Plug-in points of the chat pipeline (lib/chat/contracts.ts). */
  chat: ChatHooks
  /** Functions run at stop, last registered first (close watchers, flush stores). */
  onStop: Array<() => Promise<void> | void>
  /** Attaches a domain's service; once per name. */
  provide<K extends ServiceName>(name: K, service: Services[K]): void
  /** A service this part declared in `needs`; SERVICE_UNAVAILABLE when it is not running. */
  need<K extends ServiceName>(name: K): Services[K]
  /** A neighbour that may be absent (its domain did not start, or is not part of this build). */
  optional<K extends ServiceName>(name: K): Services[K] | undefined
  /** Detaches a service and returns it (tests that run a route without its service). */
  withdraw<K extends ServiceName>(name: K): Services[K] | undefined
}

export interface RuntimeOptions { env?: NodeJS.ProcessEnv; clock?: Clock }

export async function createRuntime (opts: RuntimeOptions = {}): Promise<Runtime> {
  const clock = opts.clock ?? systemClock
  const paths = resolvePaths(opts.env ?? process.env)
  const bus = new EventBus()
  // Registered before anything logs, so even start-up lines are redacted.
  const redactor = new Redactor()
  const unregisterRedactor = registerRedactor(redactor)
  let debug = false
  const log = new PluginLogger({ host: hostLogger, bus, logsDir: paths.logsDir, clock, debug: () => debug })
  // Before any store opens: private modes, leftover temp files removed (lib/core/private-file.ts).
  await secureDataFolders(paths.dataDir, paths.userConfig, log)
  const config = new ConfigService({ defaultFile: paths.defaultConfig, userFile: paths.userConfig, bus, log, now: () => clock.now() })
  const unshareConfig = await shareConfig({ paths, config, log, clock, redactor, env: opts.env ?? process.env })
  debug = config.get().debug
  redactor.set('config', configSecrets(config.get()))
  bus.on('config', () => { debug = config.get().debug; redactor.set('config', configSecrets(config.get())) })
  const instanceId = randomUUID()
  const startedAt = clock.now()
  const version = readVersion(paths.pluginDir)
  let webPort: () => number | undefined = () => undefined
  const shared = await openShared({ env: opts.env ?? process.env, config, redactor, clock, log, instance: () => ({
    id: instanceId,
    name: config.get().storage.instanceName || `${hostname()}:${webPort() ?? config.get().web.port}`,
    version,
    startedAt
  }) })
  const sessions = await Sessions.open(paths.dataDir, () => config.get().web.sessionTtlHours * 3600_000, { clock, log, ...(shared ? { shared: shared.sessions } : {}) })
  redactor.set('sessions', [sessions.secret])
  // with PostgreSQL the statistics of every instance add up (lib/stats/README.md, "Several instances")
  const stats = databaseUrl(opts.env ?? process.env, config.get().storage)
    ? await StatsStore.openShared(paths.dataDir, await openRecords<StatsRecord, string>({ paths, config, log, clock, redactor, env: opts.env ?? process.env }, 'stats', { key: (r) => r.id }), { clock, log })
    : await StatsStore.open(paths.dataDir, { clock, log })
  // Domain services, attached by each domain's start (lib/domains.ts).
  const services: Partial<Services> = {}
  const rt: Runtime = {
    version,
    startedAt,
    paths,
    clock,
    bus,
    log,
    config,
    loginTokens: new LoginTokens(clock, undefined, shared?.tokens, new TerminalLinks(paths.dataDir, clock, LOGIN_TOKEN_TTL_MS)),
    sessions,
    loginLimiter: new FailureLimiter(() => config.get().web.loginRateLimit, 60_000, clock, shared?.window('login')),
    instanceId,
    shared,
    rateLimiter: (name, max, windowMs) => new RateLimiter(max, windowMs, clock, shared?.window(name)),
    redactor,
    stats,
    chat: { contributors: [], observers: [], steps: [] },
    onStop: [],
    provide (name, service) {
      if (services[name] !== undefined) throw new Error(`The ${name} service is provided twice`)
      services[name] = service
    },
    need (name) {
      const service = services[name]
      // Before its domain started (a part that did not declare it in `needs`), or its domain is absent.
      if (service === undefined) throw new AppError('SERVICE_UNAVAILABLE', `The ${name} service is not running`)
      return service
    },
    optional: (name) => services[name],
    withdraw (name) {
      const service = services[name]
      delete services[name]
      return service
    }
  }
  rt.onStop.push(unregisterRedactor, () => stats.close(), () => log.flush(), unshareConfig)
  if (shared) {
    // The web part is declared above lib/ (routes/index.ts), which the dashboard's type-check does not
    // see: its port is read by shape, not by the service's type.
    webPort = () => portOf((services as Record<string, unknown>).web)
    rt.onStop.push(() => shared.close(), followConfigNotices(rt, shared))
  }
  return rt
}

/**
 * Opens the Redis-shared state when Redis is configured (LINGXI_REDIS_URL over storage.redis.url). When it
 * cannot be reached the instance runs on its own (in-process state), saying so: the bot keeps answering.
 */
async function openShared (o: { env: NodeJS.ProcessEnv; config: ConfigService; redactor: Redactor; clock: Clock; log: PluginLogger; instance: () => { id: string; name: string; version: string; startedAt: number } }): Promise<SharedState | undefined> {
  const setting = redisSetting(o.env, o.config.get().storage.redis.url)
  if (setting.kind === 'none') return undefined
  const password = setting.kind === 'url' ? redisPassword(setting.url) : undefined
  if (password) o.redactor.set('redis', [password])
  try {
    const shared = await openSharedState({ setting, instance: o.instance, clock: o.clock, log: o.log })
    o.log.info(`Sharing login links, sessions, rate limits and change notices through Redis at ${shared.address}`)
    return shared
  } catch (err) {
    o.log.error(`${(err as Error).message} This instance runs on its own until restarted.`)
    return undefined
  }
}

/**
 * With PostgreSQL the configuration's shared part is one record every instance follows (lib/config/README.md,
 * "Shared configuration"). Unreachable, this instance runs on its config.yaml, saying so. Answers the closer.
 */
async function shareConfig (deps: RecordsDeps & { config: ConfigService }): Promise<() => Promise<void>> {
  if (!databaseUrl(deps.env ?? process.env, deps.config.get().storage)) return async () => {}
  let store: Awaited<ReturnType<typeof openRecords<SharedConfigRecord, string>>> | undefined
  try {
    store = await openRecords<SharedConfigRecord, string>(deps, SHARED_CONFIG_STORE, { key: (r) => r.id })
    const off = await deps.config.share(store)
    const opened = store
    return async () => { off(); await opened.close() }
  } catch (err) {
    deps.log.error(`The configuration is not shared this run (each instance's config.yaml applies): ${(err as Error).message}`)
    await store?.close().catch(() => {})
    return async () => {}
  }
}

/**
 * Config written on another instance: reloaded here when both read the same file (the embedded files
 * on one machine, one data folder). Instances with their own data folders keep their own config, so
 * the notice names the file and others ignore it. The reload's own 'config' event is not re-announced.
 */
function followConfigNotices (rt: Runtime, shared: SharedState): () => void {
  let applying = false
  const offBus = rt.bus.on('config', () => {
    if (applying) return
    shared.changes.publish({ kind: 'config', file: rt.paths.userConfig }).catch((err: Error) => rt.log.warn(`Redis change notice not sent: ${err.message}`))
  })
  const offNotice = shared.changes.on('config', (n) => {
    if (n.file !== rt.paths.userConfig) return
    applying = true
    try { rt.config.reload() } catch (err) { rt.log.error('Reloading the config after a change elsewhere failed', {}, err) } finally { applying = false }
  })
  return () => { offBus(); offNotice() }
}

export async function stopRuntime (rt: Runtime): Promise<void> {
  rt.bus.emit('stopping')
  for (const fn of [...rt.onStop].reverse()) {
    try { await fn() } catch (err) { rt.log.error('Error while stopping', {}, err) }
  }
}

function portOf (web: unknown): number | undefined {
  const server = typeof web === 'object' && web !== null ? (web as { server?: unknown }).server : undefined
  const port = typeof server === 'object' && server !== null ? (server as { port?: unknown }).port : undefined
  return typeof port === 'number' ? port : undefined
}

function readVersion (dir: string): string {
  try { return String((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: unknown }).version ?? '0.0.0') } catch { return '0.0.0' }
}
