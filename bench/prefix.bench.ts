// What a turn costs the owner in input (README "What it costs", lib/chat/README.md "Request layout"):
// the share of each request that repeats the previous request of the conversation as its exact start,
// which a provider's prompt cache serves at about a tenth of the price. Measured as a provider reads a
// request (the tools, then each message in order) on the bodies a recording fake model received, through
// the standalone host with default settings: an 8-turn private chat, and an 8-turn group chat with three
// unaddressed messages of others between the turns, the clock moving as in a real chat. Target: median share
// >= 0.95 in both, and in the private chat of a user with three memories (in the system message's stable
// summary, lib/memory/README.md "Recall"; reported beside it: the same without the summary). Also reported:
// the characters the plugin adds to a one-word first message (system prompt, of it the default preset's
// persona, the tool definitions, the message's note).
import sinon from 'sinon'
import { startFakeOpenAI } from '../tests/support/fake-openai.js'
import { startPluginHost } from '../tests/support/plugin-host.js'
import { splitUserContent } from '../tests/support/user-text.js'
import { percentile, type BenchRow } from './types.js'

interface Body { messages?: unknown[]; tools?: unknown[] }

/** A request's messages as a provider's cache reads them, in order. The tools are compared apart (where a
 * provider renders them differs: before or inside the system text), so a change early in the system message
 * counts as early whatever the tools do. */
const wireText = (b: Body): string => (b.messages ?? []).map((m) => JSON.stringify(m)).join('\n')
/** For each request after the first: whether its tool list is the previous one's. */
const sameTools = (bodies: Body[]): number[] => bodies.slice(1).map((b, i) => (JSON.stringify(b.tools ?? []) === JSON.stringify(bodies[i]?.tools ?? []) ? 1 : 0))

function commonStart (a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  let i = 0
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++
  return i
}

/** For each request after the first: the share of the previous one it starts with. */
function shares (bodies: Body[]): number[] {
  const texts = bodies.map(wireText)
  return texts.slice(1).map((t, i) => commonStart(texts[i] ?? '', t) / Math.max(1, (texts[i] ?? '').length))
}

export async function run (): Promise<BenchRow[]> {
  const fake = await startFakeOpenAI({ models: ['bench-model'] })
  const p = await startPluginHost('miao', 'lingxi-bench-prefix-')
  try {
    const rt = p.run.rt
    await rt.need('channels').service.create({ name: 'bench', baseUrl: fake.url, apiKey: 'sk-bench-0001', model: 'bench-model' })
    const bodies = (): Body[] => fake.chatRequests().map((r) => r.body as Body)

    // one-word first message: what the plugin adds
    await p.host.sendPrivate('50001', '你好')
    const first = bodies()[0] ?? {}
    const msgs = (first.messages ?? []) as Array<{ role: string; content: string }>
    const system = msgs.filter((m) => m.role === 'system').reduce((n, m) => n + m.content.length, 0)
    const persona = (await rt.need('presetResolver').resolve({ userId: '50001', isMaster: false, via: 'bot', conversationId: 'private:50001' })).systemPrompt.length
    const tools = JSON.stringify(first.tools ?? []).length
    const newest = msgs.filter((m) => m.role === 'user').at(-1)?.content ?? ''
    const note = newest.length - splitUserContent(newest).text.length

    // the clock moves as in a real chat: two minutes between the turns, twenty seconds between others' messages
    const clock = sinon.useFakeTimers({ now: new Date(2026, 11, 2, 20, 0).getTime(), toFake: ['Date'] })
    let privateShares: number[]
    let groupShares: number[]
    let memoryShares: number[]
    let perMessageShares: number[]
    let privateBodies: Body[]
    let groupBodies: Body[]
    try {
      // an 8-turn private chat
      fake.reset()
      const questions = ['今天天气怎么样', '那明天呢', '推荐一本书吧', '为什么推荐这本', '作者还写过什么', '帮我写一句读后感', '再短一点', '谢谢']
      for (const q of questions) {
        clock.tick(120_000)
        await p.host.sendPrivate('50002', q)
      }
      privateBodies = bodies()
      privateShares = shares(privateBodies)

      // an 8-turn group chat, three unaddressed messages of others between the turns
      fake.reset()
      for (let turn = 0; turn < 8; turn++) {
        for (let k = 0; k < 3; k++) {
          clock.tick(20_000)
          await p.host.sendGroup('7001', `5010${k}`, `群友${k}的第${turn}条闲聊`, { nickname: `群友${k}` })
        }
        clock.tick(60_000)
        await p.host.sendGroup('7001', '50002', `${questions[turn] ?? '嗯'}`, { at: true, nickname: '提问者' })
      }
      groupBodies = bodies()
      groupShares = shares(groupBodies)

      // the private chat again for a user the bot remembers three things about: each message's tail
      fake.reset()
      for (const m of ['喜欢科幻小说', '住在杭州', '养了一只猫叫团子']) await rt.need('memory').add({ userId: '50003', content: m, category: 'preference' })
      for (const q of questions) {
        clock.tick(120_000)
        await p.host.sendPrivate('50003', q)
      }
      memoryShares = shares(bodies())

      // the same with no summary (memory.summarySize 0): every memory recalled per message, after it
      fake.reset()
      await rt.config.update({ memory: { summarySize: 0 } })
      for (const m of ['喜欢科幻小说', '住在杭州', '养了一只猫叫团子']) await rt.need('memory').add({ userId: '50004', content: m, category: 'preference' })
      for (const q of questions) {
        clock.tick(120_000)
        await p.host.sendPrivate('50004', q)
      }
      perMessageShares = shares(bodies())
      await rt.config.update({ memory: { summarySize: 5 } })
    } finally { clock.restore() }
    const med = (xs: number[]): number => Math.round(percentile(xs, 50) * 1000) / 1000
    const toolsKept = [...sameTools(privateBodies), ...sameTools(groupBodies)]
    const kept = Math.round((toolsKept.reduce((a, b) => a + b, 0) / Math.max(1, toolsKept.length)) * 1000) / 1000
    const pm = med(privateShares)
    const gm = med(groupShares)
    return [
      { name: 'prefix reuse, 8-turn private chat (median share of the previous request)', figure: pm, unit: '', target: '>= 0.95', pass: pm >= 0.95 },
      { name: 'prefix reuse, 8-turn group chat with others between turns (median)', figure: gm, unit: '', target: '>= 0.95', pass: gm >= 0.95 },
      { name: 'prefix reuse, the private chat with 3 memories, in the stable summary (median)', figure: med(memoryShares), unit: '', target: '>= 0.95', pass: med(memoryShares) >= 0.95 },
      { name: 'prefix reuse, the same with memory.summarySize 0 (all recalled per message, median)', figure: med(perMessageShares), unit: '', target: 'reported', pass: true },
      { name: 'tool list the same as in the previous request (share of requests)', figure: kept, unit: '', target: '1', pass: kept === 1 },
      { name: 'one-word first message: system prompt added', figure: system, unit: 'chars', target: 'reported', pass: true },
      { name: 'one-word first message: of it, the default preset', figure: persona, unit: 'chars', target: 'reported', pass: true },
      { name: 'one-word first message: tool definitions added', figure: tools, unit: 'chars', target: 'reported', pass: true },
      { name: 'one-word first message: its note (time, speaker)', figure: note, unit: 'chars', target: 'reported', pass: true }
    ]
  } finally {
    await p.stop()
    await fake.close()
  }
}
