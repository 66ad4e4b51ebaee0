// A small keep-alive HTTP load generator for the benchmarks (requests per second over a duration).
import { Agent, request } from 'node:http'

export async function load (url: string, opts: { headers?: Record<string, string>; durationMs?: number; concurrency?: number } = {}): Promise<{ rps: number; errors: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: opts.concurrency ?? 16 })
  const end = Date.now() + (opts.durationMs ?? 2000)
  const start = Date.now()
  let done = 0
  let errors = 0
  const one = (): Promise<void> => new Promise((resolve) => {
    const req = request(url, { agent, headers: opts.headers }, (res) => {
      if (res.statusCode !== 200) errors++
      res.resume()
      res.on('end', () => { done++; resolve() })
    })
    req.on('error', () => { errors++; resolve() })
    req.end()
  })
  await Promise.all(Array.from({ length: opts.concurrency ?? 16 }, async () => { while (Date.now() < end) await one() }))
  agent.destroy()
  return { rps: done / ((Date.now() - start) / 1000), errors }
}
