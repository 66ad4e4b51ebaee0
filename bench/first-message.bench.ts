// How soon the user sees something (README "Streamed answers", lib/delivery/stream.ts): a private message
// dispatched by the standalone host (the plugin loaded through index.js), the fake model in its own
// process (server-child.ts `fake-model`). Streamed: the model writes one sentence every 800 ms; the
// figure is the time from the question to the first QQ message sent (target <= 1,300 ms). Slow: the model
// answers whole after 6.4 s; the figure is the time to the thinking notice, thinkingNoticeMs 2,000 here
// (target: within it, +100 ms for the send). Medians of three turns each.
import { startPluginHost } from '../tests/support/plugin-host.js'
import { startServerProcess } from './server-child.js'
import { percentile, type BenchRow } from './types.js'

const ROUNDS = 3
const NOTICE_MS = 2000

export async function run (): Promise<BenchRow[]> {
  const model = await startServerProcess('fake-model')
  const p = await startPluginHost('miao', 'lingxi-bench-first-message-')
  try {
    const rt = p.run.rt
    await rt.config.update({ chat: { userRateLimitPerMinute: 0 }, memory: { enabled: false }, delivery: { thinkingNoticeMs: NOTICE_MS, stream: 'private' } })
    let user = 40000
    /** One turn: ms from the question to the first message and to the last, and how many were sent. */
    const turn = async (): Promise<{ first: number; last: number; sends: number }> => {
      const id = String(++user)
      const times: number[] = []
      const off = p.host.onSend((e) => { if (e.targetId === id) times.push(performance.now()) })
      const t0 = performance.now()
      try {
        const res = await p.host.sendPrivate(id, `问题 ${user}`)
        if (res.stage !== 'handled' || !times.length) throw new Error(`turn for ${id} was not answered (${res.stage})`)
      } finally { off() }
      return { first: (times[0] as number) - t0, last: (times.at(-1) as number) - t0, sends: times.length }
    }
    const useModel = async (name: string): Promise<void> => {
      await rt.config.update({ channels: [{ name: 'bench', baseUrl: model.url, apiKey: 'sk-bench-0001', model: name, models: [name] }] })
    }

    await useModel('sentences-800')
    await turn() // warm-up: connections, JIT
    const streamed: Array<{ first: number; last: number; sends: number }> = []
    for (let i = 0; i < ROUNDS; i++) streamed.push(await turn())
    if (streamed.some((r) => r.sends < 2)) throw new Error(`the answer was not streamed: ${JSON.stringify(streamed)}`)

    await useModel('slow-6400')
    const slow: Array<{ first: number; last: number; sends: number }> = []
    for (let i = 0; i < ROUNDS; i++) slow.push(await turn())
    if (slow.some((r) => r.sends !== 2)) throw new Error(`no thinking notice before the answer: ${JSON.stringify(slow)}`)

    const first = percentile(streamed.map((r) => r.first), 50)
    const whole = percentile(streamed.map((r) => r.last), 50)
    const notice = percentile(slow.map((r) => r.first), 50)
    const answer = percentile(slow.map((r) => r.last), 50)
    const r = (n: number): number => Math.round(n)
    return [
      { name: `first message, model streaming a sentence every 800 ms (median of ${ROUNDS})`, figure: r(first), unit: 'ms', target: '<= 1300', pass: first <= 1300 },
      { name: 'same, last message (8 sentences: the model ends at 6.4 s)', figure: r(whole), unit: 'ms', target: 'reported', pass: true },
      { name: `thinking notice, model answering whole after 6.4 s, thinkingNoticeMs ${NOTICE_MS} (median of ${ROUNDS})`, figure: r(notice), unit: 'ms', target: `<= ${NOTICE_MS + 100}`, pass: notice >= NOTICE_MS && notice <= NOTICE_MS + 100 },
      { name: 'same, the answer', figure: r(answer), unit: 'ms', target: 'reported', pass: true }
    ]
  } finally {
    await p.stop()
    await model.stop()
  }
}
