// The common start and end of a real-host suite. prepareHost (in its `before` hook): the toolchain, a
// copy of the real TRSS-Yunzai installed in a temp folder with this checkout as its plugin, a redis, two
// free ports (the host's, the plugin's own) and the host's config; it skips the suite, saying why, where
// it cannot run (no snapshot beside the repository, no toolchain, the host's packages out of reach).
// writePluginConfig and startHost then set the plugin up as a user does and start the host with the fake
// OneBot client connected; endHostSuite (its `after` hook) stops and removes it all.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stringify } from 'yaml'
import type { FakeOneBot } from './onebot.js'
import { ensureToolchain, type Toolchain } from './toolchain.js'
import { copyPlugin, freePort, installHost, PLUGIN_KEY, removePluginBundles, removeTree, spawnHost, startRedis, waitForHttp, writeHostConfig, type HostProcess } from './trss-host.js'

/** How long the host may take to start with the plugin (its first start bundles the plugin). */
const START_MS = 120_000

export interface PreparedHost {
  tc: Toolchain
  /** the temp folder holding the host copy, its data and redis */
  work: string
  /** the host copy */
  root: string
  /** LINGXI_DATA_DIR for the plugin */
  dataDir: string
  redis: { port: number; stop(): Promise<void> }
  /** the host's own port (its OneBot adapter at /OneBotv11) */
  serverPort: number
  /** the plugin's own web port (LINGXI_PORT) */
  lingxiPort: number
}

export async function prepareHost (ctx: Mocha.Context, suite: string, ids: { botId: number | string; masterId: number | string }): Promise<PreparedHost> {
  const got = await ensureToolchain()
  if (typeof got === 'string') {
    console.warn(`    real-host ${suite} suite skipped: ${got}`)
    ctx.skip()
  }
  const tc = got as Toolchain
  const work = mkdtempSync(join(tmpdir(), `lingxi-realhost-${suite}-`))
  const root = join(work, 'trss-yunzai')
  const redis = await startRedis(tc, work)
  await installHost(tc, root).catch((err: Error & { unreachable?: boolean }) => {
    if (!err.unreachable) throw err
    console.warn(`    real-host ${suite} suite skipped: the host's packages could not be fetched (${err.message.split('\n')[0]})`)
    ctx.skip()
  })
  await copyPlugin(join(root, 'plugins', PLUGIN_KEY))
  const serverPort = await freePort()
  let lingxiPort: number
  do lingxiPort = await freePort(); while (lingxiPort === serverPort)
  writeHostConfig(root, { botId: String(ids.botId), masterId: String(ids.masterId), serverPort, redisPort: redis.port })
  return { tc, work, root, dataDir: join(work, 'lingxi-data'), redis, serverPort, lingxiPort }
}

/** The plugin's own settings, as a user writes them: <data>/config.yaml, private. */
export function writePluginConfig (dataDir: string, config: Record<string, unknown>): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  writeFileSync(join(dataDir, 'config.yaml'), stringify(config), { mode: 0o600 })
}

/**
 * Starts `node .` in the host copy with the plugin's data folder and port, waits for the plugin's
 * health, then connects `bot` to the host's OneBot adapter. A host that does not come up is stopped.
 * `env` adds to (or overrides) the host's environment (support/upgrade.ts: pnpm on PATH, not a CI).
 */
export async function startHostWith (p: PreparedHost, bot: FakeOneBot, env: Record<string, string> = {}): Promise<HostProcess> {
  const host = spawnHost(p.tc, p.root, { ...env, LINGXI_DATA_DIR: p.dataDir, LINGXI_PORT: String(p.lingxiPort) })
  try {
    await waitForHttp(`http://127.0.0.1:${p.lingxiPort}/api/system/health`, host, START_MS)
    await bot.connectToHost(p.serverPort, () => host.output())
  } catch (err) {
    bot.close()
    await host.stop('SIGTERM')
    throw err
  }
  return host
}

/** Anything a suite started besides the host: stopped or closed at its end. */
type Closable = { close(): unknown } | { stop(): Promise<unknown> } | undefined

/**
 * The end of a suite (its `after` hook): the fake client and the host stopped, then the other servers;
 * the host copy removed, or kept for a look (with its log, lingxi-realhost.log) when a test failed
 * outside CI.
 */
export async function endHostSuite (ctx: Mocha.Context, p: Pick<PreparedHost, 'root' | 'work'> | undefined, parts: { bot?: FakeOneBot | undefined; host?: HostProcess | undefined; servers: Closable[] }): Promise<void> {
  parts.bot?.close()
  await parts.host?.stop('SIGTERM')
  for (const s of parts.servers) await (s && 'stop' in s ? s.stop() : s?.close())
  if (!p?.work) return
  const failed = ctx.test?.parent?.tests.some((t) => t.state === 'failed')
  removePluginBundles(join(p.root, 'plugins', PLUGIN_KEY))
  if (failed && !process.env.CI) console.log(`    kept for inspection: ${p.work}`)
  else removeTree(p.work)
}

/** A dashboard session on the plugin's own port (`base`), from the login link `#lx面板` sends the master. */
export async function masterSession (bot: FakeOneBot, masterId: number, base: string): Promise<string> {
  const since = Date.now()
  await bot.privateMessage(masterId, '#lx面板')
  const reply = await bot.waitForSent((s) => s.userId === String(masterId) && s.text.includes('login#token='), 20_000, since)
  const token = /#token=([\w-]+)/.exec(reply.text)?.[1]
  if (!token) throw new Error(`no login link in: ${reply.text}`)
  const res = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token }) })
  if (res.status !== 200) throw new Error(`login answered ${res.status}: ${await res.text()}`)
  return ((await res.json()) as { data: { token: string } }).data.token
}
