// The real plugin (this checkout) in the standalone host with a temp data folder: the one setup the
// bot-command tests share. Only one host runs per mocha process; stop it in `after`.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createHost, type Host, type HostOptions } from '../../standalone/host.js'
import type { Running } from '../../lib/lifecycle.js'
import type { Profile } from '../../standalone/types.js'

export const PLUGIN_ROOT = fileURLToPath(new URL('../../', import.meta.url))
export const MASTER = '10001'
/** Stand-ins for the hosts' built-in command plugins (tests/host/fixtures/plugins/builtins). */
export const BUILTINS = fileURLToPath(new URL('../host/fixtures/plugins/builtins/', import.meta.url))

export interface PluginHost { host: Host; dataDir: string; run: Running; stop(): Promise<void> }

export async function startPluginHost (profile: Profile = 'miao', prefix = 'lingxi-host-', extra: Partial<HostOptions> = {}): Promise<PluginHost> {
  const dataDir = mkdtempSync(join(tmpdir(), prefix))
  const host = createHost({ profile, pluginDir: PLUGIN_ROOT, masters: [MASTER], cooldowns: false, ...extra, env: { LINGXI_DATA_DIR: dataDir, LINGXI_PORT: '0', ...extra.env } })
  await host.start()
  const run = await (host.module as { lingxi: { start(): Promise<Running> } }).lingxi.start()
  return {
    host,
    dataDir,
    run,
    async stop () {
      await stopHost(host)
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

/** Stops the plugin, then the host. The hosts never call a plugin's stop (their exit ends the
 * process); a test process goes on, so the plugin's runtime (its server, timers) is stopped here. */
export async function stopHost (host: Host | undefined): Promise<void> {
  if (!host) return
  const lingxi = host.module?.lingxi as { stop?: () => Promise<void> } | undefined
  try {
    await lingxi?.stop?.()
  } finally {
    await host.stop()
  }
}
