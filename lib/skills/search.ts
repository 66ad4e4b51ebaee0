// Search and recommendation over skills and tools (GET /api/skills/search, POST /recommend), on the
// project's shared search tokenizer (lib/search/tokenize.ts: words, CJK bigrams, stop words dropped).
import { tokenize } from '../search/tokenize.js'
import { triggerMatches } from './activation.js'
import type { SkillService } from './service.js'
import type { ToolAdmin } from './tool-admin.js'

export interface SearchQuery { q: string; limit: number; category?: string | undefined; source?: string | undefined }
export type SearchHit = Record<string, unknown> & { type: 'tool' | 'skill'; name: string; score: number }

export interface Recommendation { type: 'tool' | 'skill'; name: string; description: string; category: string; score: number; reason: string }

const termsOf = (text: string): Set<string> => new Set(tokenize(text))

function overlap (a: Set<string>, b: Set<string>): number {
  let n = 0
  for (const x of a) if (b.has(x)) n++
  return n
}

/**
 * Scores a name and its text against a query: the whole query as the exact name (10), inside the
 * name (5) or inside the text (2), plus one per query term found in the name or text. An empty query
 * scores 1 (everything is listed).
 */
function scorer (q: string): (name: string, text: string) => number {
  const needle = q.toLowerCase()
  const want = termsOf(q)
  return (name, text) => {
    if (!needle) return 1
    const lname = name.toLowerCase()
    const phrase = (lname === needle ? 10 : 0) + (lname.includes(needle) ? 5 : 0) + (text.toLowerCase().includes(needle) ? 2 : 0)
    return phrase + overlap(want, termsOf(`${name} ${text}`))
  }
}

/** Tools and skills matching a query, best first (ties by name); `category`/`source` narrow the set. */
export function searchSkillsAndTools (admin: ToolAdmin | undefined, skills: SkillService, query: SearchQuery): { query: string; count: number; results: SearchHit[] } {
  const { category, source } = query
  const score = scorer(query.q)
  const results: SearchHit[] = []
  for (const t of admin?.all() ?? []) {
    if ((category && t.category !== category) || (source && t.source !== source)) continue
    const s = score(t.name, t.description)
    if (s > 0 && admin) results.push({ type: 'tool', ...admin.view(t), score: s })
  }
  if ((!category || category === 'documents') && (!source || source === 'skill')) {
    for (const s of skills.list()) {
      const sc = score(s.name, `${s.description} ${s.triggers.join(' ')}`)
      if (sc > 0) results.push({ type: 'skill', ...skills.document(s), category: 'documents', source: 'skill', score: sc })
    }
  }
  results.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name))
  return { query: query.q, count: Math.min(query.limit, results.length), results: results.slice(0, query.limit) }
}

/**
 * Skills and enabled tools for a piece of conversation: a skill scores 5 per trigger it matches plus
 * one per shared term (name, description, capabilities); a tool one per shared term (name split at
 * `_`/`:`, description, category).
 */
export function recommend (admin: ToolAdmin | undefined, skills: SkillService, context: string, limit: number): { context: string; count: number; recommendations: Recommendation[] } {
  const want = termsOf(context)
  const recs: Recommendation[] = []
  for (const s of skills.list()) {
    const triggered = s.triggers.filter((t) => triggerMatches(t, context))
    const score = triggered.length * 5 + overlap(want, termsOf(`${s.name} ${s.description} ${s.capabilities.join(' ')}`))
    if (score > 0) recs.push({ type: 'skill', name: s.name, description: s.description, category: 'documents', score, reason: triggered.length ? `trigger: ${triggered.join(', ')}` : 'matching words' })
  }
  for (const t of admin?.all() ?? []) {
    if (!admin?.enabled(t.name)) continue
    const score = overlap(want, termsOf(`${t.name.replace(/[_:]/g, ' ')} ${t.description} ${t.category}`))
    if (score > 0) recs.push({ type: 'tool', name: t.name, description: t.description, category: t.category, score, reason: 'matching words' })
  }
  recs.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name))
  const recommendations = recs.slice(0, limit)
  return { context, count: recommendations.length, recommendations }
}
