// The rules of a preset (lib/presets/types.ts: presetFields, strictId for a new id) as the JSON Schema the
// browser checks the preset editor with (schema-validate.ts) before the server checks again;
// tests/presets/editor-rules.test.ts holds the two together.
import type { SchemaNode } from './schema-validate.js'

const n = (minimum: number, maximum: number, integer = false): SchemaNode => ({ type: integer ? 'integer' : 'number', minimum, maximum })
const str = (maxLength: number, minLength?: number): SchemaNode => ({ type: 'string', maxLength, ...(minLength ? { minLength } : {}) })
const names: SchemaNode = { type: 'array', maxItems: 1000, items: str(200) }
export const PRESET_RULES: SchemaNode = {
  type: 'object',
  required: ['name'],
  properties: {
    id: { type: 'string', pattern: '^[A-Za-z0-9-]{3,50}$' },
    name: str(100, 1), description: str(2000), category: str(50), systemPrompt: str(10000),
    temperature: n(0, 2), maxTokens: n(1, 128000, true), topP: n(0, 1), frequencyPenalty: n(-2, 2), presencePenalty: n(-2, 2), model: str(200),
    tools: { type: 'object', properties: { enabled: { type: 'boolean' }, allowedTools: names, excludedTools: names, allowDangerous: { type: 'boolean' } } },
    voice: { type: 'object', properties: { enabled: { type: 'boolean' }, voiceId: str(200), speed: n(0.1, 10) } },
    memory: { type: 'object', properties: { enabled: { type: 'boolean' }, maxMemories: n(0, 1000, true) } }
  }
}
