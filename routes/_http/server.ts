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
import { hostParsedBody, sharedMountHandler } from './shared-mount.js'
import { mountRouters } from './mount-routers.js'
import { staticMiddleware } from './static.js'
import { bodyParser } from './validate.js'

export const SHARED_MOUNT = '/lingxi'

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

function createApp (rt: Runtime, routers: Router[], extra: Koa.Middleware[] = []): Koa {
  // Proxy headers count only with web.trustProxy, read live; the last X-Forwarded-For entry is the one
  // our proxy appended (lib/core/rate-limit.ts clientAddress keys the rate limits the same way).
  const app = new Koa({ proxy: false, maxIpsCount: 1 })
  Object.defineProperty(app, 'proxy', { get: () => rt.config.get().web.trustProxy, set: () => undefined, configurable: true })
  app.silent = true
  app.on('error', (err: unknown) => {
    const code = (err as { code?: string }).code
    if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ERR_STREAM_PREMATURE_CLOSE') return
    rt.log.error('Web server error', {}, err)
  })
  app.use(errorMiddleware(rt.log))
  app.use((ctx, next) => {
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
    return next()
  })
  // The gate (path rule, session, origin rule) before any body is read; then the one body parser.
  app.use(authMiddleware(rt))
  app.use(bodyParser(() => rt.config.get().web.bodyLimitKb, (ctx) => hostParsedBody(ctx.req)))
  for (const mw of extra) app.use(mw)
  // Upstream of the routers so each router's allowedMethods (405) runs before this 404 does.
  app.use(async (ctx, next) => {
    await next()
    if (ctx.body === undefined && ctx.respond !== false && (ctx.path.startsWith('/api/') || ctx.path === '/api')) {
      throw new AppError('NOT_FOUND', `No API route ${ctx.method} ${ctx.path}`)
    }
  })
  mountRouters(app, routers)
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
    const handler = sharedMountHandler(app, SHARED_MOUNT)
    express.use(SHARED_MOUNT, (req, res) => { handler(req as Parameters<typeof handler>[0], res as Parameters<typeof handler>[1]) })
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
