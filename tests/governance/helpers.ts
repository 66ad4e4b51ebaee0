// Helpers of the governance tests: the plugin in the standalone host with the fake model, and the
// dashboard API of that plugin with a master session.
import type { Runtime } from '../../lib/runtime.js'
import type { PluginHost } from '../support/plugin-host.js'

/** fetch against the plugin's own web server with a fresh master session. */
export async function apiOf (rt: Runtime): Promise<(path: string, init?: RequestInit & { json?: unknown }) => Promise<{ status: number; body: any }>> {
  const base = rt.need('web').server?.localUrl
  if (!base) throw new Error('the web server did not start')
  const { token } = rt.loginTokens.issue({ userId: '10001', isMaster: true })
  const login = await fetch(base + '/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) })
  const session = ((await login.json()) as { data: { token: string } }).data.token
  return async (path, init = {}) => {
    const headers = new Headers(init.headers)
    headers.set('authorization', `Bearer ${session}`)
    let body = init.body
    if (init.json !== undefined) { headers.set('content-type', 'application/json'); body = JSON.stringify(init.json) }
    const res = await fetch(base + path, { ...init, headers, body: body ?? null })
    const text = await res.text()
    let parsed: unknown = text
    try { parsed = JSON.parse(text) } catch { /* not JSON */ }
    return { status: res.status, body: parsed }
  }
}

/** What the bot sent to a group or a user since transcript index `since`. */
export function saidTo (p: PluginHost, target: 'group' | 'private', id: string, since = 0): string[] {
  return p.host.transcript.slice(since).filter((t) => t.target === target && t.targetId === id).map((t) => t.text)
}
