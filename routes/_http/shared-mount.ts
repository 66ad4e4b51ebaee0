// The plugin's Koa app mounted into TRSS-Yunzai's own Express server at /lingxi (web.sharePort).
// TRSS runs compression and the Express body parsers (urlencoded, json, raw, text) before any plugin
// route, so a request arrives here with its body already read: the body parser (validate.ts, given
// hostParsedBody in server.ts) takes what Express parsed instead of reading the spent stream (which
// failed with "stream is not readable"), and still checks the Content-Type the client sent.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type Koa from 'koa'

/** What an Express body parser leaves on the request (body-parser 2 sets `body`; 1.x also `_body`). */
type ParsedRequest = IncomingMessage & { body?: unknown; _body?: boolean; originalUrl?: string }

/**
 * The body a host's parser already read from this request, or undefined when the stream is still
 * unread (then the plugin's own parser reads it). The Content-Type header is left as it was, so the
 * routes' media-type checks see what the client sent.
 */
export function hostParsedBody (req: IncomingMessage): { body: unknown } | undefined {
  const r = req as ParsedRequest
  if (r._body === true) return { body: r.body }
  if (r.body !== undefined && (r.readableEnded || !r.readable)) return { body: r.body }
  return undefined
}

/**
 * Marks every event stream answered through the mount `Cache-Control: no-transform`, whoever writes it
 * (openSse sets it itself; the MCP SDK's streams do not): TRSS's compression otherwise gzips the stream
 * and holds its frames back. Header objects passed to writeHead are applied first, so both styles count.
 */
function passEventStreams (res: ServerResponse): void {
  const inner = res.writeHead
  res.writeHead = function (this: ServerResponse, statusCode: number, ...rest: unknown[]) {
    const headers = rest[typeof rest[0] === 'string' ? 1 : 0]
    if (headers && typeof headers === 'object' && !Array.isArray(headers)) {
      for (const [k, v] of Object.entries(headers as Record<string, unknown>)) if (v !== undefined) this.setHeader(k, v as string | number | string[])
      rest = typeof rest[0] === 'string' ? [rest[0]] : []
    }
    if (/^text\/event-stream/i.test(String(this.getHeader('content-type') ?? ''))) {
      const cc = String(this.getHeader('cache-control') ?? '')
      if (!/\bno-transform\b/i.test(cc)) this.setHeader('Cache-Control', cc ? `${cc}, no-transform` : 'no-transform')
    }
    return (inner as (...a: unknown[]) => ServerResponse).call(this, statusCode, ...rest)
  } as ServerResponse['writeHead']
}

/**
 * The Express handler for the mount. `/lingxi` without the trailing slash is redirected to `/lingxi/`
 * (query kept): the dashboard's assets are relative, so without the slash they resolve to /assets/.
 * The Location is relative ("lingxi/"), so it stays right behind a reverse proxy that adds a prefix.
 */
export function sharedMountHandler (app: Koa, mount: string): (req: IncomingMessage, res: ServerResponse) => void {
  const handler = app.callback()
  const last = mount.slice(mount.lastIndexOf('/') + 1)
  return (req, res) => {
    const original = (req as ParsedRequest).originalUrl ?? req.url ?? ''
    const q = original.search(/[?#]/)
    const path = q === -1 ? original : original.slice(0, q)
    if (path === mount && (req.method === 'GET' || req.method === 'HEAD')) {
      res.statusCode = 301
      res.setHeader('Location', `${last}/${q === -1 ? '' : original.slice(q)}`)
      res.setHeader('Cache-Control', 'no-cache')
      res.end()
      return
    }
    passEventStreams(res)
    void handler(req, res)
  }
}
