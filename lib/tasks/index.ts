// Start-up of the tasks domain: the `tasks` service (stores `tasks` and `task-runs` on the storage port; runs at
// their times through lib/storage/due.ts), each run a chat turn (run.ts). apps/tasks.ts and routes/tasks.ts
// reach it through the runtime.
import { errorText } from '../core/errors.js'
import { botIds, masters, sendPrivate } from '../host/port.js'
import { t } from '../i18n.js'
import type { Domain, Runtime } from '../runtime.js'
import { runTask } from './run.js'
import { TaskService } from './service.js'

declare module '../runtime.js' {
  interface Services { tasks: TaskService }
}

async function initTasks (rt: Runtime): Promise<void> {
  const service = await TaskService.open(rt, {
    settings: () => rt.config.get().tasks,
    timeZone: () => rt.config.get().reminders.timezone,
    currency: () => rt.config.get().pricing.currency,
    clock: rt.clock,
    log: rt.log,
    run: async (task, o) => await runTask(rt, task, o),
    tellMasters: async (task, text) => {
      const cfg = rt.config.get()
      const message = t(cfg.language, text.key, { ...text.vars, p: cfg.commandPrefix })
      try {
        for (const m of await masters(task?.botId)) await sendPrivate(m, message, task?.botId).catch(() => undefined)
      } catch (err) { rt.log.warn('Could not tell the masters about a scheduled task', { error: errorText(err) }) }
    },
    // a task made through one bot account is run by the instance that has it (lib/storage/due.ts)
    bots: () => botIds()
  })
  rt.provide('tasks', service)
  rt.onStop.push(() => service.close())
  await service.start()
}

export const tasksDomain: Domain = { name: 'tasks', provides: ['tasks'], needs: ['conversations'], optional: ['why', 'governance', 'guard', 'groupLog'], start: initTasks }
