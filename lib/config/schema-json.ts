// The configuration schema as JSON Schema (draft 2020-12, the input side: what a client may write), each
// field with its title and description in English (`title`, `description`) and Chinese (`x-title-zh`,
// `x-description-zh`) from schema-text.ts, and `x-secret` where the API shows the value masked
// (secrets.ts). Served by GET /api/config/schema; the dashboard builds its settings forms from it.
import { z } from 'zod'
import { configSchema } from './schema.js'
import { SCHEMA_TEXT, TEXT_ALIASES, type FieldText } from './schema-text.js'
import { isSecretKey, isSecretMap } from './secrets.js'

type JsonSchemaNode = Record<string, unknown>

/** The text of a field path (`*` for list items and record values), through the aliases. */
export function fieldText (path: string): FieldText | undefined {
  const own = SCHEMA_TEXT[path]
  if (own) return own
  for (const [from, to] of Object.entries(TEXT_ALIASES)) {
    if (path === from || path.startsWith(`${from}.`)) return SCHEMA_TEXT[to + path.slice(from.length)]
  }
  return undefined
}

type Visit = (node: JsonSchemaNode, path: string, key: string) => void

/** Calls `visit` for every named property of every object in the schema (not list items or record values themselves). */
export function eachField (node: JsonSchemaNode, visit: Visit, path = ''): void {
  const props = node.properties as Record<string, JsonSchemaNode> | undefined
  if (props) {
    for (const [k, v] of Object.entries(props)) {
      const p = path ? `${path}.${k}` : k
      visit(v, p, k)
      eachField(v, visit, p)
    }
  }
  const items = node.items
  if (items && typeof items === 'object') eachField(items as JsonSchemaNode, visit, `${path}.*`)
  const values = node.additionalProperties
  if (values && typeof values === 'object') eachField(values as JsonSchemaNode, visit, `${path}.*`)
  for (const alt of (node.anyOf as JsonSchemaNode[] | undefined) ?? []) eachField(alt, visit, path)
}

/**
 * A zod schema as JSON Schema, the input side (what a client may send): the one conversion of the
 * project (the configuration here, every route's body and query in the OpenAPI document).
 */
export function inputJsonSchema (schema: z.ZodType): JsonSchemaNode {
  const out: JsonSchemaNode = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    // z.url({ protocol }) is a plain `format: uri` in JSON Schema: its protocol rule becomes a pattern
    override: (ctx) => {
      const def = (ctx.zodSchema as { _zod: { def: { format?: string; protocol?: unknown } } })._zod.def
      if (def.format === 'url' && def.protocol instanceof RegExp) ctx.jsonSchema.pattern = `^(?:${def.protocol.source.replace(/^\^/, '').replace(/\$$/, '')}):`
    }
  })
  delete out.$schema
  return out
}

/** The bare JSON Schema of the configuration (no texts). */
export function bareConfigJsonSchema (): JsonSchemaNode {
  return inputJsonSchema(configSchema)
}

let built: JsonSchemaNode | undefined

/** The annotated schema, built once (the schema does not change while the plugin runs). */
export function configJsonSchema (): JsonSchemaNode {
  if (built) return built
  const schema = bareConfigJsonSchema()
  eachField(schema, (node, path, key) => {
    const text = fieldText(path)
    if (text) {
      const [en, zh, descEn, descZh] = text
      node.title = en
      node['x-title-zh'] = zh
      if (descEn) node.description = descEn
      if (descZh) node['x-description-zh'] = descZh
    }
    if ((node.type === 'string' && isSecretKey(key)) || isSecretMap(key)) node['x-secret'] = true
  })
  built = schema
  return schema
}
