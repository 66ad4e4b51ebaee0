// What the input step needs of a bot event's context (apps/context.ts's BotContext has all of it).
import type { HostSession } from '../host/session.js'
import type { TextKey } from '../i18n.js'
import type { Runtime } from '../runtime.js'

export interface InputContext {
  rt: Runtime
  s: HostSession
  tr(key: TextKey, vars?: Record<string, string | number>): string
}
