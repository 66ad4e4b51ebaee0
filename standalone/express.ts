// A tiny Express-compatible app for TRSS's `Bot.express`: `use(prefix, handler)`
// mounts a handler; like Express, the prefix is stripped from `req.url` while the handler runs.
// TRSS holds requests until the bot is online and adds a catch-all afterwards, so routes mounted
// after `online()` are never reached.
import type { IncomingMessage, ServerResponse } from 'node:http'

type MiniRequest = IncomingMessage & { baseUrl?: string; originalUrl?: string }
type Next = (err?: unknown) => void
export type Handler = (req: MiniRequest, res: ServerResponse, next: Next) => unknown

interface Layer { prefix: string; handler: Handler }

export interface MiniExpress {
  (req: IncomingMessage, res: ServerResponse): void
  use(prefixOrHandler: string | Handler, ...handlers: Handler[]): MiniExpress
  skip_auth: string[]
  quiet: string[]
  /** routes mounted after `online()`: kept for diagnostics, never reached */
  readonly late: string[]
  online(): void
}

function normalisePrefix(prefix: string): string {
  const p = prefix.startsWith('/') ? prefix : `/${prefix}`
  return p.length > 1 ? p.replace(/\/+$/, '') : '/'
}

/** The remainder of `url` below `prefix`, or undefined when it is not under it. */
function below(url: string, prefix: string): string | undefined {
  if (prefix === '/') return url
  const q = url.search(/[?#]/)
  const path = q === -1 ? url : url.slice(0, q)
  if (path !== prefix && !path.startsWith(`${prefix}/`)) return undefined
  const rest = url.slice(prefix.length)
  return rest.startsWith('/') ? rest : `/${rest}`
}

export function createMiniExpress(onLate: (prefix: string) => void = () => {}): MiniExpress {
  const layers: Layer[] = []
  const late: string[] = []
  let isOnline = false
  let releaseHeld: () => void = () => {}
  const held = new Promise<void>((resolve) => { releaseHeld = resolve })

  const finish = (res: ServerResponse, err?: unknown): void => {
    if (res.headersSent) { res.end(); return }
    res.statusCode = err ? 500 : 404
    res.setHeader('content-type', 'text/plain; charset=utf-8')
    res.end(err ? 'Internal Server Error' : 'Not Found')
  }

  const run = (req: MiniRequest, res: ServerResponse): void => {
    const originalUrl = req.url ?? '/'
    req.originalUrl ??= originalUrl
    let i = 0
    const next: Next = (err) => {
      req.url = originalUrl
      req.baseUrl = ''
      if (err !== undefined) { finish(res, err); return }
      while (i < layers.length) {
        const layer = layers[i++]
        const rest = below(originalUrl, layer.prefix)
        if (rest === undefined) continue
        req.url = rest
        req.baseUrl = layer.prefix === '/' ? '' : layer.prefix
        try {
          const ret = layer.handler(req, res, next)
          if (ret instanceof Promise) ret.catch((e: unknown) => next(e ?? new Error('handler failed')))
        } catch (e) {
          next(e ?? new Error('handler failed'))
        }
        return
      }
      finish(res)
    }
    next()
  }

  const app = ((req: IncomingMessage, res: ServerResponse) => {
    if (isOnline) run(req, res)
    else void held.then(() => run(req, res))
  }) as MiniExpress

  app.use = (prefixOrHandler, ...handlers) => {
    const prefix = typeof prefixOrHandler === 'string' ? normalisePrefix(prefixOrHandler) : '/'
    const list = typeof prefixOrHandler === 'string' ? handlers : [prefixOrHandler, ...handlers]
    if (isOnline) {
      late.push(prefix)
      onLate(prefix)
      return app
    }
    for (const handler of list) layers.push({ prefix, handler })
    return app
  }
  app.skip_auth = []
  app.quiet = []
  Object.defineProperty(app, 'late', { get: () => late })
  app.online = () => {
    isOnline = true
    releaseHeld()
  }
  return app
}
