// Test helpers for the MCP domain: the real `@modelcontextprotocol/server-everything` in its three
// modes, a manual clock, a minimal tool registry and a quiet logger.
import { type ChildProcess, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { dirname, join } from 'node:path'
import type { ToolResult } from '../../lib/chat/contracts.js'
import type { Clock } from '../../lib/core/clock.js'
import { AppError } from '../../lib/core/errors.js'
import type { EventBus } from '../../lib/core/event-bus.js'
import type { PluginLogger } from '../../lib/core/logger.js'
import type { RegisteredTool, ToolCallContext, ToolRegistryApi, ToolSource } from '../../lib/tools/types.js'

const require = createRequire(import.meta.url)
export const EVERYTHING = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js')

export const stdioEverything = (): Record<string, unknown> => ({ type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] })

async function freePort (): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })
}

export interface RemoteEverything { port: number; proc: ChildProcess; url: string; kill(): Promise<void> }

/** Starts server-everything in `sse` or `streamableHttp` mode and waits until it listens. */
export async function startEverything (mode: 'sse' | 'streamableHttp', port?: number): Promise<RemoteEverything> {
  const p = port ?? await freePort()
  const proc = spawn(process.execPath, [EVERYTHING, mode], { env: { ...process.env, PORT: String(p) }, stdio: ['ignore', 'ignore', 'pipe'] })
  await new Promise<void>((resolve, reject) => {
    let buf = ''
    const timer = setTimeout(() => reject(new Error(`server-everything ${mode} did not start: ${buf}`)), 15_000)
    proc.stderr?.on('data', (c: Buffer) => {
      buf += c.toString()
      if (/listening on port|running on port/i.test(buf)) { clearTimeout(timer); resolve() }
    })
    proc.once('exit', (code) => { clearTimeout(timer); reject(new Error(`server-everything exited ${code}: ${buf}`)) })
  })
  proc.stderr?.resume()
  const url = `http://127.0.0.1:${p}/${mode === 'sse' ? 'sse' : 'mcp'}`
  return {
    port: p,
    proc,
    url,
    kill: () => new Promise<void>((resolve) => {
      if (proc.exitCode !== null || proc.signalCode !== null) return resolve()
      proc.once('exit', () => resolve())
      proc.kill('SIGKILL')
    })
  }
}

/** A clock whose timers run only when the test advances it. */
export class ManualClock implements Clock {
  private t = 1_700_000_000_000
  private seq = 0
  private readonly timers = new Map<number, { at: number; fn: () => void; every?: number }>()

  now (): number { return this.t }
  private add (fn: () => void, ms: number, every?: number): NodeJS.Timeout {
    const id = ++this.seq
    this.timers.set(id, { at: this.t + ms, fn, ...(every ? { every } : {}) })
    return { id, unref () { return this }, ref () { return this }, hasRef: () => false } as unknown as NodeJS.Timeout
  }

  setTimeout (fn: () => void, ms: number): NodeJS.Timeout { return this.add(fn, ms) }
  setInterval (fn: () => void, ms: number): NodeJS.Timeout { return this.add(fn, ms, ms) }
  clearTimeout (t: NodeJS.Timeout): void { this.timers.delete((t as unknown as { id: number }).id) }
  clearInterval (t: NodeJS.Timeout): void { this.clearTimeout(t) }
  pending (): number { return this.timers.size }

  /** Moves time forward, running every timer that falls due (in order). */
  advance (ms: number): void {
    const end = this.t + ms
    for (;;) {
      const due = [...this.timers].filter(([, x]) => x.at <= end).sort((a, b) => a[1].at - b[1].at)[0]
      if (!due) break
      const [id, x] = due
      this.t = Math.max(this.t, x.at)
      if (x.every) x.at += x.every
      else this.timers.delete(id)
      x.fn()
    }
    this.t = end
  }
}

/** A registry with the ToolRegistryApi surface, calling tools directly (no gate). */
export class TestRegistry implements ToolRegistryApi {
  readonly sources = new Map<string, ToolSource>()
  readonly calls: Array<{ name: string; ctx: ToolCallContext }> = []
  addSource (s: ToolSource): void { this.sources.set(s.id, s) }
  removeSource (id: string): void { this.sources.delete(id) }
  list (): RegisteredTool[] { return [...this.sources.values()].flatMap((s) => s.list()) }
  get (name: string): RegisteredTool | undefined { return this.list().find((t) => t.name === name) }
  isEnabled (name: string): boolean { return this.get(name) !== undefined }
  async call (name: string, args: Record<string, unknown>, ctx: ToolCallContext): Promise<ToolResult> {
    const t = this.get(name)
    if (!t) throw new AppError('TOOL_NOT_FOUND', `Tool ${name} does not exist`)
    this.calls.push({ name, ctx })
    return t.execute(args, ctx)
  }
}

/** A trivial built-in tool source for endpoint tests. */
export function echoSource (id = 'test-echo'): ToolSource {
  const tool: RegisteredTool = {
    name: 'lx_echo',
    description: 'Echoes its text',
    category: 'test',
    source: 'builtin',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    risk: 'low',
    dangerous: false,
    execute: async (args) => ({ content: [{ type: 'text', text: `echo:${String(args.text)}` }], isError: false })
  }
  return { id, kind: 'builtin', list: () => [tool] }
}

export const quietLog = {
  error: () => {}, warn: () => {}, info: () => {}, debug: () => {}, flush: async () => {}
} as unknown as PluginLogger

/** Records the `skills` bus events; `wait` resolves with the first not yet awaited match. */
export function recordEvents (bus: EventBus): { names(): string[]; of(name: string): Array<Record<string, unknown>>; wait(name: string, server?: string): Promise<Record<string, unknown>>; stop(): void } {
  const seen: Array<[string, Record<string, unknown>]> = []
  const consumed = new Set<number>()
  const waiters: Array<{ name: string; server?: string; resolve: (d: Record<string, unknown>) => void }> = []
  const matches = (w: { name: string; server?: string }, n: string, d: Record<string, unknown>): boolean => w.name === n && (w.server === undefined || d.name === w.server)
  const off = bus.on('skills', (name, data) => {
    const i = seen.push([name, data]) - 1
    const w = waiters.find((x) => matches(x, name, data))
    if (w) { waiters.splice(waiters.indexOf(w), 1); consumed.add(i); w.resolve(data) }
  })
  return {
    names: () => seen.map(([n]) => n),
    of: (name) => seen.filter(([n]) => n === name).map(([, d]) => d),
    wait: (name, server) => new Promise((resolve) => {
      const w = { name, ...(server ? { server } : {}), resolve }
      const i = seen.findIndex(([n, d], idx) => !consumed.has(idx) && matches(w, n, d))
      if (i >= 0) { consumed.add(i); resolve((seen[i] as [string, Record<string, unknown>])[1]); return }
      waiters.push(w)
    }),
    stop: off
  }
}
