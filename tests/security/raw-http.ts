// Raw HTTP for the gate tests: fetch() normalizes paths the way a browser does (dot segments, `\`),
// an attacker's client does not, so these requests send the path bytes exactly as given.
import { request } from 'node:http'
import type Router from '@koa/router'

export interface RawResponse { status: number; headers: Record<string, string | string[] | undefined>; text: string; streamed: boolean }

/** One request with the path sent verbatim. Event streams are cut after their headers (`streamed`). */
export function raw (base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<RawResponse> {
  const u = new URL(base)
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, method, path, headers: { ...headers, ...(body !== undefined ? { 'Content-Length': String(Buffer.byteLength(body)) } : {}) } }, (res) => {
      const type = String(res.headers['content-type'] ?? '')
      if (type.includes('text/event-stream')) {
        res.destroy()
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: '', streamed: true })
        return
      }
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8'), streamed: false }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.setTimeout(20_000, () => req.destroy(new Error(`timeout ${method} ${path}`)))
    if (body !== undefined) req.write(body)
    req.end()
  })
}

export interface Route { method: string; path: string }

/** Every route of every router, the way tests/web/bad-input-sweep.test.ts walks them. */
export function routesOf (routers: Router[]): Route[] {
  const out: Route[] = []
  for (const r of routers) {
    for (const layer of r.stack) {
      if (typeof layer.path !== 'string') continue
      for (const method of layer.methods) if (method !== 'HEAD' && method !== 'OPTIONS') out.push({ method, path: layer.path })
    }
  }
  return out
}

/** A concrete path for a route pattern: parameters filled with `value`. */
export const fill = (pattern: string, value = 'x'): string => pattern.replace(/:[a-zA-Z]+(\([^)]*\))?\??/g, value).replace(/\{[^}]*\}/g, '')

/** Spellings of `path` (starting with /api or /mcp) that a lenient router or static server might accept. */
export function spellings (path: string): Array<{ name: string; path: string }> {
  const rest = path.replace(/^\/(api|mcp)/, '')
  const head = path.slice(1, 4)
  const enc = (s: string): string => s.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`)
  return [
    { name: 'upper prefix', path: `/${head.toUpperCase()}${rest}` },
    { name: 'all upper', path: path.toUpperCase() },
    { name: 'mixed case', path: `/${head[0]?.toUpperCase()}${head.slice(1)}${rest.replace(/\/([a-z])/, (_m, c: string) => `/${c.toUpperCase()}`)}` },
    { name: 'encoded prefix letter', path: `/${enc(head)}${rest}` },
    { name: 'encoded later letter', path: `/${head}${enc(rest)}` },
    { name: 'encoded slash', path: `/${head}%2F${rest.slice(1)}` },
    { name: 'double encoded', path: `/%25${head.charCodeAt(0).toString(16)}${head.slice(1)}${rest}` },
    { name: 'leading double slash', path: `/${path}` },
    { name: 'double slashes', path: path.replace(/\//g, '//') },
    { name: 'trailing slash', path: `${path}/` },
    { name: 'double slashes + trailing', path: `/${path.replace(/\/(?!$)/g, '//').slice(1)}/` },
    { name: 'lingxi mount', path: `/lingxi${path}` },
    { name: 'upper lingxi mount', path: `/LINGXI${path.toUpperCase()}` },
    { name: 'dot segment', path: `/x/..${path}` },
    { name: 'self segment', path: `/./${path.slice(1)}` },
    { name: 'backslash', path: `/${head}\\${rest.slice(1)}` }
  ].filter((v) => v.path !== path)
}
