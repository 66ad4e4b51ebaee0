// Growth bench: 50,000 knowledge documents of ~2,000 characters (knowledge.json seeded the way the
// store writes it). Restart to a first answered knowledge contributor within 1 s of listening;
// event-loop stalls while the index builds (proxy for status p99 < 20 ms); a lone CJK character query;
// search p50; RSS against the data on disk.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { KnowledgeDoc } from '../lib/knowledge/types.js'
import { startServerProcess } from './server-child.js'
import { fileMb, makeRng, restartAndAsk, round, timedAsync, turn, writeSnapshot } from './growth-shared.js'
import { percentile, type BenchRow } from './types.js'

const COUNT = Number(process.env.LINGXI_BENCH_DOCS ?? 50_000)
const HAN = '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严龙飞'
const SYL = ['ka', 'lo', 'mi', 'ren', 'sta', 'vor', 'qui', 'zen', 'tal', 'bri', 'dus', 'fen', 'gor', 'hal', 'jin', 'kep', 'lum', 'mor', 'nex', 'pra', 'rus', 'sel', 'tor', 'ulm', 'vex', 'wen', 'yar', 'zol']

export async function run (): Promise<BenchRow[]> {
  const rnd = makeRng(11)
  const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)]!
  const zipf = <T>(a: readonly T[]): T => a[Math.min(a.length - 1, Math.floor(Math.exp(rnd() * Math.log(a.length + 1))) - 1)]!
  const han = [...HAN]
  const hanWords = Array.from({ length: 4000 }, () => Array.from({ length: 2 + Math.floor(rnd() * 2) }, () => pick(han)).join(''))
  const enWords = Array.from({ length: 4000 }, () => Array.from({ length: 2 + Math.floor(rnd() * 2) }, () => pick(SYL)).join(''))
  const topicZh = Array.from({ length: 2000 }, (_, i) => `${pick(han)}${pick(han)}${pick(han)}${i.toString(36)}`)
  const topicEn = Array.from({ length: 2000 }, (_, i) => `topic${i.toString(36)}${pick(SYL)}`)
  const dataDir = mkdtempSync(join(tmpdir(), 'lingxi-bench-kbgrowth-'))
  const file = join(dataDir, 'knowledge.json')
  const at = new Date().toISOString()
  writeSnapshot<KnowledgeDoc>(file, {}, COUNT, (d) => {
    const topics = [pick(topicZh), pick(topicZh), pick(topicEn), pick(topicEn)]
    const parts: string[] = []
    let len = 0
    while (len < 2000) {
      const w = rnd() < 0.06 ? pick(topics) : rnd() < 0.55 ? zipf(hanWords) : ` ${zipf(enWords)} `
      parts.push(w)
      len += w.length
    }
    return { id: `doc-${d}`, title: `${topics[0]} ${topics[2]} 文档${d}`, content: parts.join(''), presetId: d % 2 ? `p${d % 10}` : '', createdAt: at, updatedAt: at }
  })
  const diskMb = fileMb(file)
  const { lx, listenMs, firstMs, buildMs, stall } = await restartAndAsk(dataDir, 'knowledge', turn(`${hanWords[3]}${hanWords[5]} ${enWords[2]}`, 'u1', 'p1'), (l) => l.rt.need('knowledge').ready())
  let stopped = false
  try {
    const kb = lx.rt.need('knowledge')

    const lone: number[] = []
    const mixed: number[] = []
    for (let i = 0; i < 100; i++) {
      lone.push((await timedAsync(() => kb.search(han[(i * 7) % 60]!, { limit: 10 })))[1])
      mixed.push((await timedAsync(() => kb.search(`${zipf(hanWords)}${zipf(hanWords)} ${zipf(enWords)}`, { limit: 10 })))[1])
    }
    // RSS as the host process holds it (as in memory-growth.bench.ts): the plugin loaded the way a host
    // loads it on the same data, once its index is complete, after a full GC
    await lx.stop()
    stopped = true
    const child = await startServerProcess('plugin', { nodeArgs: ['--expose-gc'], dataDir, ready: ['knowledge'] })
    await child.stop()
    const rss = child.rssMb ?? NaN
    const p = (a: number[]): number => round(percentile(a, 50))
    const k = `${COUNT / 1000}k`
    return [
      { name: `knowledge-growth: ${k} documents on disk`, figure: round(diskMb), unit: 'MB', target: '(report)', pass: true },
      { name: `knowledge-growth: restart until listening (${k})`, figure: round(listenMs), unit: 'ms', target: '(report)', pass: true },
      { name: 'knowledge-growth: first chat contributor answered after listening', figure: round(firstMs), unit: 'ms', target: '< 1000', pass: firstMs < 1000 },
      { name: 'knowledge-growth: search index complete after listening', figure: round(buildMs), unit: 'ms', target: '(report)', pass: true },
      { name: 'knowledge-growth: event-loop delay p99 while the index builds (status p99 proxy)', figure: round(stall.p99), unit: 'ms', target: '< 20', pass: stall.p99 < 20 },
      { name: 'knowledge-growth: longest event-loop stall while the index builds', figure: round(stall.max), unit: 'ms', target: '(report: GC, other work)', pass: true },
      { name: 'knowledge-growth: lone CJK character search p50', figure: p(lone), unit: 'ms', target: '< 10', pass: p(lone) < 10 },
      { name: 'knowledge-growth: mixed search p50', figure: p(mixed), unit: 'ms', target: '< 10', pass: p(mixed) < 10 },
      { name: 'knowledge-growth: RSS / data on disk', figure: round(rss / diskMb), unit: 'x', target: '< 3', pass: rss / diskMb < 3 },
      { name: 'knowledge-growth: RSS', figure: round(rss), unit: 'MB', target: '(report)', pass: true }
    ]
  } finally {
    if (!stopped) await lx.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
