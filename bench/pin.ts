// CPU pinning for the external benches: the server under test on one CPU, its load client on another
// (`taskset`, util-linux). Unpinned, the scheduler placed the two differently from one process to the
// next: a server that shared its CPU with the client it answers used a quarter more CPU per request
// for the whole of its life (the same server: 24-26 µs one run, 31-35 µs the next; issue 17), so a
// figure told where the processes landed more than what the server does. Pinned, every party (the
// plugin and the baselines alike) gets the same: one CPU of its own, the client on the other, as a
// client on another machine would be. Without taskset or a second CPU, nothing is pinned.
import { spawnSync } from 'node:child_process'
import { availableParallelism } from 'node:os'

/** The CPU of the server under test and the CPU of its load client. */
export const SERVER_CPU = 0
export const CLIENT_CPU = 1

let usable: boolean | undefined
function canPin (): boolean {
  return (usable ??= availableParallelism() >= 2 && spawnSync('taskset', ['-c', '0', 'true']).status === 0)
}

/** `command args` run on `cpu` (the same process: taskset execs it, so its pid is the command's). */
export function onCpu (cpu: number | undefined, command: string, args: string[]): [string, string[]] {
  if (cpu === undefined || !canPin()) return [command, args]
  return ['taskset', ['-c', String(cpu), command, ...args]]
}
