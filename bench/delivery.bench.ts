// The delivery step of a turn (lib/delivery, issue 18 target: under 1 ms p50) for a 3,000-character
// markdown answer with a <think> block, forward path: reasoning out, media out, markdown made plain,
// forward nodes cut and built, the sends planned; the host's own send is a no-op here (excluded).
// Three rounds of 2,000 answers after a warm-up; the figure is the median of the rounds' p50s.
import { systemClock } from '../lib/core/clock.js'
import { planDelivery } from '../lib/delivery/plan.js'
import { sendPlan, type Outlet } from '../lib/delivery/send.js'
import { longMarkdownAnswer } from '../tests/delivery/fixtures.js'
import { percentile, type BenchRow } from './types.js'

const SETTINGS = { markdown: 'plain', longAnswer: 'forward', longAnswerChars: 500, splitSentences: false } as const
const ROUNDS = 3
const PER_ROUND = 2000

export async function run (): Promise<BenchRow[]> {
  const answer = longMarkdownAnswer().slice(0, 3050)
  let nodes = 0
  const outlet: Outlet = {
    isGroup: true, botId: '10000', botName: '灵犀',
    reply: async () => undefined,
    forward: async (n) => { nodes = n.length; return { type: 'node', data: n } },
    render: async () => ({ failed: 'none' }),
    image: (src) => ({ type: 'image', file: src })
  }
  const opts = { quote: true, atSender: false, sentenceDelayMs: 0, clock: systemClock, warn: () => {} }
  const once = async (): Promise<number> => {
    const t0 = performance.now()
    await sendPlan(outlet, planDelivery(answer, SETTINGS), opts)
    return performance.now() - t0
  }
  for (let i = 0; i < 300; i++) await once()
  const p50s: number[] = []
  const p99s: number[] = []
  for (let r = 0; r < ROUNDS; r++) {
    const ms: number[] = []
    for (let i = 0; i < PER_ROUND; i++) ms.push(await once())
    p50s.push(percentile(ms, 50))
    p99s.push(percentile(ms, 99))
  }
  const p50 = percentile(p50s, 50)
  const p99 = percentile(p99s, 50)
  if (nodes < 2) throw new Error(`the answer was not sent as a forward message (${nodes} nodes)`)
  return [
    { name: `delivery: ${answer.length}-char markdown answer, forward path, p50 (median of ${ROUNDS})`, figure: Number(p50.toFixed(3)), unit: 'ms', target: '< 1 ms', pass: p50 < 1 },
    { name: 'delivery: same, p99 (median of 3)', figure: Number(p99.toFixed(3)), unit: 'ms', target: 'reported', pass: true }
  ]
}
