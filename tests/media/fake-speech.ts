// A fake OpenAI-compatible speech endpoint on 127.0.0.1 (POST <url>/audio/speech) answering a real,
// tiny WAV file; it records each request and can fail on demand (status, an echo of the request's
// Authorization header as an upstream that leaks keys would).
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/** A valid WAV file: 16-bit mono PCM at 8 kHz, `samples` samples of a quiet square wave. */
function tinyWav (samples = 400): Buffer {
  const data = Buffer.alloc(samples * 2)
  for (let i = 0; i < samples; i++) data.writeInt16LE(i % 20 < 10 ? 800 : -800, i * 2)
  const h = Buffer.alloc(44)
  h.write('RIFF', 0, 'latin1')
  h.writeUInt32LE(36 + data.length, 4)
  h.write('WAVE', 8, 'latin1')
  h.write('fmt ', 12, 'latin1')
  h.writeUInt32LE(16, 16) // fmt chunk size
  h.writeUInt16LE(1, 20) // PCM
  h.writeUInt16LE(1, 22) // mono
  h.writeUInt32LE(8000, 24) // sample rate
  h.writeUInt32LE(16000, 28) // byte rate
  h.writeUInt16LE(2, 32) // block align
  h.writeUInt16LE(16, 34) // bits per sample
  h.write('data', 36, 'latin1')
  h.writeUInt32LE(data.length, 40)
  return Buffer.concat([h, data])
}

interface SpeechRequest {
  path: string
  authorization: string
  body: { model?: string; input?: string; voice?: string; response_format?: string; speed?: number }
}

export interface FakeSpeech {
  /** base URL including /v1 (what tts.baseUrl holds) */
  url: string
  audio: Buffer
  requests: SpeechRequest[]
  /** the next requests fail: an HTTP status, or 'echo' (401 echoing the Authorization header) */
  failNext(...how: Array<number | 'echo'>): void
  reset(): void
  close(): Promise<void>
}

export async function startFakeSpeech (): Promise<FakeSpeech> {
  const failures: Array<number | 'echo'> = []
  const sockets = new Set<Socket>()
  const server: Server = createServer((req, res) => { void handle(req).then(([status, type, body]) => { res.writeHead(status, { 'Content-Type': type }); res.end(body) }) })
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)) })
  const fake: FakeSpeech = {
    url: '',
    audio: tinyWav(),
    requests: [],
    failNext: (...how) => { failures.push(...how) },
    reset: () => { fake.requests.length = 0; failures.length = 0 },
    close: () => new Promise((resolve) => { server.close(() => resolve()); for (const s of sockets) s.destroy() })
  }

  async function handle (req: IncomingMessage): Promise<[number, string, Buffer | string]> {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const path = (req.url ?? '').split('?')[0] ?? ''
    if (req.method !== 'POST' || !path.endsWith('/audio/speech')) return [404, 'application/json', '{"error":{"message":"not found"}}']
    let body: SpeechRequest['body'] = {}
    try { body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as SpeechRequest['body'] } catch { /* recorded as empty */ }
    const authorization = String(req.headers.authorization ?? '')
    fake.requests.push({ path, authorization, body })
    const fail = failures.shift()
    if (fail === 'echo') return [401, 'application/json', JSON.stringify({ error: { message: `Invalid key: received Authorization "${authorization}"` } })]
    if (fail !== undefined) return [fail, 'application/json', JSON.stringify({ error: { message: `fake speech error ${fail}` } })]
    return [200, 'audio/wav', fake.audio]
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
  return fake
}
