// The plugin's single running instance inside the host process. Bot commands reach the services
// through `running()`; the first plugin class's init() starts it.
// One per process, not per module instance: a host that imports the plugin again (a cache-busted
// `index.js?t=…`, or a new bundle after a `git pull`) gets fresh copies of every module, and a
// module-level variable would start a second runtime on the next port over the same data folder.
// The state lives on globalThis under a registered symbol, so every copy shares it.
import { startRunning, type Running } from './plugin.js'

export type { Running }

interface ProcessState { current?: Promise<Running> }

const KEY = Symbol.for('lingxi-plugin.running')

function state (): ProcessState {
  const g = globalThis as { [KEY]?: ProcessState }
  return (g[KEY] ??= {})
}

/**
 * The running instance, started on first call (by the composition root, lib/plugin.ts). The copy of
 * the module that starts first wins; a later copy reuses its runtime until it is stopped. `start`
 * replaces the plugin's start (tests of this singleton).
 */
export function ensureStarted (start: () => Promise<Running> = startRunning): Promise<Running> {
  const s = state()
  if (s.current) return s.current
  const p = start()
  s.current = p
  p.catch(() => { if (s.current === p) delete s.current })
  return p
}

/** The running instance, if started. */
export function running (): Promise<Running> | undefined { return state().current }

export async function stopRunning (): Promise<void> {
  const s = state()
  const c = s.current
  delete s.current
  const r = await c?.catch(() => undefined) // a failed start has nothing to stop
  if (r) await r.stop()
}
