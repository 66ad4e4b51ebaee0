// A new preset's fields and rules (types.ts presetInput) as JSON Schema, draft 2020-12, the input side, made
// by the project's one conversion (lib/config/schema-json.ts inputJsonSchema). Served by
// GET /api/presets/schema; the dashboard's preset editor checks a draft with it before the server checks again.
import { inputJsonSchema } from '../config/schema-json.js'
import { presetInput } from './types.js'

let built: Record<string, unknown> | undefined

/** The schema, built once (it does not change while the plugin runs). */
export function presetJsonSchema (): Record<string, unknown> {
  built ??= inputJsonSchema(presetInput)
  return built
}
