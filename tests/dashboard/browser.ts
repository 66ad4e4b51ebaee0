// Debian's chromium for the dashboard tests (flags that let it run headless in a container). launch() gives each run a
// new empty profile that playwright removes on close.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser } from 'playwright-core'
import { ensureDashboardBuilt } from '../../routes/_http/dashboard-build.js'

export const CHROMIUM = '/usr/bin/chromium'
export const PLUGIN_DIR = join(import.meta.dirname, '..', '..')

/** Skips the suite (with the reason) when chromium is absent; builds the dashboard when dist is stale. */
export async function prepare (ctx: Mocha.Context): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    console.warn(`    dashboard e2e skipped: ${CHROMIUM} is missing (apt-get install -y chromium; .ci/run does it)`)
    ctx.skip()
  }
  await ensureDashboardBuilt(PLUGIN_DIR)
  if (!existsSync(join(PLUGIN_DIR, 'resources', 'dist', 'index.html'))) throw new Error('dashboard build missing after ensureDashboardBuilt')
}

export function launch (): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync']
  })
}
