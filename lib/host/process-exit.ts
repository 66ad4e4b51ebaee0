// Flushing buffered state when the host process ends. Neither Miao-Yunzai nor TRSS-Yunzai calls a
// plugin's stop hook: TRSS exits with process.exit() on SIGTERM/SIGHUP and restarts (`#重启`) with
// process.execve, which replaces the process without an 'exit' event; Miao installs no signal
// handler at all (the default action kills the process); pm2 sends SIGINT. So the synchronous
// flushes registered here run on:
//   * process 'exit' (process.exit(), the event loop running dry);
//   * SIGTERM, SIGINT, SIGHUP: after flushing, when no other listener handles the signal, the
//     listener is removed and the signal raised again, so the default action (exit by the signal)
//     happens as it would without us; when the host has its own handler, it decides;
//   * process.execve (Node >= 22.15 / 23.11), wrapped to flush first.
// The state is process-wide (globalThis) so copies of this module (a re-imported plugin) install
// the listeners once.
const KEY = Symbol.for('lingxi-plugin.process-exit')
const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const

interface ExitState { fns: Set<() => void>; installed: boolean }

type Execve = (file: string, args?: readonly string[], env?: NodeJS.ProcessEnv) => never

// Node 22.15+ has process.execve (it replaces the process without an exit event); Node 20's types lack it.
declare global {
  namespace NodeJS { interface Process { execve?: Execve } }
}

function state (): ExitState {
  const g = globalThis as { [KEY]?: ExitState }
  return (g[KEY] ??= { fns: new Set(), installed: false })
}

/** Runs every registered flush; one failing never stops the others (nor the exit). */
function runExitFlushes (): void {
  for (const fn of [...state().fns]) {
    try { fn() } catch (err) {
      try { console.error('[lingxi] flush on exit failed:', err instanceof Error ? err.message : err) } catch { /* stderr gone */ }
    }
  }
}

function install (s: ExitState): void {
  s.installed = true
  process.on('exit', runExitFlushes)
  for (const sig of SIGNALS) {
    const onSignal = (): void => {
      runExitFlushes()
      // alone: keep the default action (terminate by this signal), which our listener replaced
      if (process.listenerCount(sig) === 1) {
        process.removeListener(sig, onSignal)
        process.kill(process.pid, sig)
      }
    }
    try { process.on(sig, onSignal) } catch { /* a signal this platform does not have */ }
  }
  const execve = process.execve
  if (typeof execve === 'function') {
    process.execve = function (this: unknown, file: string, args?: readonly string[], env?: NodeJS.ProcessEnv): never {
      runExitFlushes()
      return execve.call(process, file, args, env)
    }
  }
}

/** Registers a synchronous flush run when the process ends; returns its removal. */
export function onProcessExit (fn: () => void): () => void {
  const s = state()
  if (!s.installed) install(s)
  s.fns.add(fn)
  return () => { s.fns.delete(fn) }
}
