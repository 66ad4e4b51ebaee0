// The embedded web server: one Koa app for the API, the dashboard and the MCP endpoint, listening on
// its own port and, under TRSS with web.sharePort, also mounted into the host's server at /lingxi.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { networkInterfaces } from 'node:os'
import Koa from 'koa'
import Router from '@koa/router'
import { AppError } from '../../lib/core/errors.js'
import { sharedBaseUrl, sharedExpress } from '../../lib/host/port.js'
import type { Runtime } from '../../lib/runtime.js'
import { authMiddleware } from './auth.js'
import { errorMiddleware } from './errors.js'
import { staticMiddleware } from './static.js'

export const SHARED_MOUNT = '/lingxi'

/** Paths whose POST accepts multipart/form-data uploads (koa-body `ctx.request.files`). */
export const MULTIPART_PATHS = new Set(['/api/presets/import'])

export interface WebServer {
  app: Koa
  server: Server
  port: number
  /** Addresses for login links, best first. */
  baseUrls(): string[]
  /** Loopback address of this server (tests, the standalone console). */
  localUrl: string
  close(): Promise<void>
}

export type RouterFactory = (rt: Runtime) => Router | Router[]

export function createApp (rt: Runtime, routers: Router[], extra: Koa.Middleware[] = []): Koa {
  const app = new Koa({ proxy: false })
  app.silent = true
  app.on('error', (err: unknown) => {
    const code = (err as { code?: string }).code
    if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ERR_STREAM_PREMATURE_CLOSE') return
    rt.log.error('Web server error', {}, err)
  })
  const limit = (): string => `${rt.config.get().web.bodyLimitKb}kb`
  app.use(errorMiddleware(rt.log))
  app.use(async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff')
    ctx.set('X-Frame-Options', 'DENY')
    ctx.set('Referrer-Policy', 'no-referrer')
    const origin = ctx.get('Origin')
    if (origin && rt.config.get().web.allowedOrigins.includes(origin)) {
      ctx.set('Access-Control-Allow-Origin', origin)
      ctx.set('Vary', 'Origin')
      ctx.set('Access-Control-Allow-Credentials', 'true')
      ctx.set('Access-Control-Allow-Headers', 'Authorization, Content-Type, X-API-Key, Mcp-Session-Id')
      ctx.set('Access-Control-Allow-Methods', 'GET, POST, PUT, DELETE, OPTIONS')
      if (ctx.method === 'OPTIONS') { ctx.status = 204; return }
    }
    if (ctx.path.startsWith('/api')) ctx.set('Cache-Control', 'no-store')
    await next()
  })
  // The body parser is rebuilt only when the configured limit changes, so a change applies at once.
  let parser: { limit: string; mw: Koa.Middleware } | undefined
  let multipartParser: { limit: string; mw: Koa.Middleware } | undefined
  app.use(async (ctx, next) => {
    if (!ctx.path.startsWith('/api/') && !ctx.path.startsWith('/mcp')) return next()
    if (ctx.method === 'GET' || ctx.method === 'HEAD' || ctx.method === 'OPTIONS') return next()
    const l = limit()
    // File uploads (multipart/form-data) only where a route expects one.
    if (MULTIPART_PATHS.has(ctx.path) && ctx.is('multipart/form-data')) {
      if (multipartParser?.limit !== l) {
        const { koaBody } = await import('koa-body')
        const maxFileSize = rt.config.get().web.bodyLimitKb * 1024
        multipartParser = { limit: l, mw: koaBody({ multipart: true, formLimit: l, formidable: { maxFileSize, maxFiles: 1 } }) as unknown as Koa.Middleware }
      }
      return multipartParser.mw(ctx, next)
    }
    if (parser?.limit !== l) {
      // Loaded on the first request with a body: it is the heaviest import of the server (start time).
      const { koaBody } = await import('koa-body')
      parser = { limit: l, mw: koaBody({
        jsonLimit: l, textLimit: l, formLimit: l,
        textTypes: ['text/*', 'application/yaml', 'application/x-yaml'],
        multipart: false, jsonStrict: false
      }) as unknown as Koa.Middleware }
    }
    return parser.mw(ctx, next)
  })
  for (const mw of extra) app.use(mw)
  app.use(authMiddleware(rt))
  // Upstream of the routers so each router's allowedMethods (405) runs before this 404 does.
  app.use(async (ctx, next) => {
    await next()
    if (ctx.body === undefined && ctx.respond !== false && (ctx.path.startsWith('/api/') || ctx.path === '/api')) {
      throw new AppError('NOT_FOUND', `No API route ${ctx.method} ${ctx.path}`)
    }
  })
  for (const r of routers) { app.use(r.routes()); app.use(r.allowedMethods({ throw: true, methodNotAllowed: () => new AppError('METHOD_NOT_ALLOWED', 'Method not allowed'), notImplemented: () => new AppError('METHOD_NOT_ALLOWED', 'Method not implemented') })) }
  app.use(staticMiddleware(rt.paths.pluginDir))
  return app
}

function listen (server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error): void => { server.off('listening', onListening); reject(err) }
    const onListening = (): void => { server.off('error', onError); resolve((server.address() as AddressInfo).port) }
    server.once('error', onError)
    server.once('listening', onListening)
    server.listen(port, host)
  })
}

function lanAddresses (): string[] {
  const out: string[] = []
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal && !/^172\.(1[7-9]|2\d|3[01])\./.test(a.address)) out.push(a.address)
  }
  return out
}

export async function startWebServer (rt: Runtime, routers: Router[], extra: Koa.Middleware[] = []): Promise<WebServer> {
  const app = createApp(rt, routers, extra)
  const cfg = rt.config.get().web
  const envPort = process.env.LINGXI_PORT
  const wanted = envPort !== undefined && envPort !== '' && /^\d+$/.test(envPort) ? Number(envPort) : cfg.port
  const server = createServer(app.callback())
  server.keepAliveTimeout = 65_000
  let port = -1
  for (let attempt = 0; attempt < 10 && port < 0; attempt++) {
    const tryPort = wanted === 0 ? 0 : wanted + attempt
    try {
      port = await listen(server, cfg.host, tryPort)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || wanted === 0) throw err
      rt.log.warn(`Port ${tryPort} is already in use (another copy of the bot or another program); trying ${tryPort + 1}`)
    }
  }
  if (port < 0) throw new Error(`No free port found from ${wanted} to ${wanted + 9}; set web.port in the config`)
  const sockets = new Set<import('node:net').Socket>()
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)) })

  let shared: string | undefined
  const express = cfg.sharePort ? sharedExpress() : undefined
  if (express) {
    const handler = app.callback()
    express.use(SHARED_MOUNT, (req, res) => { void handler(req as Parameters<typeof handler>[0], res as Parameters<typeof handler>[1]) })
    express.skip_auth?.push(SHARED_MOUNT)
    express.quiet?.push(SHARED_MOUNT)
    const base = sharedBaseUrl()
    if (base) shared = `${base}${SHARED_MOUNT}`
  }
  const localHost = cfg.host === '0.0.0.0' || cfg.host === '::' ? '127.0.0.1' : cfg.host
  const localUrl = `http://${localHost.includes(':') ? `[${localHost}]` : localHost}:${port}`
  rt.log.info(`Web server listening on ${localUrl}`)
  return {
    app,
    server,
    port,
    localUrl,
    baseUrls: () => {
      const web = rt.config.get().web
      const urls = [web.publicUrl.replace(/\/$/, ''), shared ?? '']
      if (web.host === '0.0.0.0' || web.host === '::') urls.push(...lanAddresses().map((ip) => `http://${ip}:${port}`))
      urls.push(localUrl)
      return [...new Set(urls.filter(Boolean))]
    },
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve())
      for (const s of sockets) s.destroy()
    })
  }
}
