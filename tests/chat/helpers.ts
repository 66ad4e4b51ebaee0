// Helpers of the chat tests: the plugin with one channel pointing to the fake model server.
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startTestServer, type TestServer } from '../support/server.js'

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
