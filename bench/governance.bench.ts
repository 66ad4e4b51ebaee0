// Issue 20 target: access, quota and moderation checks together under 0.2 ms p50 per message with
// 10,000 list entries (blacklisted user ids, blacklisted group ids and banned keywords, besides the
// shipped list). Measured through the governance service of the whole plugin (temp data folder), as
// the chat app calls it: admit (access lists, quotas with limits set, the message counted) and the
// input moderation of a realistic message, then the output moderation of an answer, with many
// different users and groups; the moderation endpoint is off (a network call is not the check).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startLingxi } from '../tests/support/server.js'
import { percentile, type BenchRow } from './types.js'

const ENTRIES = 10_000
const ROUNDS = 5_000
const TARGET_MS = 0.2
const SYLLABLES = '甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳午未申酉戌亥金木水火土风云雷电山川'
const MESSAGES = [
  '今天晚上大家一起去吃火锅吧，我知道一家很好吃的店，就在公司楼下往左走两百米的地方。',
  'can you summarize what we talked about this afternoon in the group, in three short points?',
  '帮我写一段生日祝福，送给我最好的朋友，她下周就要过二十五岁生日了，要温馨一点的。',
  '这个周末天气怎么样？我们打算去爬山，如果下雨就改去看电影。',
  '有人在这里卖冰毒吗？'
]

export async function run (): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lingxi-bench-governance-'))
  process.env.LINGXI_PORT = '0'
  const lx = await startLingxi({ env: { ...process.env, LINGXI_DATA_DIR: dataDir, LINGXI_QUIET: '1' } })
  try {
    let seed = 11
    const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648 }
    const word = (): string => Array.from({ length: 3 + Math.floor(rnd() * 3) }, () => SYLLABLES[Math.floor(rnd() * SYLLABLES.length)]).join('')
    await lx.rt.config.update({
      access: { userBlacklist: Array.from({ length: ENTRIES }, (_, i) => String(50_000_000 + i)), groupBlacklist: Array.from({ length: ENTRIES }, (_, i) => String(90_000_000 + i)) },
      quotas: { user: { messagesPerMinute: 1_000_000, messagesPerDay: 10_000_000, tokensPerMinute: 0, tokensPerDay: 1_000_000_000 }, group: { messagesPerDay: 10_000_000 } },
      moderation: { strictness: 'mask', keywords: Array.from({ length: ENTRIES }, word), regexes: ['/买.{0,3}枪/', '/加(?:微|V)信?[:：]?[a-z0-9]{6,20}/'] }
    })
    const gov = lx.rt.need('governance')
    const times: number[] = []
    let refused = 0
    for (let i = 0; i < ROUNDS + 500; i++) {
      const who = { userId: String(10_000_000 + (i % 3000)), groupId: String(20_000_000 + (i % 200)), isMaster: false, isGroupAdmin: false }
      const text = MESSAGES[i % MESSAGES.length] as string
      const t0 = performance.now()
      const a = await gov.admit(who)
      if (a.ok) {
        await gov.moderate(who, text, 'input')
        await gov.moderate(who, text, 'output')
      } else refused++
      const ms = performance.now() - t0
      if (i >= 500) times.push(ms) // the first rounds warm the code up
    }
    if (refused) throw new Error(`${refused} messages were refused: the bench would measure less than the checks`)
    const p50 = percentile(times, 50)
    return [
      { name: `governance checks per message (access + quota + input and output moderation, ${ENTRIES} ids and words) p50`, figure: Number(p50.toFixed(4)), unit: 'ms', target: `< ${TARGET_MS} ms`, pass: p50 < TARGET_MS },
      { name: 'governance checks per message p99', figure: Number(percentile(times, 99).toFixed(4)), unit: 'ms', target: 'report', pass: true }
    ]
  } finally {
    await lx.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
