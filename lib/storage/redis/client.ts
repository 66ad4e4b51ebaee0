// The Redis connections (lib/storage/README.md, "Redis"): ioredis, imported on first use (an optional
// package, lib/core/packages.ts), one command connection and one subscriber connection per address,
// shared by every runtime of the process that uses that address (tests run two), closed with the last.
// Keys and channels are prefixed `lingxi:` so the host's own keys (storage.redis: host) are never touched.
// The address may hold a password: only maskedRedisUrl() is ever logged or shown.
import type { Redis } from 'ioredis'
import { importOptional } from '../../core/packages.js'
import type { PluginLogger } from '../../core/logger.js'
import { maskedRedisUrl } from './settings.js'

const KEY_PREFIX = 'lingxi:'

/** A key or channel name in our namespace. */
export const key = (name: string): string => KEY_PREFIX + name

/** How long the first connection may take before the start gives up on Redis. */
const CONNECT_TIMEOUT_MS = 5000

export class RedisLink {
  private refs = 1
  private readonly handlers = new Map<string, Set<(message: string) => void>>()

  constructor (readonly cmd: Redis, private readonly sub: Redis, readonly address: string, private readonly forget: () => void) {
    sub.on('message', (channel: string, message: string) => {
      for (const fn of this.handlers.get(channel) ?? []) {
        try { fn(message) } catch { /* one listener's fault is its own */ }
      }
    })
  }

  /** Listens on a channel (the name without prefix); the returned function stops listening. */
  async subscribe (channel: string, fn: (message: string) => void): Promise<() => void> {
    const full = key(channel)
    let set = this.handlers.get(full)
    if (!set) { set = new Set(); this.handlers.set(full, set); await this.sub.subscribe(full) }
    set.add(fn)
    return () => { set.delete(fn) }
  }

  /** Runs `fn` whenever the subscriber connection is back after a break (notices may have been missed). */
  onReconnect (fn: () => void): () => void {
    // The first 'ready' is past when a link exists: every later one is a reconnect.
    const h = (): void => { fn() }
    this.sub.on('ready', h)
    return () => { this.sub.off('ready', h) }
  }

  async publish (channel: string, message: string): Promise<void> { await this.cmd.publish(key(channel), message) }

  retain (): this { this.refs++; return this }

  async close (): Promise<void> {
    if (--this.refs > 0) return
    this.forget()
    await Promise.allSettled([this.cmd.quit(), this.sub.quit()])
    this.cmd.disconnect(); this.sub.disconnect()
  }
}

const open = new Map<string, Promise<RedisLink>>()

/** The connections to `url`, opened on first use; an Error in the owner's words when Redis cannot be reached. */
export async function connectRedis (url: string, log?: PluginLogger): Promise<RedisLink> {
  const existing = open.get(url)
  if (existing) return (await existing).retain()
  const pending = openLink(url, log)
  open.set(url, pending)
  try { return await pending } catch (err) { open.delete(url); throw err }
}

async function openLink (url: string, log: PluginLogger | undefined): Promise<RedisLink> {
  const address = maskedRedisUrl(url)
  const { Redis } = await importOptional('ioredis', async () => await import('ioredis'))
  const connection = (role: string): Redis => {
    let connected = false
    let lastError = ''
    const c = new Redis(url, {
      lazyConnect: true,
      connectTimeout: CONNECT_TIMEOUT_MS,
      maxRetriesPerRequest: 2,
      // The first connection fails at once (the start reports it); after that, reconnect quietly.
      retryStrategy: (times: number) => connected ? Math.min(times * 200, 2000) : null
    })
    c.on('ready', () => {
      if (connected && lastError) log?.info(`Redis at ${address} is reachable again (${role})`)
      connected = true; lastError = ''
    })
    c.on('error', (err: Error) => {
      // ioredis repeats the error on every retry: logged once per break.
      if (connected && err.message !== lastError) log?.warn(`Redis at ${address} (${role}): ${err.message}; retrying`)
      lastError = err.message
    })
    return c
  }
  const cmd = connection('commands')
  const sub = connection('notices')
  try {
    await Promise.all([cmd.connect(), sub.connect()])
  } catch (err) {
    cmd.disconnect(); sub.disconnect()
    const why = err instanceof Error ? err.message : String(err)
    throw new Error(`Redis at ${address} could not be reached (${why}). Start Redis or correct the address (LINGXI_REDIS_URL or storage.redis.url); empty it to run this instance on its own.`, { cause: err })
  }
  return new RedisLink(cmd, sub, address, () => { open.delete(url) })
}
