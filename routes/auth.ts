// Authentication (docs/api.md; style A): exchange a temporary login token for a session, verify, refresh, logout.
import Router from '@koa/router'
import type { Context } from 'koa'
import { z } from 'zod'
import { AppError } from '../lib/core/errors.js'
import { clientAddress } from '../lib/core/rate-limit.js'
import type { Runtime } from '../lib/runtime.js'
import { clearSessionCookie, sessionOf, setSessionCookie } from './_http/auth.js'
import { A, styledRouter } from './_http/envelope.js'
import { parseBody } from './_http/validate.js'
import { routeDoc } from './_http/route-docs.js'

const loginBody = z.object({ token: z.string({ error: 'token is required' }).min(1, 'token is required').max(512) })
// the session: its token (also set as the HttpOnly cookie) and when it ends (ms)
const sessionData = z.object({ token: z.string(), expiresAt: z.number() })

/** The rate-limit bucket of a request: its client address (proxy headers only with web.trustProxy). */
function bucket (rt: Runtime, ctx: Context, what: string): string {
  return `${what}:${clientAddress(ctx.req, rt.config.get().web.trustProxy)}`
}

function rateLimited (retryAfterSeconds: number): AppError {
  const err = new AppError('RATE_LIMITED', 'Too many failed attempts, try again in a minute')
  return Object.assign(err, { retryAfter: retryAfterSeconds })
}

export function authRoutes (rt: Runtime): Router {
  const r = styledRouter('A', { prefix: '/api/auth' })

  r.post('/login', A(async (ctx) => {
    // Only failures count, and the token is checked first: a valid one (32 random bytes, single use)
    // is never refused because someone else at the same address keeps guessing.
    const key = bucket(rt, ctx, 'login')
    const parsed = loginBody.safeParse(ctx.request.body)
    // With Redis, tokens and failures are shared by every instance (lib/storage/README.md, "Redis").
    const grant = parsed.success ? await rt.loginTokens.consume(parsed.data.token) : undefined
    if (!grant) {
      const before = await rt.loginLimiter.check(key)
      if (before.blocked) throw rateLimited(before.retryAfterSeconds)
      if ((await rt.loginLimiter.failed(key)).blocked) rt.log.warn('Dashboard login: too many invalid tokens; this address is refused for a minute (valid tokens still work)', { address: key.slice('login:'.length) })
      parseBody(ctx, loginBody)
      throw new AppError('INVALID_TOKEN', 'Login token is invalid, already used or expired; ask the bot for a new link')
    }
    const session = rt.sessions.issue(grant.userId, grant.isMaster)
    setSessionCookie(ctx, session.token, session.expiresAt)
    rt.log.info('Dashboard login', { userId: grant.userId })
    return { token: session.token, expiresAt: session.expiresAt }
  }))
  routeDoc(r, 'POST', '/login', { body: loginBody, summary: 'Log in with a one-time login token (from #lx面板)', errors: [429], data: sessionData })

  r.get('/verify', A((ctx) => {
    const s = sessionOf(ctx)
    return { valid: true, userId: s.sub, isMaster: s.isMaster === true, expiresAt: s.exp * 1000 }
  }))
  routeDoc(r, 'GET', '/verify', { summary: 'The session in use', data: z.object({ valid: z.literal(true), userId: z.string(), isMaster: z.boolean(), expiresAt: z.number() }) })

  r.post('/refresh', A(async (ctx) => {
    const s = sessionOf(ctx)
    // Refreshing needs a valid session; the limit (per user) only stops one session minting many.
    const key = `refresh:${s.sub}`
    const before = await rt.loginLimiter.check(key)
    if (before.blocked) throw rateLimited(before.retryAfterSeconds)
    await rt.loginLimiter.failed(key)
    const next = rt.sessions.issue(s.sub, s.isMaster === true)
    await rt.sessions.revoke(s)
    setSessionCookie(ctx, next.token, next.expiresAt)
    return { token: next.token, expiresAt: next.expiresAt }
  }))
  routeDoc(r, 'POST', '/refresh', { summary: 'A new session for the one in use (the old one ends)', data: sessionData, errors: [429] })

  r.post('/logout', A(async (ctx) => {
    await rt.sessions.revoke(sessionOf(ctx))
    clearSessionCookie(ctx)
    return undefined
  }))
  routeDoc(r, 'POST', '/logout', { summary: 'End the session in use', data: null })

  return r
}
