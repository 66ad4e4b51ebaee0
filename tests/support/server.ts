// Starts the plugin's services and web server in-process on a free port with a temp data folder,
// and logs in the way the dashboard does (login token -> POST /api/auth/login).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startPlugin, type PluginOptions } from '../../lib/plugin.js'
import type { Runtime } from '../../lib/runtime.js'
import type { WebServer } from '../../routes/_http/server.js'

/** The whole plugin with its web server running (a test or bench of HTTP fails when it does not). */
export interface Lingxi {
  rt: Runtime
  web: WebServer
  stop(): Promise<void>
}

export async function startLingxi (opts: PluginOptions = {}): Promise<Lingxi> {
  const plugin = await startPlugin(opts)
  const web = plugin.rt.need('web')
  if (!web.server) {
    await plugin.stop()
    throw new Error(`The web server did not start: ${web.error}`)
  }
  return { rt: plugin.rt, web: web.server, stop: plugin.stop }
}

export interface TestServer {
  lx: Lingxi
  base: string
  dataDir: string
  token: string
  /** fetch with the session token. */
  api(path: string, init?: RequestInit & { json?: unknown }): Promise<{ status: number; body: any; headers: Headers; text: string }>
  login(): Promise<string>
  close(): Promise<void>
}

export async function startTestServer (opts: { dataDir?: string; keepData?: boolean } = {}): Promise<TestServer> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'lingxi-test-'))
  const env = { ...process.env, LINGXI_DATA_DIR: dataDir }
  process.env.LINGXI_PORT = '0'
  const lx = await startLingxi({ env })
  const base = lx.web.localUrl
  const ts: TestServer = {
    lx,
    base,
    dataDir,
    token: '',
    async api (path, init = {}) {
      const headers = new Headers(init.headers)
      if (ts.token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${ts.token}`)
      let body = init.body
      if (init.json !== undefined) { headers.set('Content-Type', 'application/json'); body = JSON.stringify(init.json) }
      const res = await fetch(base + path, { ...init, headers, body: body ?? null })
      const text = await res.text()
      let parsed: unknown = text
      try { parsed = JSON.parse(text) } catch { /* not JSON */ }
      return { status: res.status, body: parsed, headers: res.headers, text }
    },
    async login () {
      const { token } = lx.rt.loginTokens.issue({ userId: '10001', isMaster: true })
      const r = await ts.api('/api/auth/login', { method: 'POST', json: { token } })
      ts.token = (r.body as { data: { token: string } }).data.token
      return ts.token
    },
    async close () {
      await lx.stop()
      if (!opts.keepData) rmSync(dataDir, { recursive: true, force: true })
    }
  }
  await ts.login()
  return ts
}
