// Scratch measurement (not a bench: `npm run bench` skips it; run `npx tsx bench/segmenter-compare.ts`):
// does a Chinese word segmenter (@node-rs/jieba, not a dependency) beat the CJK bigrams of
// lib/search/tokenize.ts? Quality: plain passage BM25 (no document context) on the labelled set of
// tests/fixtures/knowledge-set (recall@5 on word-sharing questions, MRR@5 on words and paraphrases),
// passages cut as the knowledge base cuts them. Speed: the growth bench's generator (10k documents of
// ~2,000 characters, 500-character passages): index build and mixed search p50. Jieba's words are fed
// to the same index as opaque Latin tokens (one token each), so only the segmentation differs.
// Jieba is loaded from LINGXI_JIEBA_DIR (a folder where `npm install @node-rs/jieba@2.0.3` was run).
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chunkText } from '../lib/knowledge/chunk.js'
import { Bm25Index } from '../lib/search/bm25.js'
import { makeRng, round } from './growth-shared.js'
import { percentile } from './types.js'

interface Jieba { cut (text: string, hmm?: boolean): string[]; cutForSearch (text: string, hmm?: boolean): string[] }
interface JiebaModule { Jieba: { withDict (dict: Uint8Array): Jieba } }

const dir = process.env.LINGXI_JIEBA_DIR ?? '/tmp/jieba'
const req = createRequire(join(dir, 'package.json'))
const rss0 = process.memoryUsage().rss
const { Jieba } = req('@node-rs/jieba') as JiebaModule
const { dict } = req('@node-rs/jieba/dict') as { dict: Uint8Array }
const t0 = performance.now()
const jieba = Jieba.withDict(dict)
const loadMs = performance.now() - t0
const dictMb = (process.memoryUsage().rss - rss0) / 1048576

/** A text rewritten so that lib/search's tokenizer sees each segmenter word as one token. */
type Rewrite = (text: string) => string
const ids = new Map<string, string>()
const word = (w: string): string => {
  let id = ids.get(w)
  if (id === undefined) ids.set(w, (id = `w${ids.size.toString(36)}x`))
  return id
}
const HAS_CJK = /[\p{Script=Han}]/u
const viaJieba = (search: boolean): Rewrite => (text) => {
  const words = search ? jieba.cutForSearch(text, true) : jieba.cut(text, true)
  const out: string[] = []
  for (const w of words) if (HAS_CJK.test(w)) out.push(word(w)); else out.push(w)
  return out.join(' ')
}
const MODES: Array<[string, Rewrite | undefined]> = [['bigrams', undefined], ['jieba cut', viaJieba(false)], ['jieba cutForSearch', viaJieba(true)]]

const SET = fileURLToPath(new URL('../tests/fixtures/knowledge-set/', import.meta.url))
interface Question { kind: 'words' | 'paraphrase' | 'absent'; query: string; docs: string[]; passage?: string }
interface SetDoc { id: string; title: string; content: string }

function quality (rewrite: Rewrite | undefined): { words: number; mrr: number } {
  const docs = JSON.parse(readFileSync(join(SET, 'docs.json'), 'utf8')) as SetDoc[]
  const questions = JSON.parse(readFileSync(join(SET, 'questions.json'), 'utf8')) as Question[]
  const index = new Bm25Index<number>()
  const passages: Array<{ doc: string; text: string }> = []
  for (const d of docs) {
    for (const c of chunkText(d.content, { size: 500, overlap: 50 })) {
      const text = d.content.slice(c.start, c.end)
      const indexed = c.heading ? `${d.title}\n${c.heading}\n${text}` : `${d.title}\n${text}`
      index.add(passages.length, rewrite ? rewrite(indexed) : indexed)
      passages.push({ doc: d.id, text })
    }
  }
  const rank = (q: Question): number => {
    const hits = index.search(rewrite ? rewrite(q.query) : q.query, { limit: 5 })
    return hits.findIndex((h) => { const p = passages[h.id]!; return q.docs.includes(p.doc) && (q.passage === undefined || p.text.includes(q.passage)) }) + 1
  }
  const words = questions.filter((q) => q.kind === 'words')
  const answered = questions.filter((q) => q.kind !== 'absent')
  return {
    words: words.filter((q) => rank(q) > 0).length / words.length,
    mrr: answered.reduce((s, q) => { const r = rank(q); return s + (r > 0 ? 1 / r : 0) }, 0) / answered.length
  }
}

const HAN = '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严龙飞'
const SYL = ['ka', 'lo', 'mi', 'ren', 'sta', 'vor', 'qui', 'zen', 'tal', 'bri', 'dus', 'fen', 'gor', 'hal', 'jin', 'kep', 'lum', 'mor', 'nex', 'pra', 'rus', 'sel', 'tor', 'ulm', 'vex', 'wen', 'yar', 'zol']

/** The growth bench's documents (same generator and seed), fewer of them. */
function growthCorpus (count: number): { texts: string[]; queries: string[] } {
  const rnd = makeRng(11)
  const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)]!
  const zipf = <T>(a: readonly T[]): T => a[Math.min(a.length - 1, Math.floor(Math.exp(rnd() * Math.log(a.length + 1))) - 1)]!
  const han = [...HAN]
  const hanWords = Array.from({ length: 4000 }, () => Array.from({ length: 2 + Math.floor(rnd() * 2) }, () => pick(han)).join(''))
  const enWords = Array.from({ length: 4000 }, () => Array.from({ length: 2 + Math.floor(rnd() * 2) }, () => pick(SYL)).join(''))
  const topicZh = Array.from({ length: 2000 }, (_, i) => `${pick(han)}${pick(han)}${pick(han)}${i.toString(36)}`)
  const topicEn = Array.from({ length: 2000 }, (_, i) => `topic${i.toString(36)}${pick(SYL)}`)
  const texts: string[] = []
  for (let d = 0; d < count; d++) {
    const topics = [pick(topicZh), pick(topicZh), pick(topicEn), pick(topicEn)]
    const parts: string[] = []
    let len = 0
    while (len < 2000) { const w = rnd() < 0.06 ? pick(topics) : rnd() < 0.55 ? zipf(hanWords) : ` ${zipf(enWords)} `; parts.push(w); len += w.length }
    const content = parts.join('')
    for (const c of chunkText(content, { size: 500, overlap: 50 })) texts.push(`${topics[0]} ${topics[2]} 文档${d}\n${content.slice(c.start, c.end)}`)
  }
  const queries = Array.from({ length: 100 }, () => `${zipf(hanWords)}${zipf(hanWords)} ${zipf(enWords)}`)
  return { texts, queries }
}

function speed (rewrite: Rewrite | undefined, corpus: { texts: string[]; queries: string[] }): { buildS: number; segmentS: number; p50: number } {
  const index = new Bm25Index<number>()
  let segment = 0
  const t0 = performance.now()
  corpus.texts.forEach((text, i) => {
    const a = performance.now()
    const t = rewrite ? rewrite(text) : text
    segment += performance.now() - a
    index.add(i, t)
  })
  const buildS = (performance.now() - t0) / 1000
  const times = corpus.queries.map((q) => { const a = performance.now(); index.search(rewrite ? rewrite(q) : q, { limit: 10 }); return performance.now() - a })
  return { buildS, segmentS: rewrite ? segment / 1000 : 0, p50: percentile(times, 50) }
}

console.log(`jieba dictionary: loaded in ${round(loadMs)} ms, RSS +${round(dictMb)} MB`)
const corpus = growthCorpus(Number(process.env.LINGXI_BENCH_DOCS ?? 10_000))
console.log(`growth corpus: ${corpus.texts.length} passages`)
for (const [name, rewrite] of MODES) {
  const q = quality(rewrite)
  const s = speed(rewrite, corpus)
  console.log(`${name}: recall@5 words ${round(q.words)}, MRR@5 ${q.mrr.toFixed(3)}; build ${round(s.buildS)} s (segmenting ${round(s.segmentS)} s), mixed search p50 ${round(s.p50)} ms`)
}
