// Change notices between instances (lib/storage/README.md, "Changes of other instances"): after a commit,
// `pg_notify('lx_changes', '<instance>\t<store>\t<kind>\t<key>')`, sent inside the writing transaction so
// it goes out exactly when the change is committed. Every process LISTENs on one dedicated connection per
// address and hands each notice to the stores of that name; a store ignores its own (the instance id).
// A lost connection is re-opened (with a growing pause) and every store then re-reads itself whole, since
// notices sent meanwhile are gone.
import type { Client } from 'pg'
import type { PluginLogger } from '../../core/logger.js'
import { connectClient } from './pool.js'

export const CHANNEL = 'lx_changes'
/** k: the record of `key` changed; m: the store's meta; a: re-read everything (a clear, a big batch). */
type NoticeKind = 'k' | 'm' | 'a'
export interface Notice { instance: string; store: string; kind: NoticeKind; key: string }

/** The payload limit is 8000 bytes: a key longer than this is announced as a whole-store change. */
export const MAX_KEY_IN_NOTICE = 1000

export function encodeNotice (n: Notice): string {
  return `${n.instance}\t${n.store}\t${n.kind}\t${n.key}`
}

function decodeNotice (payload: string): Notice | undefined {
  const [instance, store, kind, ...rest] = payload.split('\t')
  if (!instance || !store || (kind !== 'k' && kind !== 'm' && kind !== 'a')) return undefined
  return { instance, store, kind, key: rest.join('\t') }
}

export interface Subscriber {
  store: string
  notice(n: Notice): void
  /** The connection was lost and is back: notices may have been missed. */
  resync(): void
}

// Captured at load: a test's fake clock must not stall a reconnect.
const realSetTimeout = globalThis.setTimeout

class Listener {
  private client: Client | undefined
  private readonly subs = new Set<Subscriber>()
  private closed = false
  private pause = 250
  private ready: Promise<void>

  constructor (private readonly url: string, private readonly log?: PluginLogger) {
    this.ready = this.connect()
  }

  get size (): number { return this.subs.size }

  async add (s: Subscriber): Promise<void> {
    this.subs.add(s)
    await this.ready
  }

  remove (s: Subscriber): void { this.subs.delete(s) }

  private async connect (): Promise<void> {
    const client = await connectClient(this.url)
    client.on('notification', (msg) => {
      if (msg.channel !== CHANNEL || !msg.payload) return
      const n = decodeNotice(msg.payload)
      if (n) for (const s of this.subs) if (s.store === n.store) s.notice(n)
    })
    const lost = (err?: Error): void => {
      if (this.client !== client) return
      this.client = undefined
      client.removeAllListeners('end')
      void client.end().catch(() => undefined)
      if (this.closed) return
      this.log?.warn(`The PostgreSQL change listener lost its connection${err ? ` (${err.message})` : ''}; reconnecting`)
      this.reconnect()
    }
    client.on('error', lost)
    client.on('end', () => lost())
    await client.query(`LISTEN ${CHANNEL}`)
    this.client = client
    this.pause = 250
    if (this.closed) { this.client = undefined; await client.end().catch(() => undefined) }
  }

  private reconnect (): void {
    const t = realSetTimeout(() => {
      if (this.closed) return
      this.connect().then(() => { for (const s of this.subs) s.resync() }, (err: unknown) => {
        this.log?.warn(`The PostgreSQL change listener cannot reconnect yet: ${(err as Error).message}`)
        this.pause = Math.min(this.pause * 2, 10_000)
        this.reconnect()
      })
    }, this.pause)
    t.unref?.()
  }

  async close (): Promise<void> {
    this.closed = true
    const c = this.client
    this.client = undefined
    await c?.end().catch(() => undefined)
  }
}

const listeners = new Map<string, Listener>()

/** Starts receiving the notices of `s.store` (one listening connection per address); answers the unsubscribe. */
export async function subscribe (url: string, s: Subscriber, log?: PluginLogger): Promise<() => Promise<void>> {
  let l = listeners.get(url)
  if (!l) { l = new Listener(url, log); listeners.set(url, l) }
  const listener = l
  try { await listener.add(s) } catch (err) {
    listener.remove(s)
    if (listeners.get(url) === listener) listeners.delete(url)
    throw err
  }
  return async () => {
    listener.remove(s)
    if (listener.size === 0 && listeners.get(url) === listener) {
      listeners.delete(url)
      await listener.close()
    }
  }
}
