// synthesize (lib/tts/speech.ts) against small servers on 127.0.0.1: the request it sends, and each way
// an endpoint can fail being an AppError with a code (the caller then sends text).
import { expect } from 'chai'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { AppError } from '../../lib/core/errors.js'
import { synthesize } from '../../lib/tts/speech.js'
import { waitFor } from '../channels/helpers.js'
import { startEndlessServer } from '../support/endless.js'

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void

describe('tts: synthesize (the speech request)', () => {
  let server: Server
  let url = ''
  let handler: Handler = (_req, _body, res) => { res.writeHead(200, { 'Content-Type': 'audio/mpeg' }); res.end(Buffer.from('ID3fake-mp3')) }
  const seen: Array<{ path: string; auth: string | undefined; body: string }> = []

  before(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8')
        seen.push({ path: req.url ?? '', auth: req.headers.authorization, body })
        handler(req, body, res)
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`
  })
  after(async () => { await new Promise<void>((resolve) => server.close(() => resolve())) })
  beforeEach(() => { seen.length = 0 })

  const cfg = (over: Partial<Parameters<typeof synthesize>[0]> = {}): Parameters<typeof synthesize>[0] =>
    ({ baseUrl: url, apiKey: '', model: 'tts-1', format: 'mp3', timeoutMs: 5000, ...over })
  const code = async (p: Promise<unknown>): Promise<string> => {
    try { await p } catch (err) { expect(err).to.be.instanceOf(AppError); return (err as AppError).code }
    throw new Error('expected a failure')
  }

  it('posts the JSON request to <baseUrl>/audio/speech and returns the audio bytes', async () => {
    const audio = await synthesize(cfg({ apiKey: 'sk-abcdef123456' }), '  你好  ', { voice: 'nova', speed: 1.5 })
    expect(audio.toString('latin1')).to.equal('ID3fake-mp3')
    expect(seen).to.have.length(1)
    expect(seen[0]?.path).to.equal('/v1/audio/speech')
    expect(seen[0]?.auth).to.equal('Bearer sk-abcdef123456')
    expect(JSON.parse(seen[0]?.body ?? '')).to.deep.equal({ model: 'tts-1', input: '你好', voice: 'nova', response_format: 'mp3', speed: 1.5 })
  })

  it('sends no Authorization header without a key, and cuts the text at 4096 characters', async () => {
    await synthesize(cfg(), 'a'.repeat(5000), { voice: 'alloy', speed: 1 })
    expect(seen[0]?.auth).to.equal(undefined)
    expect((JSON.parse(seen[0]?.body ?? '') as { input: string }).input).to.have.length(4096)
  })

  it('fails with a code: no endpoint, nothing to say, an HTTP error, JSON instead of audio, an empty answer, no server', async () => {
    expect(await code(synthesize(cfg({ baseUrl: '' }), 'x', { voice: 'a', speed: 1 }))).to.equal('SERVICE_UNAVAILABLE')
    expect(await code(synthesize(cfg(), '   ', { voice: 'a', speed: 1 }))).to.equal('INVALID_ARGS')
    expect(seen).to.have.length(0)
    const saved = handler
    try {
      handler = (_req, _body, res) => { res.writeHead(429, { 'Content-Type': 'application/json' }); res.end('{"error":{"message":"slow down"}}') }
      expect(await code(synthesize(cfg(), 'x', { voice: 'a', speed: 1 }))).to.equal('MODEL_ERROR')
      handler = (_req, _body, res) => { res.writeHead(200, { 'Content-Type': 'application/json' }); res.end('{"ok":true}') }
      expect(await code(synthesize(cfg(), 'x', { voice: 'a', speed: 1 }))).to.equal('MODEL_ERROR')
      handler = (_req, _body, res) => { res.writeHead(200, { 'Content-Type': 'audio/wav' }); res.end() }
      expect(await code(synthesize(cfg(), 'x', { voice: 'a', speed: 1 }))).to.equal('MODEL_ERROR')
    } finally { handler = saved }
    expect(await code(synthesize(cfg({ baseUrl: 'http://127.0.0.1:1/v1' }), 'x', { voice: 'a', speed: 1 }))).to.equal('CONNECTION_FAILED')
  })

  it('an endpoint that sends without end: audio refused past 10 MB, an error answer said in 200 characters', async () => {
    const endless = await startEndlessServer()
    try {
      const failure = async (path: string): Promise<AppError> => {
        try { await synthesize(cfg({ baseUrl: `${endless.url}${path}` }), 'x', { voice: 'a', speed: 1 }) } catch (err) { return err as AppError }
        throw new Error('expected a failure')
      }
      const big = await failure('/v1')
      expect({ code: big.code, message: big.message }).to.deep.equal({ code: 'MODEL_ERROR', message: 'The speech endpoint answered more than 10 MB of audio' })
      const error = await failure('/status/500')
      expect(error.message).to.equal(`The speech endpoint answered HTTP 500: ${'x'.repeat(200)}`)
      await waitFor(() => endless.sent.length === 2)
      expect(Math.max(...endless.sent)).to.be.lessThan(10 * 1024 * 1024 + 16 * 1024 * 1024)
    } finally { await endless.close() }
  })

  it('gives up after tts.timeoutMs on the clock it is given (an endpoint that never answers): TIMEOUT', async () => {
    const saved = handler
    const held: ServerResponse[] = []
    handler = (_req, _body, res) => { held.push(res) } // never answers
    // the runtime's clock stand-in: the test decides when the time limit has passed
    const timers: Array<{ fn: () => void; ms: number; cleared: boolean }> = []
    const clock = {
      setTimeout: (fn: () => void, ms: number): NodeJS.Timeout => { timers.push({ fn, ms, cleared: false }); return timers.length as unknown as NodeJS.Timeout },
      clearTimeout: (t: NodeJS.Timeout): void => { const x = timers[Number(t) - 1]; if (x) x.cleared = true }
    }
    try {
      const pending = code(synthesize(cfg({ timeoutMs: 30000 }), 'x', { voice: 'a', speed: 1 }, clock))
      while (!held.length) await new Promise((resolve) => setImmediate(resolve))
      expect(timers.map((t) => t.ms)).to.deep.equal([30000])
      timers[0]?.fn()
      expect(await pending).to.equal('TIMEOUT')
      // an answered request clears its timer
      handler = saved
      await synthesize(cfg(), 'x', { voice: 'a', speed: 1 }, clock)
      expect(timers[1]?.cleared).to.equal(true)
    } finally {
      handler = saved
      for (const r of held) r.destroy()
    }
  })
})
