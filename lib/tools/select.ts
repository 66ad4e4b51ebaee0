// Which of the offered tools go to the model in one request: at most `tools.maxToolsPerRequest`
// (a channel refuses more than 128 functions; long lists also cost tokens and confuse models).
// Chosen as: the always-on ones (config `tools.alwaysOnTools`, the tools the preset pins), then the
// tools most relevant to the user's message, then to the last few turns (the shared BM25 index over
// tool names and descriptions, lib/search), then the rest in registry order until the cap.
import { Bm25Index } from '../search/bm25.js'
import type { RegisteredTool } from './types.js'

export const DEFAULT_MAX_TOOLS_PER_REQUEST = 64

/** The text a tool is found by: its name split into words, its description and category. */
const docText = (t: RegisteredTool): string => `${t.name.replace(/[_:.\-]+/g, ' ')} ${t.name} ${t.description} ${t.category}`

export interface SelectQuery {
  /** The user's message of this turn (weighs most). */
  input: string
  /** Text of the last few turns before it. */
  recent?: string | undefined
  /** Tool names always sent while offered (config list and the preset's pins), in order. */
  pinned: readonly string[]
  max: number
}

export class ToolSelector {
  private index: Bm25Index<string> | undefined

  /** The registry's tools changed: the index is rebuilt on the next selection. */
  invalidate (): void { this.index = undefined }

  private indexOf (all: () => RegisteredTool[]): Bm25Index<string> {
    if (this.index) return this.index
    const index = new Bm25Index<string>()
    for (const t of all()) index.add(t.name, docText(t))
    this.index = index
    return index
  }

  /**
   * The offered tools to send, in the order chosen. `all` lists every registered tool (the index covers
   * them all, so switching a tool on or off needs no rebuild). Offered lists within the cap are kept whole.
   */
  select (offered: RegisteredTool[], all: () => RegisteredTool[], q: SelectQuery): RegisteredTool[] {
    const max = Math.max(0, Math.floor(q.max))
    if (offered.length <= max) return offered
    const byName = new Map<string, RegisteredTool>()
    for (const t of offered) byName.set(t.name, t)
    const chosen = new Map<string, RegisteredTool>()
    const take = (name: string): boolean => {
      const t = byName.get(name)
      if (t && !chosen.has(name)) chosen.set(name, t)
      return chosen.size >= max
    }
    for (const name of q.pinned) if (take(name)) return [...chosen.values()]
    const index = this.indexOf(all)
    const wanted = (name: string): boolean => byName.has(name) && !chosen.has(name)
    for (const text of [q.input, q.recent ?? '']) {
      if (!text.trim()) continue
      for (const hit of index.search(text, { limit: max - chosen.size, filter: wanted })) {
        if (take(hit.id)) return [...chosen.values()]
      }
    }
    for (const t of offered) if (take(t.name)) break
    return [...chosen.values()]
  }
}

