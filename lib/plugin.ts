// The composition root: creates the runtime, starts every part in the order their declarations
// compute (lib/domains.ts), the web server last among them as one more part (routes/index.ts), and
// stops them in reverse. The only file of lib/ that sees the web layer: it wires, it holds no rule.
import { webPart } from '../routes/index.js'
import { DOMAINS, startOrder } from './domains.js'
import { onProcessExit } from './host/process-exit.js'
import { createRuntime, stopRuntime, type Domain, type Runtime, type RuntimeOptions } from './runtime.js'

/** Every part of the plugin: the domains, then the web server (its declaration puts it after them). */
export const PARTS: readonly Domain[] = [...DOMAINS, webPart]

export interface PluginOptions extends RuntimeOptions {
  /** The parts to start (tests start a subset); every part by default. */
  parts?: readonly Domain[]
}

export interface Plugin {
  rt: Runtime
  stop(): Promise<void>
}

/** What bot commands see of the running plugin (lib/lifecycle.ts keeps one per process). */
export interface Running {
  rt: Runtime
  /** Login addresses of the dashboard, best first; empty while the web server is not running. */
  baseUrls(): string[]
  /** Loopback address of the web server; '' when it is not running. */
  localUrl: string
  /** Why the web server is not running; undefined while it runs. */
  webError?: string
  stop(): Promise<void>
}

export async function startPlugin (opts: PluginOptions = {}): Promise<Plugin> {
  // Computed before anything opens: a missing need or a circle fails without side effects.
  const parts = startOrder(opts.parts ?? PARTS)
  const rt = await createRuntime(opts)
  try {
    for (const part of parts) await startPart(rt, part)
  } catch (err) {
    await stopRuntime(rt)
    throw err
  }
  let stopped: Promise<void> | undefined
  return { rt, stop: () => (stopped ??= stopRuntime(rt)) }
}

async function startPart (rt: Runtime, part: Domain): Promise<void> {
  try {
    await part.start(rt)
  } catch (err) {
    rt.log.error(`Failed to start ${part.name}`, {}, err)
    throw err
  }
  const missing = part.provides.filter((name) => rt.optional(name) === undefined)
  if (missing.length) throw new Error(`${part.name} started without providing ${missing.join(', ')}`)
}

/** Starts every part for the host process: what lib/lifecycle.ts runs once per process. */
export async function startRunning (opts: PluginOptions = {}): Promise<Running> {
  const plugin = await startPlugin(opts)
  const { rt } = plugin
  // The hosts never call stop (lib/host/process-exit.ts): what is buffered is written on exit.
  const offExit = onProcessExit(() => rt.stats.flushSync())
  const web = rt.need('web')
  return {
    rt,
    baseUrls: () => (web.server ? web.server.baseUrls() : []),
    localUrl: web.server?.localUrl ?? '',
    webError: web.error,
    stop: async () => {
      try { await plugin.stop() } finally { offExit() }
    }
  }
}
