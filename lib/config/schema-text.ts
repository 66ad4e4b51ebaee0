// The title and description of every configuration field in English and Chinese, keyed by its dotted
// path (`*` for a list item or a record's value), read by the JSON Schema the dashboard's settings forms
// are built from (schema-json.ts, GET /api/config/schema) and by the generator of config/default.yaml
// (default-yaml.ts). The texts are declared beside each field in the domains' config.ts (field-doc.ts;
// the governance sections by path, lib/governance/config.ts) and collected here from the composed
// schema: a field added without its texts fails tests/web/config-schema.test.ts.
import { z } from 'zod'
import { GOVERNANCE_DOCS } from '../governance/config.js'
import { docOf, innerOf, type FieldDoc, type FieldText } from './field-doc.js'
import { configSchema } from './schema.js'

export type { FieldText } from './field-doc.js'

/** Paths whose fields are those of another path (a group's overrides, one user's quota). */
export const TEXT_ALIASES: Readonly<Record<string, string>> = {
  'groups.*.delivery': 'delivery',
  'groups.*.proactive': 'proactive',
  'groups.*.events': 'tools.eventProbabilities',
  'groups.*.qqActions': 'qqActions',
  'groups.*.tts': 'tts',
  'groups.*.access': 'access',
  'groups.*.quotas': 'quotas',
  'groups.*.moderation': 'moderation',
  'groups.*.guard': 'guard',
  'groups.*.initiative': 'initiative',
  'quotas.users.*': 'quotas.user'
}

/** Every documented path of a schema, outer documentation first (a wrapper's over its inner schema's). */
function collectDocs (schema: z.ZodType, path: string, out: Map<string, FieldDoc>): void {
  const own = docOf(schema)
  if (own && path && !out.has(path)) out.set(path, own)
  const at = (key: string): string => path ? `${path}.${key}` : key
  if (schema instanceof z.ZodObject) {
    for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) collectDocs(field, at(key), out)
  } else if (schema instanceof z.ZodArray) {
    collectDocs(schema.element as z.ZodType, at('*'), out)
  } else if (schema instanceof z.ZodRecord) {
    collectDocs(schema.valueType as z.ZodType, at('*'), out)
  } else if (schema instanceof z.ZodUnion) {
    for (const option of schema.options as readonly z.ZodType[]) collectDocs(option, path, out)
  } else {
    const inner = innerOf(schema)
    if (inner) collectDocs(inner, path, out)
  }
}

function configDocs (): ReadonlyMap<string, FieldDoc> {
  const out = new Map<string, FieldDoc>()
  collectDocs(configSchema, '', out)
  for (const [path, d] of Object.entries(GOVERNANCE_DOCS)) if (!out.has(path)) out.set(path, d)
  return out
}

/** The documentation of every field by path: texts, and the notes config/default.yaml shows. */
export const CONFIG_DOCS: ReadonlyMap<string, FieldDoc> = configDocs()

export const SCHEMA_TEXT: Readonly<Record<string, FieldText>> = Object.fromEntries([...CONFIG_DOCS].map(([path, d]) => [path, d.text]))
