// Helpers of the chat tests: the plugin with one channel pointing to the fake model server.
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { splitUserContent, userText } from '../support/user-text.js'

export interface ChatEnv { s: TestServer; fake: FakeOpenAI; close(): Promise<void> }

async function useFakeChannel (s: TestServer, fake: FakeOpenAI): Promise<void> {
  await s.lx.rt.config.update({ channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-test', model: 'gpt-test', models: ['gpt-test'] }] })
}

export async function startChatEnv (): Promise<ChatEnv> {
  const fake = await startFakeOpenAI({ models: ['gpt-test'] })
  const s = await startTestServer()
  await useFakeChannel(s, fake)
  return { s, fake, close: async () => { await s.close(); await fake.close() } }
}

/** Resets stored conversations and the pipeline's in-memory state between tests. */
export async function resetChat (env: ChatEnv): Promise<void> {
  env.fake.reset()
  await env.s.lx.rt.need('conversations').store.clearAll()
  env.s.lx.rt.need('conversations').pipeline.reset()
}

/** The messages (role, content) of a recorded chat request. */
export function sentMessages (body: any): Array<{ role: string; content: string }> {
  return (body?.messages ?? []).map((m: any) => ({ role: m.role, content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content) }))
}

/** The messages with each user message reduced to the user's own words (no note, no tail: lib/chat/turn-note.ts). */
export function spokenMessages (body: any): Array<{ role: string; content: string }> {
  return sentMessages(body).map((m) => m.role === 'user' ? { role: m.role, content: userText(m.content) } : m)
}

/** What a request gave the model besides the users' words: the system messages, then the newest user
 * message's note (time, speaker, the group's new messages) and tail (memories, passages, skills). */
export function contextOf (body: any): string {
  const msgs = sentMessages(body)
  const newest = msgs.filter((m) => m.role === 'user').at(-1)
  const parts = newest ? splitUserContent(newest.content) : { note: '', tail: '' }
  return [...msgs.filter((m) => m.role === 'system').map((m) => m.content), parts.note, parts.tail].join('\n')
}
