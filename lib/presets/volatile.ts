// Placeholders that make a system prompt change from one turn to the next (README "What it costs",
// prompt caching): a provider's cache serves only an unchanged start, and the system prompt is that start.
// The preset editor names them next to the prompt (POST /api/preset/prompt-preview).

/** Change with every message (time, random values), and the speaker where several people share a conversation. */
const EVERY_TURN: readonly string[] = ['time', 'timestamp', 'isoTime', 'uuid', 'random']
const DAILY: readonly string[] = ['date']
const SPEAKER: readonly string[] = ['nickname', 'userName', 'userId']

export interface CacheBreaker {
  placeholder: string
  /** turn: changes with every message; day: once a day; speaker: with each speaker of a group's shared conversation */
  changes: 'turn' | 'day' | 'speaker'
}

const USED = /\{\{\s*([A-Za-z_][\w.]*)\s*\}\}/g

/** The placeholders of `template` that change the prompt between turns, each once, in order of use. */
export function cacheBreakers (template: string): CacheBreaker[] {
  const out: CacheBreaker[] = []
  const seen = new Set<string>()
  for (const m of template.matchAll(USED)) {
    const name = m[1] ?? ''
    if (seen.has(name)) continue
    const changes = EVERY_TURN.includes(name) ? 'turn' : DAILY.includes(name) ? 'day' : SPEAKER.includes(name) ? 'speaker' : undefined
    if (!changes) continue
    seen.add(name)
    out.push({ placeholder: name, changes })
  }
  return out
}
