// Script tools run in a confined child process (one per script, started on demand), not in the bot:
// - Node's permission model (`--permission`, on Node 20 and before 22.13 `--experimental-permission`):
//   the child reads only the script's own file and the node_modules folders its `require` looks in;
//   no writing, no child processes, no worker threads, no addons, no WASI, no inspector. The network
//   is not restricted (Node before 25 cannot; on 25+ `--allow-net` is passed so scripts behave alike).
// - an empty environment (no LINGXI_*, no API keys, no HOME, no PATH);
// - a time limit per load and per call (config `tools.scriptTimeoutMs`): the child and its process
//   group are killed (Windows: `taskkill /T /F`), the call answers an error, the next call starts a new child;
// - memory caps: `--max-old-space-size` on the child's heap, its resident memory while it works
//   (Linux /proc), and a cap on what the bot reads back;
// - `process.kill`, `process._kill` and `process._debugProcess` (which would signal the bot, or open
//   its inspector) are replaced before the script loads.
//
// Protocol: the runner (RUNNER_SOURCE, given with `-e`: the plugin is bundled into one file for the
// hosts, there is no runner file to point at) reads JSON lines on stdin (`load` with the transpiled
// CommonJS code, then `call`s) and answers JSON lines on fd 3; the script's own stdout is discarded,
// the end of its stderr is kept for error texts. Nothing is written to disk.
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync, realpathSync } from 'node:fs'
import { dirname, join, parse } from 'node:path'
import type { Readable, Writable } from 'node:stream'
import type { ToolResult } from '../chat/contracts.js'
import type { Clock } from '../core/clock.js'
import { errorText } from '../core/errors.js'

/** What the script exports besides `execute` (read in the child, checked by the bot). */
export interface ScriptMeta { description?: unknown; inputSchema?: unknown; category?: unknown; risk?: unknown; dangerous?: unknown }

/** Heap cap of a script's child process (MiB). */
const HEAP_MB = 128
/** Longest answer line read back from a child (bytes); past it the child is stopped. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024
/**
 * Resident memory cap of a child (MiB), checked every RSS_CHECK_MS while it loads or answers, where
 * /proc tells (Linux): Buffers and ArrayBuffers live outside the heap `--max-old-space-size` caps.
 */
const RSS_MB = 384
const RSS_CHECK_MS = 100
/** A child without a call for this long is stopped (it starts again on the next call). */
const IDLE_MS = 5 * 60_000
/** How much of a child's stderr is kept (for the error text of a crash). */
const STDERR_TAIL = 2000

const RUNNER_SOURCE = String.raw`'use strict'
const fs = require('node:fs')
const Module = require('node:module')
const path = require('node:path')
const text = (e) => (e && e.message) ? String(e.message) : String(e)
const json = JSON.stringify
const send = (m) => {
  let s
  try { s = json(m) } catch (e) { s = json({ type: m.type, id: m.id, error: 'the answer cannot be sent as JSON: ' + text(e) }) }
  const b = Buffer.from(s + '\n')
  let off = 0
  while (off < b.length) {
    try { off += fs.writeSync(3, b, off) } catch (e) { if (e && e.code === 'EAGAIN') continue; process.exit(70) }
  }
}
// never run a script unconfined (a runtime that ignored the flags)
const perm = process.permission
if (!perm || typeof perm.has !== 'function' || perm.has('child') || perm.has('worker') || perm.has('fs.write')) {
  send({ type: 'failed', error: 'the permission model is not active in the script process; the script was not run' })
  process.exit(71)
}
for (const k of ['kill', '_kill', '_debugProcess', '_debugEnd', '_linkedBinding', 'dlopen']) {
  const deny = function () { throw new Error('process.' + k + ' is not available to script tools') }
  try { Object.defineProperty(process, k, { value: deny, writable: false, configurable: false, enumerable: false }) } catch (e) {}
}
const answer = (v) => {
  if (typeof v === 'string') return { text: v }
  if (v && typeof v === 'object' && Array.isArray(v.content)) return { content: JSON.parse(json(v.content)), isError: v.isError === true }
  let s
  try { s = json(v === undefined ? null : v) } catch (e) { s = json(String(v)) }
  return { json: s === undefined ? 'null' : s }
}
let run
const load = (code, file) => {
  try {
    const m = new Module(file, null)
    m.filename = file
    m.paths = Module._nodeModulePaths(path.dirname(file))
    m._compile(code, file)
    const ex = m.exports
    const d = ex && ex.default && typeof ex.default === 'object' ? ex.default : ex
    const exec = d && typeof d.execute === 'function' ? d.execute : ex && typeof ex.default === 'function' ? ex.default : undefined
    if (typeof exec !== 'function') throw new Error('a script tool must export an execute(args, ctx) function')
    run = (args, ctx) => exec.call(d, args, ctx)
    let meta
    try { meta = JSON.parse(json({ description: d.description, inputSchema: d.inputSchema, category: d.category, risk: d.risk, dangerous: d.dangerous })) } catch (e) { meta = {} }
    send({ type: 'ready', meta })
  } catch (err) {
    send({ type: 'failed', error: text(err) })
  }
}
const call = async (msg) => {
  try {
    if (!run) throw new Error('the script is not loaded')
    send({ type: 'result', id: msg.id, value: answer(await run(msg.args, msg.ctx)) })
  } catch (err) {
    send({ type: 'error', id: msg.id, error: text(err) })
  }
}
let buf = ''
process.stdin.setEncoding('utf8')
process.stdin.on('data', (chunk) => {
  buf += chunk
  let i
  while ((i = buf.indexOf('\n')) >= 0) {
    const line = buf.slice(0, i)
    buf = buf.slice(i + 1)
    let msg
    try { msg = JSON.parse(line) } catch (e) { continue }
    if (msg && msg.type === 'load') load(msg.code, msg.file)
    else if (msg && msg.type === 'call') void call(msg)
  }
})
process.stdin.on('end', () => process.exit(0))
`

type Answer = { text: string } | { json: string } | { content: unknown; isError: boolean }
type Reply = { type: 'ready'; meta: ScriptMeta } | { type: 'failed'; error: string } |
  { type: 'result'; id: number; value: Answer } | { type: 'error'; id: number; error: string }

interface Pending { resolve: (v: ToolResult) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }

/** A stream that can stop holding the event loop (the child's pipes are net.Sockets). */
type Unrefable = { ref?: () => void; unref?: () => void }

/**
 * The permission flags of this Node. The model is `--experimental-permission` on Node 20 (and up to
 * 22.12 / 23.4), `--permission` from 22.13 / 23.5 (where the old name was an alias, dropped later):
 * taken from the flags this Node knows, else from its version.
 */
function permissionFlags (): string[] {
  const known = process.allowedNodeEnvironmentFlags
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number)
  const stable = known.has('--permission') || major >= 24 || (major === 22 && minor >= 13) || (major === 23 && minor >= 5)
  const flags = [stable ? '--permission' : '--experimental-permission']
  // Node 25 puts the network under the permission model too: allowed, as on older versions (README).
  if (known.has('--allow-net') || major >= 25) flags.push('--allow-net')
  return flags
}
let cachedFlags: string[] | undefined

/** The node flags of a script's child (the runner follows with `-e`): nothing allowed but reading these paths. */
function nodeArgs (file: string): string[] {
  const flags = (cachedFlags ??= permissionFlags())
  return [...flags, ...readablePaths(file).map((p) => `--allow-fs-read=${p}`), `--max-old-space-size=${HEAP_MB}`, '--no-warnings']
}

/** What the child may read: the script's file and the node_modules folders its `require` would look in. */
function readablePaths (file: string): string[] {
  const out = new Set<string>([file])
  try { out.add(realpathSync(file)) } catch { /* a removed file fails to load anyway */ }
  let dir = dirname(file)
  const root = parse(dir).root
  for (;;) {
    const nm = join(dir, 'node_modules')
    if (existsSync(nm)) {
      out.add(nm)
      try { out.add(realpathSync(nm)) } catch { /* vanished */ }
    }
    if (dir === root) break
    dir = dirname(dir)
  }
  return [...out]
}

/** The child's environment: nothing of the bot's (Windows needs SystemRoot to start at all). */
function childEnv (): NodeJS.ProcessEnv {
  if (process.platform !== 'win32') return {}
  const env: NodeJS.ProcessEnv = {}
  for (const k of ['SystemRoot', 'SYSTEMROOT', 'windir']) if (process.env[k]) env[k] = process.env[k]
  return env
}

/** Kills a child and its process group (POSIX; spawned detached) or its tree (Windows). */
function killTree (child: ChildProcess): void {
  const pid = child.pid
  if (pid === undefined || child.exitCode !== null || child.signalCode !== null) return
  if (process.platform === 'win32') {
    execFile('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true }, () => { try { child.kill('SIGKILL') } catch { /* gone */ } })
    return
  }
  try { process.kill(-pid, 'SIGKILL') } catch { try { child.kill('SIGKILL') } catch { /* gone */ } }
}

/** Resident memory of a process in MiB (Linux /proc), undefined where it cannot be read. */
function rssMb (pid: number): number | undefined {
  try {
    const pages = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1])
    return Number.isFinite(pages) ? (pages * 4096) / (1024 * 1024) : undefined
  } catch {
    return undefined
  }
}
const HAS_PROC = process.platform === 'linux' && existsSync('/proc/self/statm')

function checkedContent (v: unknown): ToolResult['content'] {
  if (!Array.isArray(v)) return [{ type: 'text', text: JSON.stringify(v ?? null) }]
  return v.map((c: unknown) => {
    const o = (c && typeof c === 'object' ? c : {}) as Record<string, unknown>
    if (o.type === 'image' && typeof o.data === 'string' && typeof o.mimeType === 'string') return { type: 'image' as const, data: o.data, mimeType: o.mimeType }
    return { type: 'text' as const, text: typeof o.text === 'string' ? o.text : JSON.stringify(c ?? null) }
  })
}

function toResult (a: Answer): ToolResult {
  if ('text' in a && typeof a.text === 'string') return { content: [{ type: 'text', text: a.text }], isError: false }
  if ('json' in a && typeof a.json === 'string') return { content: [{ type: 'text', text: a.json }], isError: false }
  if ('content' in a) return { content: checkedContent(a.content), isError: a.isError === true }
  return { content: [{ type: 'text', text: 'null' }], isError: false }
}

/**
 * Every script process still running: killed when the bot's process exits (a `process.exit()` with a
 * load or call under way, whose timer would never fire, must not leave a looping child behind).
 */
const live = new Set<ChildProcess>()
let exitHook = false
function track (child: ChildProcess): void {
  live.add(child)
  child.once('exit', () => live.delete(child))
  if (exitHook) return
  exitHook = true
  process.once('exit', () => { for (const c of live) killTree(c) })
}

/** One script's child process: started on demand, killed on time-out, reload, removal or stop. */
export class ScriptRunner {
  private child: ChildProcess | undefined
  private ready: Promise<ScriptMeta> | undefined
  private readonly pending = new Map<number, Pending>()
  private seq = 0
  /** Calls under way (starting the child included). */
  private active = 0
  /** Replaced by a newer version: stopped as soon as its calls under way have answered. */
  private retired = false
  /** Stops an idle child (IDLE_MS after its last answer). */
  private idleTimer: NodeJS.Timeout | undefined
  /** Watches the child's resident memory while it works (Linux). */
  private rssTimer: NodeJS.Timeout | undefined
  /** Fails the load under way (a kill during loading says why). */
  private failLoad: ((e: Error) => void) | undefined

  constructor (private readonly name: string, private readonly file: string, private readonly code: string,
    private readonly timeoutMs: () => number, private readonly clock: Clock) {}

  /** Starts the child if needed; resolves with the script's metadata once its module ran. */
  start (): Promise<ScriptMeta> {
    if (this.ready) return this.ready
    const child = spawn(process.execPath, [...nodeArgs(this.file), '-e', RUNNER_SOURCE], {
      cwd: dirname(this.file),
      env: childEnv(),
      stdio: ['pipe', 'ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32', // its own process group, killed as one
      windowsHide: true
    })
    this.child = child
    track(child)
    const stdin = child.stdin as Writable
    const answers = child.stdio[3] as Readable
    const stderr = child.stderr as Readable
    let tail = ''
    stderr.setEncoding('utf8')
    stderr.on('data', (s: string) => { tail = (tail + s).slice(-STDERR_TAIL) })
    stdin.on('error', () => undefined) // a dead child: its exit says why
    this.hold(this.active > 0)
    this.watchMemory(true) // loading can allocate too
    const ms = this.timeoutMs()
    this.ready = new Promise<ScriptMeta>((resolve, reject) => {
      this.failLoad = reject
      const timer = this.clock.setTimeout(() => {
        const err = new Error(`Script tool ${this.name} did not load within ${ms} ms; its process was stopped`)
        this.kill(err)
        reject(err)
      }, ms)
      let buf: Buffer[] = []
      let size = 0
      const onReply = (m: Reply): void => {
        if (m.type === 'ready') { this.clock.clearTimeout(timer); this.failLoad = undefined; if (this.pending.size === 0) this.watchMemory(false); resolve(m.meta && typeof m.meta === 'object' ? m.meta : {}); return }
        if (m.type === 'failed') { this.clock.clearTimeout(timer); const e = new Error(String(m.error)); this.kill(e); reject(e); return }
        const p = this.pending.get(m.id)
        if (!p) return
        this.settle(m.id)
        if (m.type === 'result') p.resolve(toResult(m.value && typeof m.value === 'object' ? m.value : { json: 'null' }))
        else p.reject(new Error(String(m.error)))
      }
      answers.on('data', (chunk: Buffer) => {
        if (this.child !== child) return
        let at = chunk.indexOf(10)
        while (at >= 0) {
          buf.push(chunk.subarray(0, at))
          const line = Buffer.concat(buf).toString('utf8')
          buf = []; size = 0
          chunk = chunk.subarray(at + 1)
          let m: Reply | undefined
          try { m = JSON.parse(line) as Reply } catch { m = undefined }
          if (m && typeof m === 'object') onReply(m)
          if (this.child !== child) return
          at = chunk.indexOf(10)
        }
        size += chunk.length
        if (size > MAX_ANSWER_BYTES) {
          const err = new Error(`Script tool ${this.name} answered more than ${MAX_ANSWER_BYTES} bytes; its process was stopped`)
          this.kill(err); reject(err); return
        }
        if (chunk.length) buf.push(chunk)
      })
      answers.on('error', () => undefined)
      child.on('error', (err) => { this.clock.clearTimeout(timer); if (this.child === child) this.kill(err); reject(err) })
      child.on('exit', (code, signal) => {
        this.clock.clearTimeout(timer)
        const oom = /heap limit|out of memory/i.test(tail)
        const why = oom
          ? `Script tool ${this.name} ran out of memory (limit ${HEAP_MB} MB); its process was stopped`
          : `Script tool ${this.name} stopped (${signal ? `signal ${signal}` : `exit code ${code}`})`
        if (this.child === child) this.kill(new Error(why))
        reject(new Error(oom ? why : `Script tool ${this.name} stopped before it loaded (${signal ? `signal ${signal}` : `exit code ${code}`})`))
      })
      this.write({ type: 'load', code: this.code, file: this.file })
    })
    this.ready.catch(() => undefined) // awaited by the caller; never an unhandled rejection
    return this.ready
  }

  /** Runs `execute(args, ctx)` in the child within the time limit (the child is killed on time-out). */
  async call (args: Record<string, unknown>, ctx: Record<string, unknown>): Promise<ToolResult> {
    this.active++
    this.idle(false)
    try {
      return await this.run(args, ctx)
    } finally {
      if (--this.active === 0) {
        if (this.retired) this.kill(new Error(`Script tool ${this.name} was reloaded`))
        else this.idle(true)
      }
    }
  }

  /** Arms (or clears) the idle stop. */
  private idle (arm: boolean): void {
    if (this.idleTimer) this.clock.clearTimeout(this.idleTimer)
    this.idleTimer = undefined
    if (!arm || !this.child) return
    const t = this.clock.setTimeout(() => {
      this.idleTimer = undefined
      if (this.active === 0) this.kill(new Error(`Script tool ${this.name} was idle and stopped`))
    }, IDLE_MS)
    ;(t as Partial<Pick<NodeJS.Timeout, 'unref'>>).unref?.()
    this.idleTimer = t
  }

  private async run (args: Record<string, unknown>, ctx: Record<string, unknown>): Promise<ToolResult> {
    const ms = this.timeoutMs()
    const started = this.clock.now()
    await this.start()
    if (!this.child) throw new Error(`Script tool ${this.name} is not running`)
    const id = ++this.seq
    const left = Math.max(1, ms - (this.clock.now() - started))
    let line: string
    try {
      line = JSON.stringify({ type: 'call', id, args, ctx })
    } catch (err) {
      if (this.pending.size === 0) this.hold(false)
      throw new Error(`Script tool ${this.name}: the arguments cannot be passed to its process (${errorText(err)})`)
    }
    return new Promise<ToolResult>((resolve, reject) => {
      const timer = this.clock.setTimeout(() => {
        this.kill(new Error(`Script tool ${this.name} was stopped: it ran longer than ${ms} ms`))
      }, left)
      this.pending.set(id, { resolve, reject, timer })
      this.hold(true) // a running call keeps the bot's process alive until it answers
      this.writeLine(line)
    })
  }

  get running (): boolean { return this.child !== undefined }

  /** Kills the child (if any); calls still waiting fail. */
  async stop (): Promise<void> { this.kill(new Error(`Script tool ${this.name} was removed or stopped`)) }

  /** A newer version replaced this one: the child stops now, or when the calls under way have answered. */
  retire (): void {
    this.retired = true
    if (this.active === 0) this.kill(new Error(`Script tool ${this.name} was reloaded`))
  }

  private write (m: Record<string, unknown>): void { this.writeLine(JSON.stringify(m)) }
  private writeLine (line: string): void { this.child?.stdin?.write(line + '\n') }

  /** An idle child never keeps the bot's process alive; one with a call under way does. */
  private hold (on: boolean): void {
    this.watchMemory(on)
    const c = this.child
    if (!c) return
    for (const h of [c, c.stdin, c.stderr, c.stdio[3]] as Array<Unrefable | null | undefined>) {
      if (on) h?.ref?.(); else h?.unref?.()
    }
  }

  /** While the child works: killed once its resident memory passes RSS_MB (where /proc tells). */
  private watchMemory (on: boolean): void {
    if (!on || !this.child || !HAS_PROC) {
      if (this.rssTimer) this.clock.clearInterval(this.rssTimer)
      this.rssTimer = undefined
      return
    }
    if (this.rssTimer) return
    const t = this.clock.setInterval(() => {
      const pid = this.child?.pid
      const mb = pid === undefined ? undefined : rssMb(pid)
      if (mb !== undefined && mb > RSS_MB) this.kill(new Error(`Script tool ${this.name} ran out of memory (${Math.round(mb)} MB resident, limit ${RSS_MB} MB); its process was stopped`))
    }, RSS_CHECK_MS)
    ;(t as Partial<Pick<NodeJS.Timeout, 'unref'>>).unref?.()
    this.rssTimer = t
  }

  private settle (id: number): void {
    const p = this.pending.get(id)
    if (!p) return
    this.clock.clearTimeout(p.timer)
    this.pending.delete(id)
    if (this.pending.size === 0) this.hold(false)
  }

  private kill (reason: Error): void {
    this.idle(false)
    this.watchMemory(false)
    const fail = this.failLoad
    this.failLoad = undefined
    fail?.(reason)
    const c = this.child
    this.child = undefined
    this.ready = undefined
    for (const [id, p] of [...this.pending]) { this.settle(id); p.reject(reason) }
    if (c) {
      c.stdin?.end()
      killTree(c)
    }
  }
}
