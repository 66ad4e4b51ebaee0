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
    isRevoked: async (_ctx, decoded) => rt.sessions.isRevoked((decoded as Partial<SessionClaims>).jti)
  })
  return async function auth (ctx: Context, next: Next): Promise<void> {
    if (isPublicPath(ctx.path)) return next()
    return check(ctx, next)
  }
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
