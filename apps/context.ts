// What every bot command starts with: the running plugin, the normalised session of the event
// (lib/host/session.ts) and the reply texts in the configured language (lib/i18n.ts).
import type { HostEvent } from '../lib/host/types.js'
import { sessionOf, type HostSession } from '../lib/host/session.js'
import { t, type Language, type TextKey } from '../lib/i18n.js'
import { ensureStarted, type Running } from '../lib/lifecycle.js'
import type { Runtime } from '../lib/runtime.js'
import { commandPrefix } from './command.js'

export interface BotContext {
  rt: Runtime
  run: Running
  s: HostSession
  lang: Language
  /** a reply text; `{p}` is the command prefix unless given */
  tr(key: TextKey, vars?: Record<string, string | number>): string
  /** sends `tr(key, vars)` to the chat of the event */
  say(key: TextKey, vars?: Record<string, string | number>, quote?: boolean): Promise<void>
}

export async function contextOf (e: HostEvent): Promise<BotContext> {
  const run = await ensureStarted()
  const rt = run.rt
  const cfg = rt.config.get()
  const lang = cfg.language
  const s = sessionOf(e)
  const tr = (key: TextKey, vars: Record<string, string | number> = {}): string => t(lang, key, { p: commandPrefix(), ...vars })
  return {
    rt,
    run,
    s,
    lang,
    tr,
    say: async (key, vars, quote) => { await s.reply(tr(key, vars), quote) }
  }
}
