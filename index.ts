// Plugin entry (loaded by index.js through tsx). Hosts use the `apps` export; `lingxi` lets the
// standalone host and the tests reach the running instance.
import { LingxiPanel } from './apps/panel.js'
import { LingxiPreset } from './apps/preset.js'
import { LingxiDraw } from './apps/draw.js'
import { LingxiGame } from './apps/game.js'
import { LingxiApproval } from './apps/approval.js'
import { LingxiChat } from './apps/chat.js'
import { LingxiMemory } from './apps/memory.js'
import { LingxiHelp } from './apps/help.js'
import { LingxiPoke } from './apps/poke.js'
import { ensureStarted, running, setStarter, stopRunning, type Running } from './lib/lifecycle.js'
import { onProcessExit } from './lib/host/process-exit.js'
import { startLingxi } from './routes/index.js'

setStarter(async (): Promise<Running> => {
  const l = await startLingxi()
  // The hosts never call stop (lib/host/process-exit.ts): what is buffered is written on exit.
  const offExit = onProcessExit(() => l.rt.stats.flushSync())
  const stop = async (): Promise<void> => {
    try { await l.stop() } finally { offExit() }
  }
  return { rt: l.rt, baseUrls: l.web.baseUrls, localUrl: l.web.localUrl, stop }
})

export const apps = { LingxiPanel, LingxiPreset, LingxiDraw, LingxiGame, LingxiApproval, LingxiMemory, LingxiHelp, LingxiPoke, LingxiChat }

export const lingxi = {
  start: ensureStarted,
  running,
  stop: stopRunning
}
