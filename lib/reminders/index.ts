// Start-up of the reminders domain: the `reminders` service (the store in <data>/reminders.json, its
// timer on the runtime clock), delivering through the host (deliver.ts). The set_reminder tools
// (lib/tools/builtin/reminders.ts), apps/reminders.ts and routes/reminders.ts reach it through the runtime.
import type { Domain, Runtime } from '../runtime.js'
import { deliverReminder } from './deliver.js'
import { ReminderService } from './service.js'

declare module '../runtime.js' {
  interface Services { reminders: ReminderService }
}

async function initReminders (rt: Runtime): Promise<void> {
  const service = await ReminderService.open(rt.paths.dataDir, {
    settings: () => rt.config.get().reminders,
    clock: rt.clock,
    log: rt.log,
    deliver: (r, o) => deliverReminder(rt, r, o)
  })
  rt.provide('reminders', service)
  rt.onStop.push(() => service.close())
  await service.start()
}

export const remindersDomain: Domain = { name: 'reminders', provides: ['reminders'], needs: [], start: initReminders }
