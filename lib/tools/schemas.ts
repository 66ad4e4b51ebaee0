// Input schemas of the tools domain (zod): a patch of the `tools` configuration and the fields the
// tool routes share. The routes parse with these; switches.ts writes what they let through.
import { z } from 'zod'

const names = z.array(z.string().max(200), { error: 'must be an array of tool names' }).max(5000)
const risk = z.enum(['low', 'medium', 'high'], { error: 'must be low, medium or high' })
const probability = z.number({ error: 'must be a number between 0 and 1' }).min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1')
/** Per event type (poke, join = a new member, recall = a recalled message); a type left out keeps its value. */
const eventProbabilities = z.strictObject({ poke: probability, join: probability, recall: probability }, {
  error: (iss) => iss.code === 'unrecognized_keys' ? `unknown event type ${iss.keys.join(', ')} (poke, join, recall)` : 'events must be an object with poke, join and/or recall'
}).partial()

/** The built-in tool configuration (config `tools`); every field optional. */
export const toolsConfigPatch = z.strictObject({
  enabled: z.boolean(),
  enabledCategories: names,
  allowedTools: names,
  disabledTools: names,
  disabledCategories: names,
  allowDangerous: z.boolean(),
  dangerousTools: names,
  approvalMode: z.enum(['auto', 'manual', 'deny', 'allow'], { error: 'approvalMode must be auto, manual, deny or allow' }),
  approvalTimeoutMs: z.number().int().min(1000).max(3_600_000),
  approvalLowRiskTools: names,
  approvalMediumRiskTools: names,
  approvalHighRiskTools: names,
  approvalBypassTools: names,
  approvalAllowSessionBypass: z.boolean(),
  approvalSessionBypassMaxRisk: risk,
  maxRounds: z.number().int().min(1).max(50),
  watchScripts: z.boolean(),
  eventProbability: z.number().min(0).max(1),
  eventProbabilities,
  scriptTimeoutMs: z.number().int().min(100).max(600_000),
  confirmTainted: z.boolean(),
  confirmTimeoutMs: z.number().int().min(5000).max(600_000)
}, { error: 'body must be a JSON object' }).partial()

/** `PUT /dangerous`: the master's dangerous list and/or the global allowDangerous switch. */
export const dangerousPatch = z.strictObject({
  dangerousTools: names.optional(),
  allowDangerous: z.boolean({ error: 'allowDangerous must be a boolean' }).optional()
}, { error: 'body must be a JSON object' })

export const toolNameField = z.string({ error: 'toolName is required' }).trim().min(1, 'toolName is required').max(200, 'toolName is too long')
export const enabledField = z.boolean({ error: 'enabled must be a boolean' })
export const argsField = z.record(z.string(), z.unknown(), { error: 'arguments must be an object' })

/** `PUT /event-probability`: the default (`tools.eventProbability`) and/or per event type. */
export const eventProbabilityPatch = z.object({
  probability: probability.optional(),
  events: eventProbabilities.optional()
}, { error: 'body must be a JSON object' }).refine((b) => b.probability !== undefined || b.events !== undefined, 'probability or events is required')
