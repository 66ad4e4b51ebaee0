// Spec 4.1 (style A): exchange a temporary login token for a session, verify, refresh, logout.
import Router from '@koa/router'
import type { Context } from 'koa'
import { z } from 'zod'
import { AppError } from '../lib/core/errors.js'
import type { Runtime } from '../lib/runtime.js'
import { clearSessionCookie, sessionOf, setSessionCookie } from './_http/auth.js'
import { A } from './_http/envelope.js'
import { parseBody } from './_http/validate.js'

const loginBody = z.object({ token: z.string({ error: 'token is required' }).min(1, 'token is required').max(512) })

function limit (rt: Runtime, ctx: Context, what: string): void {
  const key = `${what}:${ctx.ip}`
  if (!rt.loginLimiter.take(key)) {
    const err = new AppError('RATE_LIMITED', 'Too many attempts, try again in a minute')
    Object.assign(err, { retryAfter: Math.ceil(rt.loginLimiter.retryAfterMs(key) / 1000) })
    throw err
  }
}

export function authRoutes (rt: Runtime): Router {
  const r = new Router({ prefix: '/api/auth' })

  r.post('/login', A(async (ctx) => {
    limit(rt, ctx, 'login')
    const { token } = parseBody(ctx, loginBody)
    const grant = rt.loginTokens.consume(token)
    if (!grant) throw new AppError('INVALID_TOKEN', 'Login token is invalid, already used or expired; ask the bot for a new link')
    const session = rt.sessions.issue(grant.userId, grant.isMaster)
    setSessionCookie(ctx, session.token, session.expiresAt)
    rt.log.info('Dashboard login', { userId: grant.userId })
    return { token: session.token, expiresAt: session.expiresAt }
  }))

  r.get('/verify', A((ctx) => {
    const s = sessionOf(ctx)
    return { valid: true, userId: s.sub, isMaster: s.isMaster === true, expiresAt: s.exp * 1000 }
  }))

  r.post('/refresh', A(async (ctx) => {
    limit(rt, ctx, 'refresh')
    const s = sessionOf(ctx)
    const next = rt.sessions.issue(s.sub, s.isMaster === true)
    await rt.sessions.revoke(s)
    setSessionCookie(ctx, next.token, next.expiresAt)
    return { token: next.token, expiresAt: next.expiresAt }
  }))

  r.post('/logout', A(async (ctx) => {
    await rt.sessions.revoke(sessionOf(ctx))
    clearSessionCookie(ctx)
    return undefined
  }))

  return r
}
