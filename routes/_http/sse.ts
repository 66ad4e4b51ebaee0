// Server-Sent Events on the raw response (Koa's stream bodies log a spurious error on every client
// disconnect). Streams close when the client leaves, the plugin stops or the
// session that opened the stream is revoked (logout, refresh) or expires.
import type { Context } from 'koa'
import type { EventBus } from '../../lib/core/event-bus.js'
import { sessionEndsOf } from './auth.js'

export interface SseStream {
  /** `event: name` + `data: json` frame. */
  send(event: string, data: unknown): boolean
  /** A data-only frame (the chat stream, docs/api.md, Server-sent events). */
  data(data: unknown): boolean
  comment(text: string): boolean
  close(): void
  onClose(fn: () => void): void
  readonly closed: boolean
}

const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  // no-transform: a compressing proxy or host (TRSS's `compression`) passes the stream through unbuffered
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no'
} as const

export function openSse (ctx: Context, bus?: EventBus): SseStream {
  ctx.respond = false
  const res = ctx.res
  res.writeHead(200, SSE_HEADERS)
  res.flushHeaders()
  let closed = false
  const closers: Array<() => void> = []
  const finish = (): void => {
    if (closed) return
    closed = true
    for (const fn of closers.splice(0)) { try { fn() } catch { /* a closer must not stop the others */ } }
    if (!res.writableEnded) res.end()
  }
  ctx.req.on('close', finish)
  res.on('close', finish)
  const off = bus?.on('stopping', finish)
  if (off) closers.push(off)
  const unwatch = sessionEndsOf(ctx)?.(finish)
  if (unwatch) closers.push(unwatch)
  const write = (text: string): boolean => {
    if (closed || res.writableEnded) return false
    const ok = res.write(text)
    // a compression middleware in front (TRSS shared port) adds flush(): push each frame out at once
    ;(res as { flush?: () => void }).flush?.()
    return ok
  }
  return {
    send: (event, data) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`),
    data: (data) => write(`data: ${JSON.stringify(data)}\n\n`),
    comment: (text) => write(`: ${text}\n\n`),
    close: finish,
    onClose: (fn) => { if (closed) fn(); else closers.push(fn) },
    get closed () { return closed }
  }
}
