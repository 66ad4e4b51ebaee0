// Knowledge base of 10,000 documents (~2,000 characters each, mixed Chinese and English, Zipf-like word
// frequencies plus a few topic words per document): search p50 < 10 ms; recall@5 on 20 labelled
// queries (each names two topic words of its target document, one of them in the other language's
// spelling-free form: the target must be among the first five results).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { systemClock } from '../lib/core/clock.js'
import { PluginLogger } from '../lib/core/logger.js'
import { EventBus } from '../lib/core/event-bus.js'
import { KnowledgeService } from '../lib/knowledge/service.js'
import { percentile, type BenchRow } from './types.js'

const HAN = '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严龙飞'
const SYL = ['ka', 'lo', 'mi', 'ren', 'sta', 'vor', 'qui', 'zen', 'tal', 'bri', 'dus', 'fen', 'gor', 'hal', 'jin', 'kep', 'lum', 'mor', 'nex', 'pra', 'rus', 'sel', 'tor', 'ulm', 'vex', 'wen', 'yar', 'zol']

function makeRng (seed: number): () => number {
  let s = seed
  return () => (s = (s * 16807) % 2147483647) / 2147483647
}

export async function run (): Promise<BenchRow[]> {
  const rnd = makeRng(11)
  const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)]!
  const zipf = <T>(a: readonly T[]): T => a[Math.min(a.length - 1, Math.floor(Math.exp(rnd() * Math.log(a.length + 1))) - 1)]!
  const hanWords = Array.from({ length: 4000 }, () => Array.from({ length: 2 + Math.floor(rnd() * 2) }, () => pick([...HAN])).join(''))
  const enWords = Array.from({ length: 4000 }, () => Array.from({ length: 2 + Math.floor(rnd() * 2) }, () => pick(SYL)).join(''))
  const topicZh = Array.from({ length: 2000 }, (_, i) => `${pick([...HAN])}${pick([...HAN])}${pick([...HAN])}${i.toString(36)}`)
  const topicEn = Array.from({ length: 2000 }, (_, i) => `topic${i.toString(36)}${pick(SYL)}`)

  const docs: Array<{ title: string; content: string; topics: string[] }> = []
  for (let d = 0; d < 10_000; d++) {
    const topics = [pick(topicZh), pick(topicZh), pick(topicEn), pick(topicEn)]
    const parts: string[] = []
    let len = 0
    while (len < 2000) {
      const w = rnd() < 0.06 ? pick(topics) : rnd() < 0.55 ? zipf(hanWords) : ` ${zipf(enWords)} `
      parts.push(w)
      len += w.length
    }
    docs.push({ title: `${topics[0]} ${topics[2]} 文档${d}`, content: parts.join(''), topics })
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'lingxi-bench-kb-'))
  const noop = (): void => {}
  const log = new PluginLogger({ host: () => ({ trace: noop, debug: noop, info: noop, warn: noop, error: noop, fatal: noop, mark: noop }), bus: new EventBus() })
  const kb = await KnowledgeService.open(join(dataDir, 'knowledge.json'), { clock: systemClock, log })
  try {
    const ids: string[] = []
    const t0 = performance.now()
    for (const d of docs) ids.push((await kb.create({ title: d.title, content: d.content })).id)
    const addMs = performance.now() - t0
    await kb.close()
    const t1 = performance.now()
    const reopened = await KnowledgeService.open(join(dataDir, 'knowledge.json'), { clock: systemClock, log })
    const openMs = performance.now() - t1
    await reopened.ready()
    const indexMs = performance.now() - t1

    const searches: number[] = []
    for (let i = 0; i < 300; i++) {
      const q = i % 3 === 0 ? `${zipf(hanWords)}${zipf(hanWords)} ${zipf(enWords)}` : i % 3 === 1 ? `${pick(topicZh)} ${zipf(hanWords)}` : `${pick(topicEn)} ${zipf(enWords)} ${zipf(hanWords)}`
      const a = performance.now()
      await reopened.search(q, { limit: 10 })
      searches.push(performance.now() - a)
    }
    // labelled queries: two topic words of a document (one Chinese, one English)
    let found = 0
    const LABELLED = 20
    for (let i = 0; i < LABELLED; i++) {
      const target = Math.floor(rnd() * docs.length)
      const d = docs[target]!
      const hits = await reopened.search(`${d.topics[1]} ${d.topics[3]}`, { limit: 5 })
      if (hits.some((h) => h.id === ids[target])) found++
    }
    await reopened.close()
    const r = (n: number): number => Math.round(n * 100) / 100
    const p50 = percentile(searches, 50)
    const recall = found / LABELLED
    return [
      { name: 'knowledge: add 10k documents of ~2,000 chars (each acked)', figure: r(addMs), unit: 'ms', target: '(report)', pass: true },
      { name: 'knowledge: reopen 10k documents (until listening)', figure: r(openMs), unit: 'ms', target: '(report)', pass: true },
      { name: 'knowledge: search index of 10k ready after open', figure: r(indexMs), unit: 'ms', target: '(report)', pass: true },
      { name: 'knowledge: search p50 over 10k documents', figure: r(p50), unit: 'ms', target: '< 10', pass: p50 < 10 },
      { name: 'knowledge: search p99', figure: r(percentile(searches, 99)), unit: 'ms', target: '(report)', pass: true },
      { name: 'knowledge: recall@5 on 20 labelled queries', figure: recall, unit: '', target: '>= 0.9', pass: recall >= 0.9 }
    ]
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}
