// Script tools run in a worker thread (node:worker_threads), one worker per script, with a time limit
// per call (config `tools.scriptTimeoutMs`): a runaway script (`while (true) {}`) is terminated and the
// call answers an error, while the bot's event loop keeps running. This is NOT a sandbox: the worker
// has the bot's rights (fs, network, child processes); see lib/tools/README.md.
//
// The worker's code is an eval'd CommonJS string (not a file next to this one): the plugin is bundled
// into one file for the hosts, where a worker file path would not exist. Arguments, the call context
// and results cross the thread boundary as structured clones (a result that cannot be cloned is sent
// as its JSON form).
import { Worker } from 'node:worker_threads'
import type { Clock } from '../core/clock.js'

/** What the script exports besides `execute` (read in the worker, checked by the main thread). */
export interface ScriptMeta { description?: unknown; inputSchema?: unknown; category?: unknown; risk?: unknown; dangerous?: unknown }

const WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads')
const { createRequire } = require('node:module')
const vm = require('node:vm')
const path = require('node:path')
const text = (e) => (e && e.message) ? String(e.message) : String(e)
const plain = (v) => { try { return JSON.parse(JSON.stringify(v === undefined ? null : v)) } catch (e) { return String(v) } }
const post = (m) => { try { parentPort.postMessage(m) } catch (e) { parentPort.postMessage(Object.assign({}, m, { value: plain(m.value) })) } }
let run
try {
  const { code, file } = workerData
  const m = { exports: {} }
  const fn = vm.runInThisContext('(function (exports, require, module, __filename, __dirname) {' + code + '\n})', { filename: file })
  fn(m.exports, createRequire(file), m, file, path.dirname(file))
  const ex = m.exports
  const d = ex.default && typeof ex.default === 'object' ? ex.default : ex
  const exec = typeof d.execute === 'function' ? d.execute : typeof ex.default === 'function' ? ex.default : undefined
  if (typeof exec !== 'function') throw new Error('a script tool must export an execute(args, ctx) function')
  run = (args, ctx) => exec.call(d, args, ctx)
  post({ type: 'ready', meta: plain({ description: d.description, inputSchema: d.inputSchema, category: d.category, risk: d.risk, dangerous: d.dangerous }) })
} catch (err) {
  parentPort.postMessage({ type: 'failed', error: text(err) })
}
parentPort.on('message', async (msg) => {
  if (!msg || msg.type !== 'call' || !run) return
  try {
    post({ type: 'result', id: msg.id, value: await run(msg.args, msg.ctx) })
  } catch (err) {
    parentPort.postMessage({ type: 'error', id: msg.id, error: text(err) })
  }
})
`

type Reply = { type: 'ready'; meta: ScriptMeta } | { type: 'failed'; error: string } |
  { type: 'result'; id: number; value: unknown } | { type: 'error'; id: number; error: string }

interface Pending { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }

class ScriptTimeoutError extends Error {}

/** One script's worker: started on demand, terminated on time-out, reload, removal or stop. */
export class ScriptRunner {
  private worker: Worker | undefined
  private ready: Promise<ScriptMeta> | undefined
  private readonly pending = new Map<number, Pending>()
  private seq = 0
  /** Calls under way (starting the worker included). */
  private active = 0
  /** Replaced by a newer version: stopped as soon as its calls under way have answered. */
  private retired = false

  constructor (private readonly name: string, private readonly file: string, private readonly code: string,
    private readonly timeoutMs: () => number, private readonly clock: Clock) {}

  /** Starts the worker if needed; resolves with the script's metadata once its module ran. */
  start (): Promise<ScriptMeta> {
    if (this.ready) return this.ready
    const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { code: this.code, file: this.file }, stdout: false, stderr: false })
    w.unref() // an idle script never keeps the process alive
    this.worker = w
    const ms = this.timeoutMs()
    this.ready = new Promise<ScriptMeta>((resolve, reject) => {
      const timer = this.clock.setTimeout(() => {
        this.kill(new ScriptTimeoutError(`Script tool ${this.name} did not load within ${ms} ms; its worker was stopped`))
        reject(new ScriptTimeoutError(`Script tool ${this.name} did not load within ${ms} ms; its worker was stopped`))
      }, ms)
      w.on('message', (m: Reply) => {
        if (m.type === 'ready') { this.clock.clearTimeout(timer); resolve(m.meta); return }
        if (m.type === 'failed') { this.clock.clearTimeout(timer); this.kill(new Error(m.error)); reject(new Error(m.error)); return }
        const p = this.pending.get(m.id)
        if (!p) return
        this.settle(m.id)
        if (m.type === 'result') p.resolve(m.value); else p.reject(new Error(m.error))
      })
      w.on('error', (err) => { this.clock.clearTimeout(timer); this.kill(err); reject(err) })
      w.on('exit', (code) => {
        this.clock.clearTimeout(timer)
        if (this.worker === w) this.kill(new Error(`Script tool ${this.name} stopped (exit code ${code})`))
        reject(new Error(`Script tool ${this.name} stopped before it loaded (exit code ${code})`))
      })
    })
    this.ready.catch(() => undefined) // awaited by the caller; never an unhandled rejection
    return this.ready
  }

  /** Runs `execute(args, ctx)` in the worker within the time limit (the worker is stopped on time-out). */
  async call (args: Record<string, unknown>, ctx: Record<string, unknown>): Promise<unknown> {
    this.active++
    try {
      return await this.run(args, ctx)
    } finally {
      if (--this.active === 0 && this.retired) this.kill(new Error(`Script tool ${this.name} was reloaded`))
    }
  }

  private async run (args: Record<string, unknown>, ctx: Record<string, unknown>): Promise<unknown> {
    const ms = this.timeoutMs()
    const started = this.clock.now()
    await this.start()
    const w = this.worker
    if (!w) throw new Error(`Script tool ${this.name} is not running`)
    const id = ++this.seq
    const left = Math.max(1, ms - (this.clock.now() - started))
    return new Promise<unknown>((resolve, reject) => {
      const timer = this.clock.setTimeout(() => {
        this.kill(new ScriptTimeoutError(`Script tool ${this.name} was stopped: it ran longer than ${ms} ms`))
      }, left)
      this.pending.set(id, { resolve, reject, timer })
      w.ref() // a running call keeps the process alive until it answers
      try {
        w.postMessage({ type: 'call', id, args, ctx })
      } catch (err) {
        this.settle(id)
        reject(new Error(`Script tool ${this.name}: the arguments cannot be passed to the worker (${err instanceof Error ? err.message : String(err)})`))
      }
    })
  }

  get running (): boolean { return this.worker !== undefined }

  /** Terminates the worker (if any); calls still waiting fail. */
  async stop (): Promise<void> { this.kill(new Error(`Script tool ${this.name} was removed or stopped`)) }

  /** A newer version replaced this one: the worker stops now, or when the calls under way have answered. */
  retire (): void {
    this.retired = true
    if (this.active === 0) this.kill(new Error(`Script tool ${this.name} was reloaded`))
  }

  private settle (id: number): void {
    const p = this.pending.get(id)
    if (!p) return
    this.clock.clearTimeout(p.timer)
    this.pending.delete(id)
    if (this.pending.size === 0) this.worker?.unref()
  }

  private kill (reason: Error): void {
    const w = this.worker
    this.worker = undefined
    this.ready = undefined
    for (const [id, p] of [...this.pending]) { this.settle(id); p.reject(reason) }
    if (w) void w.terminate().catch(() => undefined)
  }
}
