// How much of the previous request of a conversation the next one starts with (the why record's
// `prefix`; README "What it costs"). A provider's prompt cache serves the longest unchanged start of
// a request, so this is what caching can save. Measured on the request the plugin builds, as a provider
// reads it: the tools first, then each message in order. Each conversation keeps the hashes and lengths
// of its last request's parts (not their text) and the text of its last part, where a new request
// usually departs (the newest message's tail).
import { createHash } from 'node:crypto'
import type { ChatMessage, ToolDefinition } from './contracts.js'

/** Conversations remembered; the least recently asked is forgotten first. */
const MAX_CONVERSATIONS = 5000

interface Shape { hashes: string[]; lengths: number[]; last: string; total: number }

export interface PrefixReuse {
  /** characters of the previous request this one starts with */
  reusedChars: number
  /** characters of the previous request (0: none known) */
  previousChars: number
}

/** The parts of a request as a provider's cache reads them. */
function partsOf (messages: readonly ChatMessage[], tools?: readonly ToolDefinition[]): string[] {
  const parts = [tools?.length ? JSON.stringify(tools) : '']
  for (const m of messages) {
    parts.push(JSON.stringify([m.role, m.content, m.toolCalls?.map((c) => [c.id, c.name, c.arguments]) ?? null, m.toolCallId ?? null, m.images ?? null]))
  }
  return parts
}

const hash = (s: string): string => createHash('sha1').update(s).digest('base64')

function commonStart (a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  let i = 0
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++
  return i
}

export class PrefixMemory {
  private readonly shapes = new Map<string, Shape>()

  /** Notes this request of the conversation and answers how much of the previous one it starts with. */
  observe (conversationId: string, messages: readonly ChatMessage[], tools?: readonly ToolDefinition[]): PrefixReuse {
    const parts = partsOf(messages, tools)
    const shape: Shape = { hashes: parts.map(hash), lengths: parts.map((p) => p.length), last: parts[parts.length - 1] ?? '', total: parts.reduce((a, p) => a + p.length, 0) }
    const prev = this.shapes.get(conversationId)
    this.shapes.delete(conversationId)
    this.shapes.set(conversationId, shape)
    if (this.shapes.size > MAX_CONVERSATIONS) {
      const oldest = this.shapes.keys().next().value
      if (oldest !== undefined) this.shapes.delete(oldest)
    }
    if (!prev) return { reusedChars: 0, previousChars: 0 }
    let reused = 0
    let i = 0
    while (i < prev.hashes.length && i < shape.hashes.length && prev.hashes[i] === shape.hashes[i]) reused += prev.lengths[i++] ?? 0
    // departing in the previous request's last part (its newest message): count the characters kept
    if (i === prev.hashes.length - 1 && i < parts.length) reused += commonStart(prev.last, parts[i] ?? '')
    return { reusedChars: reused, previousChars: prev.total }
  }

  forget (conversationId?: string): void {
    if (conversationId === undefined) this.shapes.clear()
    else this.shapes.delete(conversationId)
  }
}
