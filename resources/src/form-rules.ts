// The rules of the dashboard's forms: a value checked against a JSON Schema the server serves (the
// configuration's, GET /api/config/schema; a new preset's, GET /api/presets/schema) by one JSON-Schema
// validator, @cfworker/json-schema (draft 2020-12; resources/README.md says why). Its findings become issues
// by dotted path, each naming a message key (`sv.<rule>`) and the rule's values taken from the schema;
// form-engine.tsx shows them at the fields in the page language. Rules only the server knows (unique names,
// timezones, a preset that must exist) come back from the server with their paths. Also here: a fresh value
// for a new list item, the patch of what changed and the schema node at a path.
import { Validator, type OutputUnit, type Schema } from '@cfworker/json-schema'

/** The part of JSON Schema the served schemas use, plus the server's text and secret marks. */
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

type Obj = Record<string, unknown>
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof BadJson)
export const join = (path: string, k: string | number): string => path ? `${path}.${k}` : String(k)

/** A schema with no rule at all (any JSON value), or an object or list made only of such. */
export function isOpaque (n: SchemaNode): boolean {
  if (n.type === undefined && !n.anyOf && !n.enum && n.const === undefined) return true
  if (n.type === 'object' && !n.properties && (n.additionalProperties === true || (typeof n.additionalProperties === 'object' && isOpaque(n.additionalProperties)))) return true
  return n.type === 'array' && n.items !== undefined && isOpaque(n.items)
}

// one validator per schema node, built on a copy (the validator marks the schema objects it is given)
const validators = new WeakMap<SchemaNode, Validator>()
function validatorOf (node: SchemaNode): Validator {
  let v = validators.get(node)
  if (!v) { v = new Validator(structuredClone(node) as Schema, '2020-12', false); validators.set(node, v) }
  return v
}

/** The value as JSON (the validator takes no `undefined`), with the paths of JSON fields that do not parse. */
function plain (value: unknown, path: string, bad: Issue[]): unknown {
  if (value instanceof BadJson) { bad.push({ path, key: 'json' }); return null }
  if (Array.isArray(value)) return value.map((v, i) => plain(v === undefined ? null : v, join(path, i), bad))
  if (isObj(value)) {
    const out: Obj = {}
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = plain(v, join(path, k), bad)
    return out
  }
  return value === undefined ? null : value
}

/** `#/a/b~1c` as its keys. */
const pointerKeys = (p: string): string[] => p.replace(/^#\/?/, '').split('/').filter(Boolean).map(k => k.replace(/~1/g, '/').replace(/~0/g, '~'))
const dotted = (base: string, instanceLocation: string): string => pointerKeys(instanceLocation).reduce(join, base)

/** The schema object a keyword location points into (its parent: the node holding the keyword). */
function holder (root: SchemaNode, keywordLocation: string): SchemaNode {
  let cur: unknown = root
  for (const k of pointerKeys(keywordLocation).slice(0, -1)) cur = isObj(cur) || Array.isArray(cur) ? (cur as Record<string, unknown>)[k] : undefined
  return (isObj(cur) ? cur : {}) as SchemaNode
}

/** One leaf finding of the validator as an issue, with the rule's own values from the schema. */
function issueOf (node: SchemaNode, u: OutputUnit, value: unknown, path: string): Issue {
  const n = (key: string, v: number | undefined): Issue => ({ path, key, vars: { n: v ?? '' } })
  switch (u.keyword) {
    case 'type':
      if (node.type === 'integer' || node.type === 'number') {
        // a number field holds the typed text until it is a number: '' is an error, never 0
        if (value === '' || value === null) return { path, key: 'required' }
        return { path, key: typeof value === 'number' && Number.isFinite(value) ? 'integer' : 'notNumber' }
      }
      return { path, key: 'type' }
    case 'const': return { path, key: 'enum', vars: { list: JSON.stringify(node.const) } }
    case 'enum': return { path, key: 'enum', vars: { list: (node.enum ?? []).join(', ') } }
    case 'minimum': return n('min', node.minimum)
    case 'maximum': return n('max', node.maximum)
    case 'exclusiveMinimum': return n('gt', node.exclusiveMinimum)
    case 'exclusiveMaximum': return n('lt', node.exclusiveMaximum)
    case 'minLength': return node.minLength === 1 ? { path, key: 'required' } : n('minLength', node.minLength)
    case 'maxLength': return n('maxLength', node.maxLength)
    case 'minItems': return n('minItems', node.minItems)
    case 'maxItems': return n('maxItems', node.maxItems)
    // an address's pattern is its allowed protocols (http, https): say what is wanted
    case 'pattern': return node.format === 'uri' ? { path, key: 'url' } : { path, key: 'pattern', vars: { pattern: node.pattern ?? '' } }
    case 'format': return node.format === 'uri' ? { path, key: 'url' } : { path, key: 'pattern', vars: { pattern: node.format ?? '' } }
    default: return { path, key: 'type' }
  }
}

/** Keywords whose finding only says that one under them failed (those come as their own findings). */
const CONTAINERS = new Set(['properties', 'items', 'prefixItems', 'additionalProperties', 'patternProperties', '$ref', 'allOf', 'unevaluatedProperties', 'unevaluatedItems'])

/** The value at a dotted path below `root` (keys as the validator names them). */
function valueAt (root: unknown, instanceLocation: string): unknown {
  let cur = root
  for (const k of pointerKeys(instanceLocation)) cur = isObj(cur) || Array.isArray(cur) ? (cur as Record<string, unknown>)[k] : undefined
  return cur
}

/** The issues of `value` against `node`, one a path (list indexes and record keys included), `path` before each. */
export function validate (node: SchemaNode, value: unknown, path = ''): Issue[] {
  const out: Issue[] = []
  const json = plain(value, path, out)
  if (isOpaque(node)) return out
  const units = validatorOf(node).validate(json).errors
  // findings under these keyword locations are left out (the branches of an alternative already judged)
  const skipped: string[] = []
  for (const u of units) {
    if (skipped.some(s => u.keywordLocation === s || u.keywordLocation.startsWith(`${s}/`))) continue
    const at = dotted(path, u.instanceLocation)
    const node2 = holder(node, u.keywordLocation)
    if (CONTAINERS.has(u.keyword)) continue
    if (u.keyword === 'required') {
      const key = u.error.match(/property "(.*)"/)?.[1]
      if (key !== undefined) out.push({ path: join(at, key), key: 'required' })
      continue
    }
    if (u.keyword === 'propertyNames') {
      const key = u.error.match(/name "(.*)"/)?.[1] ?? ''
      out.push({ path: join(at, key), key: 'recordKey', vars: { key } })
      skipped.push(u.keywordLocation)
      continue
    }
    if (u.keyword === 'anyOf') {
      const branches = node2.anyOf ?? []
      const loc = u.keywordLocation
      skipped.push(loc)
      // '' or an address: say what is wanted
      if (branches.some(b => b.format === 'uri')) { out.push({ path: at, key: 'url' }); continue }
      // else the branch of the value's own kind that failed least (a number's range, not "not null")
      const own = (i: number): OutputUnit[] => units.filter(x => x.keywordLocation.startsWith(`${loc}/${i}/`))
      const score = (i: number): number => own(i).filter(x => !CONTAINERS.has(x.keyword)).length + (own(i).some(x => x.keyword === 'type' && x.instanceLocation === u.instanceLocation) ? 1000 : 0)
      const best = branches.map((_b, i) => i).sort((a, b) => score(a) - score(b))[0] ?? 0
      const first = own(best).find(x => !CONTAINERS.has(x.keyword))
      if (first) out.push(issueOf(holder(node, first.keywordLocation), first, valueAt(json, first.instanceLocation), dotted(path, first.instanceLocation)))
      continue
    }
    out.push(issueOf(node2, u, valueAt(json, u.instanceLocation), at))
  }
  // one finding a path: the first the validator gave
  const seen = new Set<string>()
  return out.filter(i => !seen.has(i.path) && seen.add(i.path))
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
      const out: Obj = {}
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
    const out: Obj = {}
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
