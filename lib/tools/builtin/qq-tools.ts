// Category `qq`: the QQ actions, moderation (qq-moderation.ts) and sending (qq-send.ts), each behind the
// rules of qq-rules.ts. One entry for the built-in source (index.ts).
import type { Runtime } from '../../runtime.js'
import { qqModerationTools } from './qq-moderation.js'
import { qqSendTools } from './qq-send.js'
import type { BuiltinTool } from './util.js'

export function qqTools (rt: Runtime): BuiltinTool[] {
  return [...qqModerationTools(rt), ...qqSendTools(rt)]
}
