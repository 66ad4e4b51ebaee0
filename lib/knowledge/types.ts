// Knowledge documents.
export interface KnowledgeDoc {
  id: string
  title: string
  content: string
  /** '' = not bound to a preset */
  presetId: string
  createdAt: string
  updatedAt: string
}

/** List view: the first 500 characters of the content. */
export type KnowledgeListItem = KnowledgeDoc & { contentLength: number; truncated: boolean }

export interface KnowledgeHit {
  id: string
  title: string
  presetId: string
  score: number
  /** a window of the content around the matches */
  snippet: string
  /** the same window, HTML-escaped, matches in <mark> */
  highlighted: string
  contentLength: number
  createdAt: string
}

export const LIST_CHARS = 500
export const LIMITS = { title: 200, content: 200_000, presetId: 100 }
