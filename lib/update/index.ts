// The update domain: provides `update` (UpdateService): the plugin's version, the remote check, `#lx更新`
// (apps/update.ts), and what the loader found missing among the packages (boot/deps.mjs), which it says
// once at start in the log and in a private message to the masters (README, Updating).
import { errorText } from '../core/errors.js'
import { PLUGIN_DIR } from '../core/paths.js'
import { botIds, HOST_RESTART_COMMAND, masters, sendPrivate } from '../host/port.js'
import { t } from '../i18n.js'
import type { Domain, Runtime } from '../runtime.js'
import { UpdateService } from './service.js'

declare module '../runtime.js' {
  interface Services { update: UpdateService }
}

/** How often, and for how long, the masters' message waits for a bot account to be online. */
const ONLINE_POLL_MS = 5000
const ONLINE_WAIT_MS = 30 * 60 * 1000

/** The masters' message about missing packages, or undefined when nothing is missing. */
function missingPackagesText (rt: Runtime, service: UpdateService): string | undefined {
  const deps = service.dependencies()
  if (!deps.missing.length) return undefined
  const lang = rt.config.get().language
  const names = deps.missing.map((m) => m.installed ? `${m.name}@${m.installed} (${m.range})` : m.name).join(', ')
  const why = deps.install?.attempted ? t(lang, 'deps.why.failed', { error: deps.install.error ?? '?' }) : t(lang, 'deps.why.off')
  const lines = deps.featuresOff.length ? deps.featuresOff.map((f) => `• ${f.text} (${f.packages.join(', ')})`).join('\n') : '-'
  return t(lang, 'deps.master', { names, why, lines, command: deps.command, restart: HOST_RESTART_COMMAND })
}

/** Logs the missing packages and tells the masters once a bot account is online. */
function announceMissing (rt: Runtime, service: UpdateService): void {
  const text = missingPackagesText(rt, service)
  if (!text) return
  rt.log.warn(text.replace(/\n/g, ' '))
  const until = rt.clock.now() + ONLINE_WAIT_MS
  let timer: NodeJS.Timeout | undefined
  const tell = async (): Promise<void> => {
    for (const id of await masters()) {
      try { await sendPrivate(id, text) } catch (err) { rt.log.warn('Could not tell the master about the missing packages', { error: errorText(err) }) }
    }
  }
  const poll = (): void => {
    timer = undefined
    if (botIds().length > 0) { void tell(); return }
    if (rt.clock.now() < until) timer = rt.clock.setTimeout(poll, ONLINE_POLL_MS)
  }
  timer = rt.clock.setTimeout(poll, 0) // a bot already online (Miao-Yunzai) is told at once
  rt.onStop.push(() => { if (timer) rt.clock.clearTimeout(timer) })
}

async function initUpdate (rt: Runtime): Promise<void> {
  const service = new UpdateService(rt, PLUGIN_DIR)
  rt.provide('update', service)
  announceMissing(rt, service)
}

export const updateDomain: Domain = { name: 'update', provides: ['update'], needs: [], start: initUpdate }
