// The answer schema of a recurrence (lib/reminders/types.ts Recurrence), as the reminders' and the scheduled
// tasks' routes both show it.
import { z } from 'zod'

export const recurrenceData = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('daily'), hour: z.number(), minute: z.number() }),
  z.object({ kind: z.literal('weekly'), weekday: z.number(), hour: z.number(), minute: z.number() }),
  z.object({ kind: z.literal('monthly'), day: z.number(), hour: z.number(), minute: z.number() }),
  z.object({ kind: z.literal('interval'), minutes: z.number() })
])
