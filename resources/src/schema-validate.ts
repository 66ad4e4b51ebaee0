// Checks a value against the JSON Schema the server serves (GET /api/config/schema), with the rules the
// server's zod schema has and JSON Schema can say: type, integer, minimum/maximum, length, pattern,
// enum/const, URL format, required keys, list sizes, record key patterns. Rules only the server knows
// (unique names, timezones) come back from the server with their paths. Issues name a message key
// (`sv.<rule>`) and its values; schema-form.tsx shows them in the page language.

/** The part of JSON Schema the configuration schema uses, plus the server's text and secret marks. */
export interface SchemaNode {
  type?: string
  title?: string
  description?: string
  'x-title-zh'?: string
  'x-description-zh'?: string
  'x-secret'?: boolean
  properties?: Record<string, SchemaNode>
  required?: string[]
  additionalProperties?: SchemaNode | boolean
  propertyNames?: SchemaNode
  items?: SchemaNode
  enum?: unknown[]
  const?: unknown
  anyOf?: SchemaNode[]
  default?: unknown
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  exclusiveMaximum?: number
  minLength?: number
  maxLength?: number
  pattern?: string
  format?: string
  minItems?: number
  maxItems?: number
}

export interface Issue { path: string, key: string, vars?: Record<string, string | number> }

/** A JSON text field whose text does not parse (kept as typed so the field still shows it). */
export class BadJson { constructor (readonly text: string) {} }

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof BadJson)
const join = (path: string, k: string | number): string => path ? `${path}.${k}` : String(k)

/** A schema with no rule at all (any JSON value), or an object or list made only of such. */
export function isOpaque (n: SchemaNode): boolean {
  if (n.type === undefined && !n.anyOf && !n.enum && n.const === undefined) return true
  if (n.type === 'object' && !n.properties && (n.additionalProperties === true || (typeof n.additionalProperties === 'object' && isOpaque(n.additionalProperties)))) return true
  return n.type === 'array' && n.items !== undefined && isOpaque(n.items)
}

const patterns = new Map<string, RegExp | null>()
function regex (source: string): RegExp | null {
  if (!patterns.has(source)) {
    let re: RegExp | null = null
    try { re = new RegExp(source, 'u') } catch { try { re = new RegExp(source) } catch { re = null } }
    patterns.set(source, re)
  }
  return patterns.get(source) ?? null
}

function isUrl (s: string): boolean {
  try { const u = new URL(s); return /^[a-z][\w+.-]*:$/i.test(u.protocol) && (!/^https?:$/.test(u.protocol) || u.hostname !== '') } catch { return false }
}

/** The issues of `value` against `node`, each with its dotted path (list indexes and record keys included). */
export function validate (node: SchemaNode, value: unknown, path = ''): Issue[] {
  if (value instanceof BadJson) return [{ path, key: 'json' }]
  if (isOpaque(node)) return []
  if (node.anyOf) {
    let best: Issue[] | undefined
    for (const alt of node.anyOf) {
      const issues = validate(alt, value, path)
      if (!issues.length) return []
      if (!best || issues.length < best.length) best = issues
    }
    // '' or a URL: say what is wanted
    if (node.anyOf.some(a => a.format === 'uri')) return [{ path, key: 'url' }]
    return best ?? []
  }
  if (node.const !== undefined && value !== node.const) return [{ path, key: 'enum', vars: { list: JSON.stringify(node.const) } }]
  if (node.enum && !node.enum.includes(value)) return [{ path, key: 'enum', vars: { list: node.enum.join(', ') } }]
  switch (node.type) {
    case 'boolean': return typeof value === 'boolean' ? [] : [{ path, key: 'type' }]
    case 'integer':
    case 'number': return number(node, value, path)
    case 'string': return string(node, value, path)
    case 'array': return list(node, value, path)
    case 'object': return object(node, value, path)
    default: return []
  }
}

function number (node: SchemaNode, value: unknown, path: string): Issue[] {
  // a number field holds the typed text until it is a number: '' is an error, never 0
  if (value === '' || value === undefined || value === null) return [{ path, key: 'required' }]
  if (typeof value !== 'number' || !Number.isFinite(value)) return [{ path, key: 'notNumber' }]
  if (node.type === 'integer' && !Number.isInteger(value)) return [{ path, key: 'integer' }]
  if (node.minimum !== undefined && value < node.minimum) return [{ path, key: 'min', vars: { n: node.minimum } }]
  if (node.maximum !== undefined && value > node.maximum) return [{ path, key: 'max', vars: { n: node.maximum } }]
  if (node.exclusiveMinimum !== undefined && value <= node.exclusiveMinimum) return [{ path, key: 'gt', vars: { n: node.exclusiveMinimum } }]
  if (node.exclusiveMaximum !== undefined && value >= node.exclusiveMaximum) return [{ path, key: 'lt', vars: { n: node.exclusiveMaximum } }]
  return []
}

function string (node: SchemaNode, value: unknown, path: string): Issue[] {
  if (typeof value !== 'string') return [{ path, key: 'type' }]
  const len = [...value].length
  if (node.minLength !== undefined && len < node.minLength) return [{ path, key: node.minLength === 1 ? 'required' : 'minLength', vars: { n: node.minLength } }]
  if (node.maxLength !== undefined && len > node.maxLength) return [{ path, key: 'maxLength', vars: { n: node.maxLength } }]
  if (node.format === 'uri' && !isUrl(value)) return [{ path, key: 'url' }]
  if (node.pattern) {
    const re = regex(node.pattern)
    // an address's pattern is its allowed protocols (http, https): say what is wanted
    if (re && !re.test(value)) return [{ path, key: node.format === 'uri' ? 'url' : 'pattern', vars: { pattern: node.pattern } }]
  }
  return []
}

function list (node: SchemaNode, value: unknown, path: string): Issue[] {
  if (!Array.isArray(value)) return [{ path, key: 'type' }]
  const out: Issue[] = []
  if (node.minItems !== undefined && value.length < node.minItems) out.push({ path, key: 'minItems', vars: { n: node.minItems } })
  if (node.maxItems !== undefined && value.length > node.maxItems) out.push({ path, key: 'maxItems', vars: { n: node.maxItems } })
  if (node.items) value.forEach((v, i) => out.push(...validate(node.items!, v, join(path, i))))
  return out
}

function object (node: SchemaNode, value: unknown, path: string): Issue[] {
  if (!isObj(value)) return [{ path, key: 'type' }]
  const out: Issue[] = []
  for (const k of node.required ?? []) if (!(k in value)) out.push({ path: join(path, k), key: 'required' })
  for (const [k, v] of Object.entries(value)) {
    const prop = node.properties?.[k]
    if (prop) { out.push(...validate(prop, v, join(path, k))); continue }
    if (typeof node.additionalProperties !== 'object') continue
    const names = node.propertyNames
    if (names?.pattern && !regex(names.pattern)?.test(k)) out.push({ path: join(path, k), key: 'recordKey', vars: { key: k } })
    out.push(...validate(node.additionalProperties, v, join(path, k)))
  }
  return out
}

/** A fresh value for a new list item or record entry: the defaults, else the smallest valid value. */
export function defaultFor (node: SchemaNode): unknown {
  if (node.default !== undefined) return structuredClone(node.default)
  if (node.anyOf?.length) return defaultFor(node.anyOf[0]!)
  if (node.const !== undefined) return node.const
  if (node.enum?.length) return node.enum[0]
  switch (node.type) {
    case 'boolean': return false
    case 'integer':
    case 'number': return Math.max(node.minimum ?? 0, Math.min(node.maximum ?? 0, 0))
    case 'string': return ''
    case 'array': return []
    case 'object': {
      const out: Record<string, unknown> = {}
      for (const k of node.required ?? []) { const p = node.properties?.[k]; if (p) out[k] = defaultFor(p) }
      return out
    }
    default: return {}
  }
}

/**
 * What changed from `before` to `after`, as a patch the config routes take: changed leaves of objects,
 * lists and scalars whole, `null` for a key removed; undefined when nothing changed.
 */
export function diff (before: unknown, after: unknown): unknown {
  if (isObj(before) && isObj(after)) {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(after)) {
      const d = k in before ? diff(before[k], v) : v
      if (d !== undefined) out[k] = d
    }
    for (const k of Object.keys(before)) if (!(k in after)) out[k] = null
    return Object.keys(out).length ? out : undefined
  }
  return JSON.stringify(before) === JSON.stringify(after) ? undefined : after
}

/** The schema node at a dotted path under `node` (list indexes and record keys walk into items and values). */
export function nodeAt (node: SchemaNode, keys: string[]): SchemaNode | undefined {
  let cur: SchemaNode | undefined = node
  for (const k of keys) {
    if (!cur) return undefined
    if (cur.anyOf) cur = cur.anyOf.find(a => a.properties || a.items) ?? cur
    if (cur.properties?.[k]) cur = cur.properties[k]
    else if (cur.type === 'array' && cur.items) cur = cur.items
    else if (typeof cur.additionalProperties === 'object') cur = cur.additionalProperties
    else return undefined
  }
  return cur
}
