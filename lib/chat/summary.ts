// Context summaries (context.cleaningStrategy or context.compressionStrategy `summarize`): once at
// least SUMMARY_BATCH messages have fallen out of a conversation's context, the model folds them
// (with the previous summary) into a new summary in the background, so the reply never waits for it
// and a chatty conversation costs one extra call per batch, not per turn. The summary is stored with
// the conversation and shown to the model in place of the messages it covers.
import { errorText } from '../core/errors.js'
import type { Runtime } from '../runtime.js'
import { stripReasoning } from './reasoning.js'
import type { ConversationStore, StoredMessage } from './store.js'

export const SUMMARY_BATCH = 8
const MAX_TRANSCRIPT_CHARS = 12_000
const MAX_SUMMARY_CHARS = 4_000

const PROMPT = [
  'You keep the memory of a chat between a user and an assistant.',
  'Write a concise summary of the conversation below, merged with the earlier summary if one is given:',
  'facts about the user, decisions, open questions and anything the assistant promised.',
  'Write in the language of the conversation, as plain sentences, at most about 200 words. No preamble.'
].join(' ')

function summarizingEnabled (cfg: { cleaningStrategy: string; compressionStrategy: string }): boolean {
  return cfg.cleaningStrategy === 'summarize' || cfg.compressionStrategy === 'summarize'
}

export class ContextSummarizer {
  private readonly running = new Map<string, Promise<void>>()

  constructor (private readonly rt: Runtime, private readonly store: ConversationStore) {}

  /** After a turn: starts a summary when enough messages fell out of the context. */
  afterTurn (conversationId: string, dropped: StoredMessage[]): void {
    if (!summarizingEnabled(this.rt.config.get().context) || dropped.length < SUMMARY_BATCH || this.running.has(conversationId)) return
    const run = this.summarize(conversationId, dropped)
      .catch((err: unknown) => { this.rt.log.warn('Could not summarize the earlier conversation', { conversationId, error: errorText(err) }) })
      .finally(() => { this.running.delete(conversationId) })
    this.running.set(conversationId, run)
  }

  /** Resolves when the summaries under way are done (tests, shutdown). */
  async idle (): Promise<void> { await Promise.all(this.running.values()) }

  private async summarize (conversationId: string, dropped: StoredMessage[]): Promise<void> {
    const models = this.rt.optional('models')
    const last = dropped.at(-1)
    if (!models || !last) return
    const previous = this.store.get(conversationId)?.summary
    let transcript = dropped.map((m) => `${m.role === 'user' ? 'User' : 'Assistant'}: ${m.content}`).join('\n')
    if (transcript.length > MAX_TRANSCRIPT_CHARS) transcript = `…${transcript.slice(-MAX_TRANSCRIPT_CHARS)}`
    const res = await models.complete({
      source: 'other',
      temperature: 0.3,
      maxTokens: 600,
      messages: [
        { role: 'system', content: PROMPT },
        { role: 'user', content: `${previous ? `Earlier summary:\n${previous.text}\n\n` : ''}Conversation:\n${transcript}` }
      ]
    })
    const text = stripReasoning(res.content).trim().slice(0, MAX_SUMMARY_CHARS)
    if (text) await this.store.setSummary(conversationId, { text, through: last.timestamp })
  }
}
