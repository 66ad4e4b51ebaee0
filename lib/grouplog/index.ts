// Start-up of the group log domain: the `groupLog` service (the store in <data>/group-log) and the
// prompt contributors that give the model a group's new messages when the bot is called there and a
// shared conversation's rule (context.ts).
import type { Domain, Runtime } from '../runtime.js'
import { groupLogNoteContributor, sharedConversationContributor } from './context.js'
import { GroupLogService } from './service.js'
import { groupLogStep } from './step.js'

declare module '../runtime.js' {
  interface Services { groupLog: GroupLogService }
}

async function initGroupLog (rt: Runtime): Promise<void> {
  const log = await GroupLogService.openShared(rt, () => rt.config.get().groupLog)
  rt.provide('groupLog', log)
  rt.chat.contributors.push(sharedConversationContributor(), groupLogNoteContributor(log, () => rt.config.get()))
  rt.chat.steps.push(groupLogStep(rt))
  rt.onStop.push(() => log.close())
}

export const groupLogDomain: Domain = { name: 'grouplog', provides: ['groupLog'], needs: [], start: initGroupLog }
