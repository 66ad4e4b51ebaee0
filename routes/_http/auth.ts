// The gate in front of every route (see README, "Security model"):
//  - path rule: which requests need a session. Decided once, here, on a canonical form of the path
//    that is at least as wide as every spelling the routers accept (they match case-insensitively,
//    with or without a trailing slash). Public is an exact allow-list compared on the raw path; the
//    API region is computed generously (decoded, lower-case, slashes collapsed, dot segments and the
//    /lingxi mount removed); a non-canonical spelling of an API path is refused outright.
//  - session: a JWT from `Authorization: Bearer` (preferred) or the HttpOnly cookie set at login;
//    never the query string.
//  - origin rule: a cookie-authenticated request that changes state must come from the dashboard's
//    own origin or one listed in web.allowedOrigins (Bearer clients are not origin-checked: a
//    cross-site page cannot set that header without a CORS preflight we only grant to those origins).
import { posix } from 'node:path'
import type { Context, Middleware, Next } from 'koa'
import koaJwt from 'koa-jwt'
import { AppError } from '../../lib/core/errors.js'
import type { SessionClaims } from '../../lib/auth/sessions.js'
import type { Runtime } from '../../lib/runtime.js'
import { memoByPath } from './path-memo.js'

export const SESSION_COOKIE = 'lingxi_session'

/** The only /api paths reachable without a session, compared byte for byte with the raw path. */
const PUBLIC_API = new Set(['/api/auth/login', '/api/system/health', '/api/openapi.json'])
const MOUNT = '/lingxi'
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export type GateDecision = 'public' | 'session' | 'refuse'

function safeDecode (s: string): string {
  try { return decodeURIComponent(s) } catch { return s.replace(/%([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))) }
}

/**
 * The form of a path used to decide, never to route: percent-decoding applied until stable,
 * backslashes as slashes, duplicate slashes collapsed, lower case, no trailing slash, no leading
 * `/lingxi` mount segments.
 */
export function canonicalPath (raw: string): string {
  let p = raw
  for (let i = 0; i < 5; i++) { const d = safeDecode(p); if (d === p) break; p = d }
  p = `/${p}`.replace(/[\\/]+/g, '/').toLowerCase()
  while (p === MOUNT || p.startsWith(`${MOUNT}/`)) p = p.slice(MOUNT.length) || '/'
  return p.length > 1 ? p.replace(/\/+$/, '') : p
}

const under = (p: string, prefix: string): boolean => p === prefix || p.startsWith(`${prefix}/`)

/** Which protected area a canonical path falls in; dot segments are tried both kept and resolved. */
function areaOf (raw: string): 'api' | 'mcp' | undefined {
  const c = canonicalPath(raw)
  const forms = [c, canonicalPath(posix.normalize(c))]
  if (forms.some((f) => under(f, '/api'))) return 'api'
  if (forms.some((f) => under(f, '/mcp'))) return 'mcp'
  return undefined
}

/**
 * The one path rule. `refuse`: an API or MCP path spelled in a way no client of ours sends
 * (capitals, encoded or doubled slashes in the prefix, the mount inside the app, dot segments);
 * `public`: login, health, the OpenAPI document, the MCP endpoint (its own API key) and the dashboard's static files;
 * `session`: everything else under /api.
 */
export function gateOf (rawPath: string): GateDecision {
  const area = areaOf(rawPath)
  if (!area) return 'public'
  const canonicalSpelling = area === 'api' ? /^\/api(\/|$)/ : /^\/mcp(\/|$)/
  if (!canonicalSpelling.test(rawPath) || rawPath.includes('//') || /(^|\/)\.\.?(\/|$)/.test(rawPath)) return 'refuse'
  if (area === 'mcp') return 'public'
  return PUBLIC_API.has(rawPath) ? 'public' : 'session'
}

// ---- origin rule ------------------------------------------------------------------------------------

function originOf (value: string): string | undefined {
  if (!value || value === 'null') return undefined
  try {
    const u = new URL(value)
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined
  } catch { return undefined }
}

function hostOf (origin: string): string { return new URL(origin).host }

/** The origin the browser says the request came from: `Origin`, else the `Referer`'s origin. */
function requestOrigin (ctx: Context): string | undefined {
  const o = ctx.get('Origin')
  if (o) return originOf(o)
  return originOf(ctx.get('Referer'))
}

/**
 * True when `origin` is the dashboard's own (the host:port the request was sent to, also through the
 * /lingxi mount or a proxy that keeps Host; web.publicUrl) or listed in web.allowedOrigins.
 */
function originAllowed (rt: Runtime, ctx: Context, origin: string | undefined): boolean {
  if (!origin) return false
  const web = rt.config.get().web
  const own = new Set<string>()
  for (const h of [ctx.get('Host'), ctx.host]) {
    if (!h) continue
    try { own.add(new URL(`http://${h}`).host) } catch { /* malformed Host header */ }
  }
  if (own.has(hostOf(origin))) return true
  const pub = originOf(web.publicUrl)
  if (pub && pub === origin) return true
  return web.allowedOrigins.some((a) => originOf(a) === origin)
}

function refuseCrossSite (origin: string | undefined): AppError {
  return new AppError('FORBIDDEN', origin
    ? `Cross-site request refused: origin ${origin} is not the dashboard's own origin nor listed in web.allowedOrigins`
    : 'Cross-site request refused: a request authenticated by the session cookie that changes state must send an Origin (or Referer) header of the dashboard; API clients send Authorization: Bearer <token>')
}

// ---- session ----------------------------------------------------------------------------------------

type SessionEndWatcher = (onEnd: () => void) => () => void

export function authMiddleware (rt: Runtime): Middleware {
  const check = koaJwt({
    secret: rt.sessions.secret,
    cookie: SESSION_COOKIE,
    algorithms: ['HS256'],
    key: 'user',
    tokenKey: 'sessionToken',
    getToken: (ctx) => tokenOf(ctx)?.token ?? null,
    isRevoked: async (_ctx, decoded) => rt.sessions.isRevoked((decoded as Partial<SessionClaims>).jti)
  })
  // Tokens already verified skip the signature check (the dashboard sends the same token on every
  // request); expiry and revocation are still checked each time.
  const verified = new Map<string, SessionClaims>()
  const admit = (ctx: Context, next: Next, claims: SessionClaims, from: 'bearer' | 'cookie'): Promise<void> => {
    if (from === 'cookie' && !SAFE_METHODS.has(ctx.method)) {
      const origin = requestOrigin(ctx)
      if (!originAllowed(rt, ctx, origin)) throw refuseCrossSite(origin ?? (ctx.get('Origin') || undefined))
    }
    ctx.state.user = claims
    ctx.state.sessionEnds = sessionEndWatcher(rt, claims)
    return next() // not awaited here: one promise less on every authenticated request
  }
  // The path rule is a pure function of the raw path: its decision is remembered.
  const gateFor = memoByPath(gateOf)
  // The last Bearer header admitted and what it gave: a client sends the same header on every request,
  // and comparing it skips the parse and the hashing of a long token (expiry and revocation still checked).
  let last: { header: string; found: FoundToken; claims: SessionClaims } | undefined
  return async function auth (ctx: Context, next: Next): Promise<void> {
    const gate = gateFor(ctx.path)
    if (gate === 'refuse') throw new AppError('NOT_FOUND', `No API route ${ctx.method} ${ctx.path.slice(0, 200)}`)
    if (gate === 'public') return next()
    const header = ctx.req.headers.authorization
    const same = last !== undefined && header === last.header ? last : undefined
    const found = same ? same.found : tokenOf(ctx)
    const known = same ? same.claims : found === undefined ? undefined : verified.get(found.token)
    if (found && known && known.exp * 1000 > rt.clock.now() && !rt.sessions.isRevoked(known.jti)) {
      if (!same && header !== undefined && found.from === 'bearer') last = { header, found, claims: known }
      return admit(ctx, next, known, found.from)
    }
    let claims: SessionClaims | undefined
    await check(ctx, async () => { claims = ctx.state.user as SessionClaims })
    if (!claims || !found) throw new AppError('UNAUTHORIZED', 'Not authenticated')
    if (verified.size >= 1000) verified.delete(verified.keys().next().value as string)
    verified.set(found.token, claims)
    return admit(ctx, next, claims, found.from)
  }
}

/** The session token: `Authorization: Bearer` first (API clients, the dashboard's fetches), then the cookie. */
interface FoundToken { token: string; from: 'bearer' | 'cookie' }

function tokenOf (ctx: Context): FoundToken | undefined {
  const m = /^Bearer\s+(\S+)$/i.exec(ctx.get('Authorization').trim())
  if (m?.[1]) return { token: m[1], from: 'bearer' }
  const cookie = ctx.cookies.get(SESSION_COOKIE)
  return cookie ? { token: cookie, from: 'cookie' } : undefined
}

/** Calls `onEnd` once when the session is revoked (logout, refresh) or expires; returns the unsubscribe. */
function sessionEndWatcher (rt: Runtime, claims: SessionClaims): SessionEndWatcher {
  return (onEnd) => {
    let done = false
    let timer: NodeJS.Timeout | undefined
    const end = (): void => {
      if (done) return
      done = true
      stop()
      onEnd()
    }
    const offRevoke = rt.sessions.onRevoke((jti) => { if (jti === claims.jti) end() })
    const arm = (): void => {
      const left = claims.exp * 1000 - rt.clock.now()
      if (left <= 0) { end(); return }
      // setTimeout holds at most ~24.8 days; longer sessions re-arm.
      timer = rt.clock.setTimeout(arm, Math.min(left, 2 ** 31 - 1))
      timer.unref?.()
    }
    const stop = (): void => {
      offRevoke()
      if (timer) rt.clock.clearTimeout(timer)
    }
    if (rt.sessions.isRevoked(claims.jti)) { end(); return () => {} }
    arm()
    return () => { done = true; stop() }
  }
}

/** The session-end watcher the gate attached to this request, when it was authenticated. */
export function sessionEndsOf (ctx: Context): SessionEndWatcher | undefined {
  return ctx.state.sessionEnds as SessionEndWatcher | undefined
}

export function sessionOf (ctx: Context): SessionClaims {
  return ctx.state.user as SessionClaims
}

export function setSessionCookie (ctx: Context, token: string, expiresAt: number): void {
  ctx.cookies.set(SESSION_COOKIE, token, {
    httpOnly: true, sameSite: 'strict', path: '/', expires: new Date(expiresAt), secure: ctx.secure, overwrite: true
  })
}

export function clearSessionCookie (ctx: Context): void {
  ctx.cookies.set(SESSION_COOKIE, '', { httpOnly: true, sameSite: 'strict', path: '/', expires: new Date(0), overwrite: true })
}
