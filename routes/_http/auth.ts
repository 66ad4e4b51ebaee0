// One authentication check for every /api route except login and health (DECISIONS part 4): a
// session JWT from `Authorization: Bearer` or the HttpOnly cookie set at login; never the query string.
import type { Context, Middleware, Next } from 'koa'
import koaJwt from 'koa-jwt'
import type { SessionClaims } from '../../lib/auth/sessions.js'
import type { Runtime } from '../../lib/runtime.js'

export const SESSION_COOKIE = 'lingxi_session'

const PUBLIC_API = new Set(['/api/auth/login', '/api/system/health'])

export function isPublicPath (path: string): boolean {
  return !path.startsWith('/api/') || PUBLIC_API.has(path.replace(/\/$/, ''))
}

export function authMiddleware (rt: Runtime): Middleware {
  const check = koaJwt({
    secret: rt.sessions.secret,
    cookie: SESSION_COOKIE,
    algorithms: ['HS256'],
    key: 'user',
    tokenKey: 'sessionToken',
    isRevoked: async (_ctx, decoded) => rt.sessions.isRevoked((decoded as Partial<SessionClaims>).jti)
  })
  // Tokens already verified skip the signature check (the dashboard sends the same token on every
  // request); expiry and revocation are still checked each time.
  const verified = new Map<string, SessionClaims>()
  return async function auth (ctx: Context, next: Next): Promise<void> {
    if (isPublicPath(ctx.path)) return next()
    const token = tokenOf(ctx)
    const known = token === undefined ? undefined : verified.get(token)
    if (known && known.exp * 1000 > rt.clock.now() && !rt.sessions.isRevoked(known.jti)) {
      ctx.state.user = known
      return next()
    }
    return check(ctx, async () => {
      const claims = ctx.state.user as SessionClaims
      const seen = ctx.state.sessionToken as string | undefined
      if (seen) {
        if (verified.size >= 1000) verified.delete(verified.keys().next().value as string)
        verified.set(seen, claims)
      }
      await next()
    })
  }
}

/** The session token the way koa-jwt finds it: the cookie first, then `Authorization: Bearer`. */
function tokenOf (ctx: Context): string | undefined {
  const cookie = ctx.cookies.get(SESSION_COOKIE)
  if (cookie) return cookie
  const m = /^Bearer\s+(\S+)$/i.exec(ctx.get('Authorization'))
  return m?.[1]
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
