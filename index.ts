// Plugin entry (loaded by index.js through tsx). Hosts use the `apps` export; `lingxi` lets the
// standalone host and the tests reach the running instance.
import { LingxiPanel } from './apps/panel.js'
import { LingxiPreset } from './apps/preset.js'
import { LingxiDraw } from './apps/draw.js'
import { LingxiGame } from './apps/game.js'
import { LingxiApproval } from './apps/approval.js'
import { LingxiConfirm } from './apps/confirm.js'
import { LingxiChat } from './apps/chat.js'
import { LingxiConversation } from './apps/conversation.js'
import { LingxiMemory } from './apps/memory.js'
import { LingxiHelp } from './apps/help.js'
import { LingxiPoke } from './apps/poke.js'
import { LingxiJoin } from './apps/join.js'
import { LingxiRecall } from './apps/recall.js'
import { LingxiReminders } from './apps/reminders.js'
import { LingxiTasks } from './apps/tasks.js'
import { LingxiInitiative } from './apps/initiative.js'
import { LingxiTts } from './apps/tts.js'
import { LingxiQuota } from './apps/quota.js'
import { LingxiWhy } from './apps/why.js'
import { LingxiUpdate } from './apps/update.js'
import { ensureStarted, running, stopRunning } from './lib/lifecycle.js'
import { guobaSupport } from './lib/config/guoba.js'

// The plugin starts (lib/plugin.ts, once per process through lib/lifecycle.ts) when the host calls
// the first plugin class's init(), or the standalone host and the tests call lingxi.start().
export const apps = { LingxiPanel, LingxiPreset, LingxiDraw, LingxiGame, LingxiApproval, LingxiConfirm, LingxiConversation, LingxiMemory, LingxiHelp, LingxiPoke, LingxiJoin, LingxiRecall, LingxiReminders, LingxiTasks, LingxiInitiative, LingxiTts, LingxiQuota, LingxiWhy, LingxiUpdate, LingxiChat }

export const lingxi = {
  start: () => ensureStarted(),
  running,
  stop: stopRunning,
  /** What guoba-plugin's supportGuoba() returns (guoba.support.js; lib/config/guoba.ts). */
  guoba: (dashboardUrl?: string) => guobaSupport(async () => (await ensureStarted()).rt.config, dashboardUrl)
}
