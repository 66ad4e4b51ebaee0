// The built-in tool source: time, user/group/message (host port), the group's history (group log), QQ actions (qq-*.ts),
// memory/knowledge look-ups, web search and page reading (web.ts).
import type { Runtime } from '../../runtime.js'
import type { RegisteredTool, ToolSource } from '../types.js'
import { groupHistoryTool } from './group-history.js'
import { hostTools } from './host.js'
import { lookupSignature, lookupTools } from './lookup.js'
import { timeTools } from './time.js'
import { qqTools } from './qq-tools.js'
import { reminderTools } from './reminders.js'
import { webTools } from './web.js'
import { drawTool } from './draw.js'
import { speakTool } from './speak.js'

export function builtinSource (rt: Runtime): ToolSource & { refresh(): void } {
  let tools: RegisteredTool[] | undefined
  let builtFor = ''
  const listeners: Array<() => void> = []
  // Memory and knowledge may start after the tools domain: their look-ups join when they appear.
  const optional = (): string => lookupSignature(rt)
  const build = (): RegisteredTool[] => {
    builtFor = optional()
    return [...timeTools(rt.clock), ...hostTools(), groupHistoryTool(rt), ...lookupTools(rt), ...qqTools(rt), ...reminderTools(rt), ...webTools(rt), drawTool(rt), speakTool(rt)].map((t) => ({ ...t, source: 'builtin' as const }))
  }
  return {
    id: 'builtin',
    kind: 'builtin',
    list: () => {
      if (tools && builtFor !== optional()) tools = undefined
      return (tools ??= build())
    },
    isCurrent: () => tools !== undefined && builtFor === optional(),
    onChange: (fn) => { listeners.push(fn) },
    /** Rebuilds the list (memory/knowledge may have started after the tools domain). */
    refresh: () => { tools = undefined; for (const fn of listeners) fn() }
  }
}
