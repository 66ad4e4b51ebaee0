// What the host loads instead of the plugin when a package every start needs (boot/deps.mjs INLINE, or
// both esbuild and tsx) is missing and could not be installed: nothing of the plugin can run, so this
// says why, in the log, in one private message to the masters once the bot is online, and to a master's
// `#lx…` command, naming the command to run (README, Updating).
// Plain JavaScript like the rest of boot/: the plugin's own host port (lib/host/port.ts) is TypeScript
// and cannot load here, so the two host calls it needs are made directly, the way port.ts makes them
// (the masters' ids: masterIds below).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

/** How often, and how long, the masters' message waits for a bot account to be online. */
const POLL_MS = 5000
const GIVE_UP_MS = 30 * 60 * 1000

function rescueText (report) {
  const names = report.missing.map((m) => m.installed ? `${m.name}@${m.installed} (需要 ${m.range})` : m.name).join(', ')
  const why = report.install?.attempted ? `自动安装失败：${report.install.error ?? 'unknown'}` : report.install?.error === 'LINGXI_INSTALL=0' ? '自动安装已关闭 (LINGXI_INSTALL=0)' : '未能自动安装'
  return `灵犀插件未加载：缺少依赖 ${names}（${why}）。\n请在机器人所在的电脑上运行：\n${report.command}\n然后重启机器人（#重启）。\n` +
    `(lingxi-plugin is not loaded: missing packages ${names}. Run the command above, then restart the bot.)`
}

function botOnline () {
  const uin = globalThis.Bot?.uin
  return Array.isArray(uin) ? uin.length > 0 : uin !== undefined && uin !== null && uin !== ''
}

// The masters' ids have one rule, lib/host/port.ts `masters` (with `hostKind` beside it). This copy exists because
// rescue.mjs runs exactly when the plugin's TypeScript cannot be loaded (no esbuild, no tsx, or a package every
// start needs is missing), so it cannot import port.ts; tests/lifecycle/rescue-masters.test.ts runs both over the
// same host configurations and fails when they differ.

/** The host kind as lib/host/port.ts `hostKind` decides it: the package name, else TRSS's shared server. */
function hostKindOf (root) {
  if (globalThis.__lingxiHostKind) return globalThis.__lingxiHostKind
  let name = ''
  try { name = String(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).name ?? '') } catch { /* no package.json: by features */ }
  return name === 'trss-yunzai' || (globalThis.Bot?.express && globalThis.Bot?.server) ? 'trss' : 'miao'
}

/** The masters' ids from the host's own config module (`<root>/lib/config/config.js`), as lib/host/port.ts `masters` reads them. */
export async function masterIds (root = process.cwd(), botId) {
  try {
    const cfg = (await import(pathToFileURL(join(root, 'lib/config/config.js')).href)).default ?? {}
    if (hostKindOf(root) === 'trss' && cfg.master) {
      const ids = botId !== undefined ? cfg.master[String(botId)] : Object.values(cfg.master).flat()
      if (ids && ids.length) return [...new Set(ids.map(String))]
    }
    return (cfg.masterQQ ?? []).map(String)
  } catch {
    return []
  }
}

async function tellMasters (text, log) {
  const bot = globalThis.Bot
  try {
    if (typeof bot?.sendMasterMsg === 'function') { await bot.sendMasterMsg(text); return } // TRSS-Yunzai
    for (const id of await masterIds()) await bot?.pickFriend?.(id)?.sendMsg?.(text) // icqq (Miao-Yunzai)
  } catch (err) {
    log(`[灵犀] could not message the master: ${err?.message ?? err}`)
  }
}

/** Sends `text` to the masters once a bot account is online (polled; gives up after GIVE_UP_MS). */
function whenOnline (text, log) {
  const until = Date.now() + GIVE_UP_MS
  const poll = () => {
    if (botOnline()) { tellMasters(text, log); return }
    if (Date.now() < until) setTimeout(poll, POLL_MS).unref?.()
  }
  setTimeout(poll, 0).unref?.() // a bot already online (Miao-Yunzai) is told at once
}

/** The stand-in module: `apps` with one class answering a master's `#lx…` commands, `lingxi` undefined. */
export function rescuePlugin (_root, report, log) {
  const text = rescueText(report)
  const logger = globalThis.logger
  if (logger && typeof logger.error === 'function') logger.error(`[灵犀] ${text}`)
  else console.error(`[灵犀] ${text}`)
  whenOnline(text, log)
  const Base = globalThis.plugin
  if (typeof Base !== 'function') return { apps: {}, lingxi: undefined }
  class LingxiRescue extends Base {
    constructor () {
      super({ name: 'lingxi-rescue', dsc: '灵犀未加载', event: 'message', priority: 50, rule: [{ reg: '^#lx', fnc: 'explain' }] })
    }

    async explain () {
      if (!this.e?.isMaster) return false
      await this.reply(text)
      return true
    }
  }
  return { apps: { LingxiRescue }, lingxi: undefined }
}
