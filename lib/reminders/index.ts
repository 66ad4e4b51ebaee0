// Start-up of the reminders domain: the `reminders` service (the store in <data>/reminders.json, or shared in
// PostgreSQL when set; its timer on the runtime clock), delivering through the host (deliver.ts). The set_reminder tools
// (lib/tools/builtin/reminders.ts), apps/reminders.ts and routes/reminders.ts reach it through the runtime.
import { botIds } from '../host/port.js'
import type { Domain, Runtime } from '../runtime.js'
import { deliverReminder } from './deliver.js'
import { ReminderService } from './service.js'

declare module '../runtime.js' {
  interface Services { reminders: ReminderService }
}

async function initReminders (rt: Runtime): Promise<void> {
  const service = await ReminderService.openShared(rt, {
    settings: () => rt.config.get().reminders,
    clock: rt.clock,
    log: rt.log,
    deliver: (r, o) => deliverReminder(rt, r, o),
    // the host's accounts (deliver.ts sends through r.botId's): a reminder set through another bot is left to its instance
    bots: () => botIds()
  })
  rt.provide('reminders', service)
  rt.onStop.push(() => service.close())
  await service.start()
}

export const remindersDomain: Domain = { name: 'reminders', provides: ['reminders'], needs: [], start: initReminders }
