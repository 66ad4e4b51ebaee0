// Helpers of the channels tests: a test server with a fake model server, channel set-up, SSE reading.
import type { ChannelConfig } from '../../lib/config/schema.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startTestServer, type TestServer } from '../support/server.js'

export interface Env { s: TestServer; fake: FakeOpenAI; close(): Promise<void> }

export async function startEnv (): Promise<Env> {
  const fake = await startFakeOpenAI()
  const s = await startTestServer()
  return { s, fake, close: async () => { await s.close(); await fake.close() } }
}

/**
 * Creates (or replaces) a channel through the service. One without any model, which the service refuses
 * to create but config.yaml may hold, is written into the configuration directly.
 */
export async function addChannel (s: TestServer, ch: Partial<ChannelConfig> & { name: string; baseUrl: string }): Promise<ChannelConfig> {
  const svc = s.lx.rt.need('channels').service
  if (svc.find(ch.name)) await svc.remove(ch.name)
  if (ch.model || ch.models?.length) return svc.create(ch)
  await s.lx.rt.config.update({ channels: [...svc.list(), ch] } as never)
  return svc.get(ch.name)
}

export async function removeAllChannels (s: TestServer): Promise<void> {
  for (const c of [...s.lx.rt.need('channels').service.list()]) await s.lx.rt.need('channels').service.remove(c.name)
}

export interface Frame { event: string; data: any }

/** Reads an SSE response frame by frame; `onFrame` may act in the middle of the stream. */
export async function readSse (res: Response, onFrame?: (f: Frame, all: Frame[]) => void | Promise<void>): Promise<Frame[]> {
  const frames: Frame[] = []
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let buf = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    buf += decoder.decode(value, { stream: true })
    let i: number
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const raw = buf.slice(0, i)
      buf = buf.slice(i + 2)
      let event = 'message'
      let data = ''
      for (const line of raw.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7)
        else if (line.startsWith('data: ')) data += line.slice(6)
      }
      if (!data) continue
      const f = { event, data: JSON.parse(data) }
      frames.push(f)
      if (onFrame) await onFrame(f, frames)
    }
  }
  return frames
}

/** POST with the session token, returning the raw response (for SSE). */
export function post (s: TestServer, path: string, json: unknown, signal?: AbortSignal): Promise<Response> {
  return fetch(s.base + path, {
    method: 'POST',
    headers: { Authorization: `Bearer ${s.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(json),
    ...(signal ? { signal } : {})
  })
}

export const waitFor = async (cond: () => boolean, ms = 5000): Promise<void> => {
  const end = performance.now() + ms
  while (!cond()) {
    if (performance.now() > end) throw new Error('condition not met in time')
    await new Promise((r) => setImmediate(r))
  }
}
