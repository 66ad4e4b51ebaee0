// The common start of a real-host suite (in its `before` hook): the toolchain, a copy of the real
// TRSS-Yunzai installed in a temp folder with this checkout as its plugin, a redis, two free ports (the
// host's, the plugin's own) and the host's config. Skips the suite, saying why, where it cannot run
// (no snapshot beside the repository, no toolchain, the host's packages out of reach).
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureToolchain, type Toolchain } from './toolchain.js'
import { copyPlugin, freePort, installHost, PLUGIN_KEY, startRedis, writeHostConfig } from './trss-host.js'

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
