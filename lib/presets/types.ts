// Preset (persona) shape shared by both route variants (docs/api.md, Groups of routes: presets) and its validation.
import { z } from 'zod'

const APPROVAL_MODES = ['auto', 'manual', 'deny', 'allow'] as const

interface PresetTools {
  enabled: boolean
  allowedTools: string[]
  excludedTools: string[]
  allowDangerous: boolean
  toolApprovalMode?: (typeof APPROVAL_MODES)[number]
}

/** What is stored (user presets) or shipped (built-in presets). `type`/`isDefault` are derived on read. */
export interface PresetRecord {
  id: string
  name: string
  description: string
  category: string
  systemPrompt: string
  temperature: number
  maxTokens: number
  topP?: number
  frequencyPenalty?: number
  presencePenalty?: number
  model?: string
  tools: PresetTools
  voice: { enabled: boolean; voiceId: string; speed: number }
  memory: { enabled: boolean; maxMemories: number }
  /** Built-in id this preset was created from (POST /api/preset/from-builtin). */
  createdFrom?: string
  createdAt: string
  updatedAt: string
}

/** A preset as the API returns it. */
export interface PresetView extends PresetRecord {
  type: 'system' | 'user'
  isBuiltin: boolean
  isDefault: boolean
}

/** A preset as the API answers it (PresetView): the data schema of the preset routes in the OpenAPI document. */
export const presetView = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  category: z.string(),
  systemPrompt: z.string(),
  temperature: z.number(),
  maxTokens: z.number(),
  topP: z.number().optional(),
  frequencyPenalty: z.number().optional(),
  presencePenalty: z.number().optional(),
  model: z.string().optional(),
  tools: z.object({ enabled: z.boolean(), allowedTools: z.array(z.string()), excludedTools: z.array(z.string()), allowDangerous: z.boolean(), toolApprovalMode: z.enum(APPROVAL_MODES).optional() }),
  voice: z.object({ enabled: z.boolean(), voiceId: z.string(), speed: z.number() }),
  memory: z.object({ enabled: z.boolean(), maxMemories: z.number() }),
  createdFrom: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  type: z.enum(['system', 'user']),
  isBuiltin: z.boolean(),
  isDefault: z.boolean()
})

/** Ids that name other routes under /api/presets and /api/preset (docs/api.md, Groups of routes). */
export const RESERVED_IDS = new Set(['config', 'builtin', 'categories', 'import', 'list', 'from-builtin', 'schema'])

/** Variant A ids: 3-50 letters, digits and hyphens. */
export const strictId = z.string().regex(/^[A-Za-z0-9-]{3,50}$/, 'id must be 3-50 letters, digits or hyphens')
/** Variant B ids also allow underscores (`custom_<builtinId>_<timestamp>`). */
export const looseId = z.string().regex(/^[A-Za-z0-9_-]{3,80}$/, 'id must be 3-80 letters, digits, hyphens or underscores')

const names = z.array(z.string().max(200)).max(1000)

/** Every editable field, none required (patches); create() checks the required ones. */
export const presetFields = z.object({
  name: z.string().trim().min(1, 'name is required').max(100, 'name must be at most 100 characters'),
  description: z.string().max(2000),
  category: z.string().max(50),
  systemPrompt: z.string().max(10000, 'systemPrompt must be at most 10000 characters'),
  temperature: z.number().min(0, 'temperature must be 0-2').max(2, 'temperature must be 0-2'),
  maxTokens: z.number().int('maxTokens must be an integer').min(1, 'maxTokens must be 1-128000').max(128000, 'maxTokens must be 1-128000'),
  // null = unset (the model's own default applies again)
  topP: z.number().min(0).max(1).nullable(),
  frequencyPenalty: z.number().min(-2).max(2).nullable(),
  presencePenalty: z.number().min(-2).max(2).nullable(),
  model: z.string().max(200),
  tools: z.object({
    enabled: z.boolean(),
    allowedTools: names,
    excludedTools: names,
    allowDangerous: z.boolean(),
    // null = remove the override (variant B, PUT /api/presets/config)
    toolApprovalMode: z.enum(APPROVAL_MODES).nullable()
  }).partial(),
  voice: z.object({ enabled: z.boolean(), voiceId: z.string().max(200), speed: z.number().min(0.1).max(10) }).partial(),
  memory: z.object({ enabled: z.boolean(), maxMemories: z.number().int().min(0).max(1000) }).partial(),
  createdFrom: z.string().max(100)
}).partial()

/**
 * A new preset as variant A creates it (POST /api/presets): a strict id and a name, every other field
 * optional. Served as JSON Schema by GET /api/presets/schema; the dashboard's preset editor checks a draft
 * with it before sending (the name trimmed first, as the server trims it before its length check).
 */
export const presetInput = presetFields.required({ name: true }).extend({ id: strictId })

export type PresetPatch = z.output<typeof presetFields> & { isDefault?: boolean }

export const DEFAULT_FIELDS: Omit<PresetRecord, 'id' | 'name' | 'createdAt' | 'updatedAt'> = {
  description: '',
  category: 'general',
  systemPrompt: '',
  temperature: 0.7,
  maxTokens: 4096,
  tools: { enabled: true, allowedTools: [], excludedTools: [], allowDangerous: false },
  voice: { enabled: false, voiceId: '', speed: 1 },
  memory: { enabled: true, maxMemories: 10 }
}
