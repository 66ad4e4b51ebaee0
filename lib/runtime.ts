// Composition root: creates every domain service once per plugin process. Routes and bot commands
// receive this object; nothing else holds global state.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ChatHooks } from './chat/contracts.js'
import { LoginTokens } from './auth/login-tokens.js'
import { Sessions } from './auth/sessions.js'
import { type Clock, systemClock } from './core/clock.js'
import { EventBus } from './core/event-bus.js'
import { PluginLogger } from './core/logger.js'
import { type Paths, resolvePaths } from './core/paths.js'
import { secureDataFolders } from './core/private-file.js'
import { FailureLimiter } from './core/rate-limit.js'
import { configSecrets, Redactor, registerRedactor } from './core/redact.js'
import { ConfigService } from './config/service.js'
import { hostLogger } from './host/port.js'
import { StatsStore } from './stats/store.js'

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
  /** Figures other domains provide once they exist (tool registry, MCP manager, channels). */
  providers: Providers
  /** Functions run at stop, last registered first (close watchers, flush stores). */
  onStop: Array<() => Promise<void> | void>
}

export interface Providers {
  toolCount?: () => number
  mcpServerCount?: () => number
  availableChannels?: () => number
  /** Tool execution log entries (spec 2.6) for GET /api/logs/tools. */
  toolLogs?: (q: { toolName?: string; userId?: string; status?: 'success' | 'error'; limit: number }) => unknown[]
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
  // Domain services (rt.skills, ...) declared by each domain are assigned later by initDomains.
  const rt = {
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
    providers: {},
    chat: { contributors: [], observers: [] },
    onStop: []
  } as Partial<Runtime> as Runtime
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
