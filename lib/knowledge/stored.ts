// A document as the service holds it (lib/knowledge/README.md): its content packed where that saves
// memory (packed-text.ts), with the helpers that read it.
import { pack, unpack, type StoredText } from './packed-text.js'
import type { KnowledgeDoc } from './types.js'

export type StoredDoc = Omit<KnowledgeDoc, 'content'> & { content: StoredText }

export const stored = (d: KnowledgeDoc): StoredDoc => ({ ...d, content: pack(d.content) })
export const plain = (d: StoredDoc): KnowledgeDoc => ({ ...d, content: unpack(d.content) })
/** A record written before files were taken has no status: it is ready. */
export const statusOf = (d: Pick<StoredDoc, 'status'>): NonNullable<KnowledgeDoc['status']> => d.status ?? 'ready'

/** A document's place in the list: its creation time (an unparsable one sorts oldest). */
export function rankOf (d: Pick<StoredDoc, 'createdAt'>): number {
  const t = Date.parse(d.createdAt)
  return Number.isNaN(t) ? -Infinity : t
}

/** The first n UTF-16 units, never splitting a surrogate pair. */
export function head (s: string, n: number): string {
  if (s.length <= n) return s
  const code = s.charCodeAt(n - 1)
  return s.slice(0, code >= 0xd800 && code <= 0xdbff ? n - 1 : n)
}
