// Serves the dashboard: built files from resources/dist when present, else resources/public.
// Unknown non-API paths get index.html so client-side routes (/login, /channels) work on reload.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Context, Next } from 'koa'
import { importOptional } from '../../lib/core/packages.js'
import { ensureDashboardBuilt } from './dashboard-build.js'
import { sendNoOAuth } from './mcp-transport.js'

/**
 * Content-Security-Policy of the dashboard's pages: its own scripts, styles and API only, no inline
 * script, no framing, no form posts elsewhere. `data:` images cover the inline SVG icons of the CSS.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data: blob:", "font-src 'self' data:",
  "connect-src 'self'", "object-src 'none'", "frame-ancestors 'none'", "base-uri 'self'", "form-action 'self'"
].join('; ')

const CACHE_HASHED = 'public, max-age=31536000, immutable'

function dashboardRoot (pluginDir: string): string {
  const dist = join(pluginDir, 'resources', 'dist')
  return existsSync(join(dist, 'index.html')) ? dist : join(pluginDir, 'resources', 'public')
}

const loadSend = async () => (await importOptional('koa-send', () => import('koa-send'))).default

export function staticMiddleware (pluginDir: string) {
  // Start-time build when resources/dist is missing or older than resources/src (e.g. after a git pull
  // without reinstall). In the background: resources/public serves until it is done. Tests that need the
  // dashboard build it themselves (tests/dashboard), so other test processes don't spend CPU on it.
  if (process.env.NODE_ENV !== 'test' || process.env.LINGXI_WEB_BUILD === '1') {
    ensureDashboardBuilt(pluginDir).catch((err: Error) => { console.warn(`[lingxi] ${err.message}`) })
  }
  return async function dashboard (ctx: Context, next: Next): Promise<void> {
    await next()
    if (ctx.body !== undefined || ctx.respond === false) return
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return
    if (ctx.path.startsWith('/api/') || ctx.path === '/api' || ctx.path === '/mcp' || ctx.path.startsWith('/mcp/')) return
    // no /.well-known/ document is ours (OAuth discovery of MCP clients among them): JSON 404, not the page
    if (ctx.path.startsWith('/.well-known/')) { ctx.respond = false; sendNoOAuth(ctx.res); return }
    ctx.set('Content-Security-Policy', DASHBOARD_CSP)
    const root = dashboardRoot(pluginDir)
    const isAsset = /\.[a-z0-9]+$/i.test(ctx.path)
    let send: Awaited<ReturnType<typeof loadSend>>
    try {
      send = await loadSend()
    } catch {
      // an optional package (lib/core/packages.ts); the log and the masters' message name the command
      ctx.status = 503
      ctx.body = 'The dashboard is unavailable: the package koa-send is not installed (the bot\'s log says how to install it).'
      return
    }
    // Vite names the files under assets/ by their content hash (resources/vite.config.ts): a changed file is a
    // new URL, so these are cached for a year; index.html (and the fallback page's files) is checked each time.
    const hashed = isAsset && ctx.path.startsWith('/assets/')
    try {
      // koa-send resolves inside root and refuses traversal. It sends the build's `.br` or `.gz` twin as
      // Accept-Encoding allows (brotli first, the plain file when the twin is missing), with that file's
      // length and the original's type; setHeaders runs on every answer before koa-send's own Cache-Control.
      await send(ctx, isAsset ? ctx.path : '/index.html', {
        root,
        brotli: true,
        gzip: true,
        setHeaders: (res) => {
          res.setHeader('Vary', 'Accept-Encoding')
          res.setHeader('Cache-Control', hashed ? CACHE_HASHED : 'no-cache')
        }
      })
    } catch (err) {
      const status = (err as { status?: number }).status
      if (status !== 404) throw err
      ctx.status = 404
      ctx.body = 'Not found'
    }
  }
}
