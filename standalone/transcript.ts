// Records every message the bot sends, so tests and the console can see what a plugin answered.
import { renderText, toSegments } from './segments.js'
import type { Id, Sendable, TranscriptEntry } from './types.js'

type Listener = (entry: TranscriptEntry) => void
interface Waiter { match: (e: TranscriptEntry) => boolean; resolve: (e: TranscriptEntry) => void }

export class Transcript {
  readonly entries: TranscriptEntry[] = []
  /** message ids recalled by the bot (its own replies and, on TRSS, the user's trigger) */
  readonly recalls: string[] = []
  /** when set, every send throws this error (to test the reply wrapper's error path) */
  failWith: Error | undefined
  private seq = 0
  private listeners: Listener[] = []
  private waiters: Waiter[] = []

  nextMessageId(): string {
    return `m${++this.seq}`
  }

  record(target: 'private' | 'group', targetId: Id, botId: Id, msg: Sendable, quote?: Id): TranscriptEntry {
    if (this.failWith) throw this.failWith
    let message = toSegments(msg)
    let quoted = quote
    const head = message[0]
    if (head?.type === 'reply') { // TRSS quotes by prepending a reply segment
      quoted = head.id as Id
      message = message.slice(1)
    }
    const entry: TranscriptEntry = {
      target, targetId: String(targetId), botId: String(botId), message, text: renderText(message).trim(),
      message_id: this.nextMessageId(), time: Date.now(), ...(quoted !== undefined ? { quote: quoted } : {})
    }
    this.entries.push(entry)
    for (const l of this.listeners) l(entry)
    this.waiters = this.waiters.filter((w) => {
      if (!w.match(entry)) return true
      w.resolve(entry)
      return false
    })
    return entry
  }

  recall(id: Id): boolean {
    this.recalls.push(String(id))
    const entry = this.entries.find((e) => e.message_id === String(id))
    if (entry) entry.recalled = true
    return true
  }

  onEntry(listener: Listener): () => void {
    this.listeners.push(listener)
    return () => { this.listeners = this.listeners.filter((l) => l !== listener) }
  }

  /** Resolves with the first entry (already recorded after `since`, or future) that matches. */
  waitFor(match: (e: TranscriptEntry) => boolean, since = 0): Promise<TranscriptEntry> {
    const found = this.entries.slice(since).find(match)
    if (found) return Promise.resolve(found)
    return new Promise((resolve) => this.waiters.push({ match, resolve }))
  }

  clear(): void {
    this.entries.length = 0
    this.recalls.length = 0
  }
}
