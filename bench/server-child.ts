// One server of the external benchmarks in its own process (`startServerProcess`). The plugin and
// the bare Koa / node:http baselines run under plain node (plain-servers.mjs); the fake model
// (tests/support/fake-openai.ts) runs here, under tsx.
// Run as: node --import tsx bench/server-child.ts fake-model -> prints one `SERVER {...}` line, then
// serves until its stdin closes (the parent ended) or it is sent SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { onCpu } from './pin.js'

type ServerKind = 'plugin' | 'koa' | 'koa-status' | 'koa-chat' | 'http' | 'fake-model'
interface ServerOptions {
  nodeArgs?: string[]
  config?: Record<string, unknown>
  env?: Record<string, string>
  /** plugin: a seeded data folder to start on (kept afterwards) instead of a new empty one */
  dataDir?: string
  /** plugin: services whose ready() is awaited before the server reports (a growth bench's index) */
  ready?: string[]
  /** plugin: report the longest event-loop stall and GC pause until stop, and the stop time (`stats`) */
  monitor?: boolean
  /** plugin: fold the conversations' journal this long after listening */
  foldAfterMs?: number
  /** the CPU to run on (bench/pin.ts), e.g. SERVER_CPU */
  cpu?: number
  /** koa-chat: the fake model it relays to */
  modelUrl?: string
  model?: string
}
/** What a monitored plugin saw between listening and stop (ms). */
export interface ServerStats { stallMax: number; gcMax: number; foldMs: number; stopMs: number }
interface ServerInfo { url: string; token?: string; pid: number; /** plugin: resident memory once ready, after a full GC with --expose-gc */ rssMb?: number }
export interface ServerProcess extends ServerInfo {
  stop(): Promise<void>
  /** after stop(), for a plugin started with `monitor` */
  stats(): ServerStats | undefined
  /** a monitored plugin starts its figures again (after warm-up requests) */
  resetStats(): void
}

/** CPU time (user + system, µs) a process has used so far; NaN where /proc is missing (not Linux). */
export function cpuMicros (pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(f[11]) + Number(f[12])) * (1e6 / 100) // clock ticks of 1/100 s
  } catch { return NaN }
}

/** Starts a server in a child process and resolves once it listens. */
export function startServerProcess (kind: ServerKind, opts: ServerOptions = {}): Promise<ServerProcess> {
  const { NODE_OPTIONS: _drop, ...env } = process.env
  const args = kind === 'fake-model'
    ? ['--import', 'tsx', fileURLToPath(import.meta.url), kind]
    : [fileURLToPath(new URL('./plain-servers.mjs', import.meta.url)), kind, JSON.stringify(opts)]
  const [command, argv] = onCpu(opts.cpu, process.execPath, [...(opts.nodeArgs ?? []), ...args])
  const child: ChildProcess = spawn(command, argv,
    { stdio: ['pipe', 'pipe', 'inherit'], env: { ...env, LINGXI_QUIET: '1', NODE_ENV: 'production', ...opts.env } })
  let out = ''
  let started = false
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('exit', (code) => { reject(new Error(`${kind} server exited (${code ?? 'signal'}) before listening`)) })
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString()
      const line = out.split('\n').find((l) => l.startsWith('SERVER '))
      if (!line || started) return
      started = true
      const info = JSON.parse(line.slice(7)) as ServerInfo
      resolve({
        ...info,
        resetStats: () => { child.kill('SIGUSR2') },
        stats: () => {
          const s = out.split('\n').find((l) => l.startsWith('STATS '))
          return s ? JSON.parse(s.slice(6)) as ServerStats : undefined
        },
        stop: () => new Promise<void>((done) => {
          if (child.exitCode !== null) { done(); return }
          child.once('close', () => { done() }) // after its output (a STATS line) is read
          child.kill('SIGTERM')
        })
      })
    })
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { startFakeOpenAI } = await import('../tests/support/fake-openai.js')
  const fake = await startFakeOpenAI({ models: ['gpt-bench'] })
  // the recorded requests would grow without bound under load
  const clear = setInterval(() => { fake.requests.length = 0 }, 1000)
  let closing = false
  const close = async (): Promise<void> => {
    if (closing) return
    closing = true
    clearInterval(clear)
    await fake.close()
    process.exit(0)
  }
  process.on('SIGTERM', () => { void close() })
  process.stdin.on('end', () => { void close() })
  process.stdin.resume()
  process.stdout.write(`SERVER ${JSON.stringify({ url: fake.url, pid: process.pid })}\n`)
}
