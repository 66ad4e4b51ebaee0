// Which of the offered tools go to the model in one request: at most `tools.maxToolsPerRequest`
// (a channel refuses more than 128 functions; long lists also cost tokens and confuse models).
// Chosen as: the always-on ones (config `tools.alwaysOnTools`, the tools the preset pins), the tools
// the message names (registry name, model-facing alias or an MCP tool's own name), then the tools
// most relevant to the user's message, then to the last few turns, then the rest in registry order
// until the cap. Relevance is the shared BM25 index (lib/search) over tool names, descriptions and
// categories, with the query and the tools' texts expanded by a bilingual concept lexicon
// (select-lexicon.ts), so '帮我算一下 20 加 22' finds an `add` tool described in English.
// What the cap left out is logged once per turn.
import { Bm25Index } from '../search/bm25.js'
import { AliasMap } from './alias.js'
import { categoryHint, docConcepts, queryConcepts, textWords } from './select-lexicon.js'
import type { RegisteredTool } from './types.js'

export const DEFAULT_MAX_TOOLS_PER_REQUEST = 64
/** Names of left-out tools a log line lists (the rest are counted). */
const LOGGED_NAMES = 20

/** The text a tool is found by: its name split into words, its description and category, their concepts. */
function docText (t: RegisteredTool): string {
  const text = `${t.name.replace(/[_:.\-]+/g, ' ')} ${t.name} ${t.description} ${t.category} ${categoryHint(t.category)}`
  return `${text} ${docConcepts(text)}`
}

/** A tool name as written in a message: `read_file`, `mcp:srv:read_file`, `get-weather`. */
const NAME_RUNS = /[A-Za-z0-9_][\w:.\-]*/g
/** Query texts seen lately (a turn is selected for again for each call it makes). */
const QUERIES_KEPT = 64

/** What a query text gives, worked out once per text. */
interface Query {
  /** the text with the concept terms of its words added */
  search: string
  /** the tools it names, in order */
  named: string[]
}

export interface SelectQuery {
  /** The user's message of this turn (weighs most). */
  input: string
  /** Text of the last few turns before it. */
  recent?: string | undefined
  /** Tool names always sent while offered (config list and the preset's pins), in order. */
  pinned: readonly string[]
  max: number
  /**
   * Tool names ranked by meaning for this turn, best first, taken before the BM25 ranking: the seam
   * for the knowledge layer's embeddings when an embedding endpoint is set (computed by the caller,
   * which may wait; selection itself stays synchronous). Not built yet.
   */
  ranked?: readonly string[] | undefined
  /** The turn this selection is for: what the cap left out is logged once per turn. */
  turn?: object | undefined
}

export interface SelectOptions {
  log?: { info (msg: string, meta?: Record<string, unknown>): void } | undefined
}

interface Index {
  bm25: Bm25Index<string>
  /** lowercased registry name, alias or MCP tool name → registry names */
  names: Map<string, string[]>
  /** the English words of the tools' texts and the lexicon's Chinese words in them */
  words: Set<string>
}

export class ToolSelector {
  private index: Index | undefined
  private readonly logged = new WeakSet<object>()
  private readonly queries = new Map<string, Query>()

  constructor (private readonly opts: SelectOptions = {}) {}

  /** The registry's tools changed: the index is rebuilt on the next selection. */
  invalidate (): void { this.index = undefined; this.queries.clear() }

  private indexOf (all: () => RegisteredTool[]): Index {
    if (this.index) return this.index
    const bm25 = new Bm25Index<string>()
    const names = new Map<string, string[]>()
    const tools = all()
    const aliases = new AliasMap()
    aliases.rebuild(tools.map((t) => t.name))
    const key = (k: string, name: string): void => {
      const list = names.get(k.toLowerCase())
      if (!list) names.set(k.toLowerCase(), [name])
      else if (!list.includes(name)) list.push(name)
    }
    const words = new Set<string>()
    for (const t of tools) {
      const text = docText(t)
      bm25.add(t.name, text)
      textWords(text, (w) => words.add(w))
      key(t.name, t.name)
      key(aliases.alias(t.name), t.name)
      const own = /^mcp:[^:]+:(.+)$/.exec(t.name)?.[1]
      if (own) key(own, t.name)
    }
    this.index = { bm25, names, words }
    return this.index
  }

  /**
   * The offered tools to send, in the order chosen. `all` lists every registered tool (the index covers
   * them all, so switching a tool on or off needs no rebuild). Offered lists within the cap are kept whole.
   */
  select (offered: RegisteredTool[], all: () => RegisteredTool[], q: SelectQuery): RegisteredTool[] {
    const max = Math.max(0, Math.floor(q.max))
    if (offered.length <= max) return offered
    const chosen = this.choose(offered, all, q, max)
    if (this.opts.log && q.turn && !this.logged.has(q.turn)) {
      this.logged.add(q.turn)
      this.logLeftOut(offered, chosen, max)
    }
    return [...chosen.values()]
  }

  private choose (offered: RegisteredTool[], all: () => RegisteredTool[], q: SelectQuery, max: number): Map<string, RegisteredTool> {
    const byName = new Map<string, RegisteredTool>()
    for (const t of offered) byName.set(t.name, t)
    const chosen = new Map<string, RegisteredTool>()
    const take = (name: string): boolean => {
      const t = byName.get(name)
      if (t && !chosen.has(name)) chosen.set(name, t)
      return chosen.size >= max
    }
    for (const name of q.pinned) if (take(name)) return chosen
    const index = this.indexOf(all)
    for (const name of this.query(index, q.input).named) if (take(name)) return chosen
    for (const name of q.ranked ?? []) if (take(name)) return chosen
    const wanted = (name: string): boolean => byName.has(name) && !chosen.has(name)
    for (const text of [q.input, q.recent ?? '']) {
      if (!text.trim()) continue
      for (const hit of index.bm25.search(this.query(index, text).search, { limit: max - chosen.size, filter: wanted })) {
        if (take(hit.id)) return chosen
      }
    }
    for (const t of offered) if (take(t.name)) break
    return chosen
  }

  private query (index: Index, text: string): Query {
    let q = this.queries.get(text)
    if (q) return q
    const concepts = queryConcepts(text, (w) => index.words.has(w))
    const named: string[] = []
    for (const m of text.matchAll(NAME_RUNS)) {
      const run = m[0].toLowerCase()
      // "call read_file." names read_file
      const hit = index.names.get(run) ?? index.names.get(run.replace(/[.:\-]+$/, ''))
      if (hit) named.push(...hit)
    }
    q = { search: concepts ? `${text} ${concepts}` : text, named }
    if (this.queries.size >= QUERIES_KEPT) this.queries.clear()
    this.queries.set(text, q)
    return q
  }

  private logLeftOut (offered: RegisteredTool[], chosen: Map<string, RegisteredTool>, max: number): void {
    const left: string[] = []
    for (const t of offered) if (!chosen.has(t.name)) left.push(t.name)
    const names = left.slice(0, LOGGED_NAMES)
    if (left.length > LOGGED_NAMES) names.push(`… ${left.length - LOGGED_NAMES} more`)
    this.opts.log?.info(`Tools: ${chosen.size} of ${offered.length} offered sent (tools.maxToolsPerRequest ${max}), ${left.length} left out`, {
      offered: offered.length, sent: chosen.size, leftOut: left.length, leftOutNames: names
    })
  }
}
