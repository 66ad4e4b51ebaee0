// The load client of the external benchmarks, run in its own process (`runLoad` spawns it) so the
// server under test shares nothing with it but the machine. Keep-alive connections over raw sockets
// (one request buffer built once, a minimal response reader), so the client costs far less per
// request than the servers it measures. Mode `openai` instead calls a model server through the
// openai client, as a program calling the model directly would.
// Run as: node --import tsx bench/load-client.ts '<LoadSpec JSON>'  -> prints one `LOAD {...}` line.
import { spawn } from 'node:child_process'
import { connect, type Socket } from 'node:net'
import { fileURLToPath } from 'node:url'
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions'
import { onCpu } from './pin.js'
import { percentile } from './types.js'

interface LoadSpec {
  mode?: 'http' | 'openai'
  url: string
  method?: string
  headers?: Record<string, string>
  body?: string
  /** Bodies taken in turn by the connections (connection i sends bodies[i % length]); overrides body. */
  bodies?: string[]
  connections: number
  durationMs: number
  /**
   * Runs the load this long first, unmeasured, in the same process: the client's own code (the openai
   * client in mode openai) is then as warm as the server it measures. Each load is a new process.
   */
  warmupMs?: number
  /** The CPU the client runs on (bench/pin.ts), e.g. CLIENT_CPU. */
  cpu?: number
  /** Mode openai: the model of each call. */
  model?: string
  /** Mode openai: the whole request of each call (messages, tools...) instead of one short message. */
  request?: Record<string, unknown>
}
/**
 * How long each server of an external bench is loaded before its measured rounds
 * (LINGXI_BENCH_WARMUP_MS). The plugin's code reaches its steady speed only after about five seconds of
 * load (V8 optimizes function after function): its CPU per chat turn in consecutive 1.5 s loads after a
 * start measured 2150, 1150, 730, 605-760 µs; a bot that is busy has long been past that.
 */
export const SERVER_WARMUP_MS = Number(process.env.LINGXI_BENCH_WARMUP_MS ?? 5000)
/** Each measured load's own warm-up (LoadSpec.warmupMs): the client is a new process every time. */
export const CLIENT_WARMUP_MS = 1000

export interface LoadResult { requests: number; errors: number; rps: number; p50: number; p99: number; mean: number }

/** Runs one load in a child process and returns its figures. */
export function runLoad (spec: LoadSpec, events: { /** the warm-up is over: the measured load starts */ onMeasured?: () => void } = {}): Promise<LoadResult> {
  // plain node with the tsx loader; no inherited NODE_OPTIONS (the bench runner's)
  const { NODE_OPTIONS: _drop, ...env } = process.env
  const [command, args] = onCpu(spec.cpu, process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), JSON.stringify(spec)])
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'], env })
  let out = ''
  let measured = false
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString()
    if (!measured && /^MEASURED$/m.test(out)) { measured = true; events.onMeasured?.() }
  })
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('LOAD '))
      if (code !== 0 || !line) reject(new Error(`load client failed (exit ${code ?? 'signal'})`))
      else resolve(JSON.parse(line.slice(5)) as LoadResult)
    })
  })
}

const HEADER_END = Buffer.from('\r\n\r\n')

/** Reads HTTP/1.1 responses off one socket: Content-Length or chunked bodies. */
class ResponseReader {
  private buf: Buffer = Buffer.alloc(0)
  private need = -1 // body bytes still expected (Content-Length), -1: reading headers
  private chunked = false
  private status = 0
  constructor (private readonly onResponse: (status: number) => void) {}

  feed (data: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, data]) : data
    for (;;) {
      if (this.need < 0 && !this.chunked) {
        const end = this.buf.indexOf(HEADER_END)
        if (end < 0) return
        const head = this.buf.subarray(0, end).toString('latin1')
        this.buf = this.buf.subarray(end + 4)
        this.status = Number(head.slice(9, 12))
        const len = /\r\ncontent-length:\s*(\d+)/i.exec(head)
        if (len) this.need = Number(len[1])
        else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) this.chunked = true
        else this.need = 0
      }
      if (this.chunked) {
        const eol = this.buf.indexOf('\r\n')
        if (eol < 0) return
        const size = parseInt(this.buf.subarray(0, eol).toString('latin1'), 16)
        if (this.buf.length < eol + 2 + size + 2) return
        this.buf = this.buf.subarray(eol + 2 + size + 2)
        if (size === 0) { this.chunked = false; this.done() }
        continue
      }
      if (this.buf.length < this.need) return
      this.buf = this.buf.subarray(this.need)
      this.done()
    }
  }

  private done (): void { this.need = -1; this.onResponse(this.status) }
}

async function httpLoad (spec: LoadSpec): Promise<{ times: number[]; errors: number; elapsed: number }> {
  const u = new URL(spec.url)
  const requestOf = (text: string | undefined): Buffer => {
    const body = text === undefined ? undefined : Buffer.from(text)
    const headers: Record<string, string> = { Host: u.host, Connection: 'keep-alive', ...spec.headers }
    if (body) headers['Content-Length'] = String(body.length)
    const head = `${spec.method ?? 'GET'} ${u.pathname}${u.search} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`
    return body ? Buffer.concat([Buffer.from(head), body]) : Buffer.from(head)
  }
  const requests = spec.bodies?.length ? spec.bodies.map(requestOf) : [requestOf(spec.body)]
  const times: number[] = []
  let errors = 0
  const start = performance.now()
  const end = start + spec.durationMs
  const one = (_: unknown, index: number): Promise<void> => new Promise((resolve) => {
    const request = requests[index % requests.length] as Buffer
    const socket: Socket = connect(Number(u.port), u.hostname)
    socket.setNoDelay(true)
    let sent = 0
    const send = (): void => { sent = performance.now(); socket.write(request) }
    const reader = new ResponseReader((status) => {
      const now = performance.now()
      times.push(now - sent)
      if (status < 200 || status >= 300) errors++
      if (now < end) send()
      else socket.end()
    })
    socket.on('connect', send)
    socket.on('data', (d: Buffer) => { reader.feed(d) })
    socket.on('error', () => { errors++ })
    socket.on('close', () => { resolve() })
  })
  await Promise.all(Array.from({ length: spec.connections }, one))
  return { times, errors, elapsed: performance.now() - start }
}

async function openaiLoad (spec: LoadSpec): Promise<{ times: number[]; errors: number; elapsed: number }> {
  const { default: OpenAI } = await import('openai')
  const client = new OpenAI({ baseURL: spec.url, apiKey: spec.headers?.authorization ?? 'sk-bench', maxRetries: 0 })
  const times: number[] = []
  let errors = 0
  const start = performance.now()
  const end = start + spec.durationMs
  let i = 0
  await Promise.all(Array.from({ length: spec.connections }, async () => {
    while (performance.now() < end) {
      const t0 = performance.now()
      try {
        const request = spec.request ?? { messages: [{ role: 'user', content: `message number ${i++}` }] }
        await client.chat.completions.create({ ...request, model: spec.model ?? 'gpt-4o-mini', stream: false } as ChatCompletionCreateParamsNonStreaming)
      } catch { errors++ }
      times.push(performance.now() - t0)
    }
  }))
  return { times, errors, elapsed: performance.now() - start }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const spec = JSON.parse(process.argv[2] ?? '{}') as LoadSpec
  const load = spec.mode === 'openai' ? openaiLoad : httpLoad
  if (spec.warmupMs) await load({ ...spec, durationMs: spec.warmupMs })
  process.stdout.write('MEASURED\n')
  const { times, errors, elapsed } = await load(spec)
  const r3 = (n: number): number => Math.round(n * 1000) / 1000
  const result: LoadResult = {
    requests: times.length,
    errors,
    rps: times.length / (elapsed / 1000),
    p50: r3(percentile(times, 50)),
    p99: r3(percentile(times, 99)),
    mean: r3(times.reduce((a, b) => a + b, 0) / Math.max(1, times.length))
  }
  process.stdout.write(`LOAD ${JSON.stringify(result)}\n`)
  process.exit(0)
}
