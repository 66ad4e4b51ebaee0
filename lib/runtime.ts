// The runtime: the core every part shares (config, log, bus, stats, the web sessions), built
// complete here, and the domain services, which each domain declares on `Services` in its own files
// and attaches at start with `rt.provide()`. Others reach them with `rt.need()` (declared in the
// domain's `needs`) or `rt.optional()` (a neighbour that may be absent). The plugin starts in
// lib/plugin.ts; routes and bot commands receive this object; nothing else holds global state.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ChatHooks } from './chat/contracts.js'
import { LoginTokens } from './auth/login-tokens.js'
import { Sessions } from './auth/sessions.js'
import { type Clock, systemClock } from './core/clock.js'
import { AppError } from './core/errors.js'
import { EventBus } from './core/event-bus.js'
import { PluginLogger } from './core/logger.js'
import { type Paths, resolvePaths } from './core/paths.js'
import { secureDataFolders } from './core/private-file.js'
import { FailureLimiter } from './core/rate-limit.js'
import { configSecrets, Redactor, registerRedactor } from './core/redact.js'
import { ConfigService } from './config/service.js'
import { hostLogger } from './host/port.js'
import { StatsStore } from './stats/store.js'

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
  debug = config.get().debug
  redactor.set('config', configSecrets(config.get()))
  bus.on('config', () => { debug = config.get().debug; redactor.set('config', configSecrets(config.get())) })
  const sessions = await Sessions.open(paths.dataDir, () => config.get().web.sessionTtlHours * 3600_000, { clock, log })
  redactor.set('sessions', [sessions.secret])
  const stats = await StatsStore.open(paths.dataDir, { clock, log })
  // Domain services, attached by each domain's start (lib/domains.ts).
  const services: Partial<Services> = {}
  const rt: Runtime = {
    version: readVersion(paths.pluginDir),
    startedAt: clock.now(),
    paths,
    clock,
    bus,
    log,
    config,
    loginTokens: new LoginTokens(clock),
    sessions,
    loginLimiter: new FailureLimiter(() => config.get().web.loginRateLimit, 60_000, clock),
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
  rt.onStop.push(unregisterRedactor, () => stats.flush(), () => log.flush())
  return rt
}

export async function stopRuntime (rt: Runtime): Promise<void> {
  rt.bus.emit('stopping')
  for (const fn of [...rt.onStop].reverse()) {
    try { await fn() } catch (err) { rt.log.error('Error while stopping', {}, err) }
  }
}

function readVersion (dir: string): string {
  try { return String((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: unknown }).version ?? '0.0.0') } catch { return '0.0.0' }
}
