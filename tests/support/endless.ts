// Servers that answer without end (a broken or hostile upstream), for the tests of the reading limits:
// lib/core/read-body.ts and lib/channels/fetch.ts.
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/** Writes `chunk` again and again as fast as the client reads, until it closes the connection; the bytes written. */
export async function writeWithoutEnd (res: ServerResponse, chunk: Buffer): Promise<number> {
  let sent = 0
  while (!res.destroyed && !res.closed && !res.writableEnded) {
    sent += chunk.length
    if (!res.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = (): void => { res.off('drain', done); res.off('close', done); resolve() }
        res.on('drain', done)
        res.on('close', done)
      })
    }
  }
  return sent
}

export interface EndlessServer {
  url: string
  /** bytes written per finished answer, in order */
  sent: number[]
  close(): Promise<void>
}

/**
 * Answers every request with 64 KiB pieces of `x` without end, with status `/status/<n>` of the path
 * (else 200) and `Content-Type: <type>` of the query (else application/octet-stream).
 */
export async function startEndlessServer (): Promise<EndlessServer> {
  const sockets = new Set<Socket>()
  const piece = Buffer.alloc(64 * 1024, 'x')
  const srv: EndlessServer = { url: '', sent: [], close: async () => { for (const s of sockets) s.destroy(); await new Promise<void>((resolve) => server.close(() => resolve())) } }
  const server: Server = createServer((req, res) => {
    req.resume()
    const url = new URL(req.url ?? '/', 'http://x')
    const status = Number(/^\/status\/(\d{3})/.exec(url.pathname)?.[1] ?? 200)
    res.writeHead(status, { 'Content-Type': url.searchParams.get('type') ?? 'application/octet-stream' })
    void writeWithoutEnd(res, piece).then((n) => srv.sent.push(n))
  })
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)) })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  srv.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return srv
}
