// Issue 4's chat-turn overhead as a user's message meets it: a private message dispatched by the
// standalone host (loading the plugin through index.js) -> trigger -> pipeline -> openai client ->
// HTTP to a zero-latency OpenAI-compatible server on 127.0.0.1, then the answer -> the reply sent
// through the host. Overhead = (request arrives at the model - message in) + (reply sent - answer
// written by the model). The model server is a few lines of node:http in this process, its own time
// excluded. Targets: p50 < 2 ms, p99 < 10 ms.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startPluginHost } from '../tests/support/plugin-host.js'
import { percentile, type BenchRow } from './types.js'

interface Marks { arrived: number; answered: number }

function zeroLatencyModel (marks: Marks): Server {
  return createServer((req, res) => {
    marks.arrived = performance.now()
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { model?: string }
      const json = JSON.stringify({
        id: 'bench', object: 'chat.completion', created: 0, model: body.model ?? 'bench',
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'ok' } }],
        usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 }
      })
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(json) })
      res.end(json)
      marks.answered = performance.now()
    })
  })
}

export async function run (): Promise<BenchRow[]> {
  const marks: Marks = { arrived: 0, answered: 0 }
  const model = zeroLatencyModel(marks)
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`
  const p = await startPluginHost('miao', 'lingxi-bench-chat-host-')
  try {
    const rt = p.run.rt
    await rt.config.update({ chat: { userRateLimitPerMinute: 0 }, memory: { enabled: false } })
    await rt.need('channels').service.create({ name: 'bench', baseUrl: url, apiKey: 'sk-bench-0001', model: 'bench-model' })
    let replied = 0
    p.host.onSend(() => { replied = performance.now() })
    const turn = async (i: number): Promise<number> => {
      const t0 = performance.now()
      const res = await p.host.sendPrivate(`3${i % 20}`, `hello number ${i}`)
      if (res.stage !== 'handled' || !replied) throw new Error(`turn ${i} was not answered (${res.stage})`)
      return (marks.arrived - t0) + (replied - marks.answered)
    }
    for (let i = 0; i < 200; i++) await turn(i) // warm-up: connections, JIT
    const times: number[] = []
    for (let i = 0; i < 1500; i++) times.push(await turn(i))
    const p50 = percentile(times, 50)
    const p99 = percentile(times, 99)
    const r = (n: number): number => Math.round(n * 1000) / 1000
    return [
      { name: 'chat turn via host + HTTP model, overhead (p50)', figure: r(p50), unit: 'ms', target: '< 2', pass: p50 < 2 },
      { name: 'chat turn via host + HTTP model, overhead (p99)', figure: r(p99), unit: 'ms', target: '< 10', pass: p99 < 10 }
    ]
  } finally {
    await p.stop()
    await new Promise<void>((resolve) => model.close(() => resolve()))
  }
}
