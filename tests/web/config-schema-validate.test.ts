// The dashboard's check of a setting (resources/src/form-rules.ts: @cfworker/json-schema over GET /api/config/schema) against
// the server's own (the zod schema in lib/config/schema.ts): for every number, text and choice of every
// section, values at and past each bound are judged the same by both, so the browser neither refuses what
// the server takes nor lets through what it refuses (except the few rules only the server can know).
import { expect } from 'chai'
import { join } from 'node:path'
import { configSchema, SECTIONS } from '../../lib/config/schema.js'
import { bareConfigJsonSchema } from '../../lib/config/schema-json.js'
import { readConfigFiles } from '../../lib/config/service.js'
import { defaultFor, diff, validate, type SchemaNode } from '../../resources/src/form-rules.js'

const ROOT = join(import.meta.dirname, '..', '..')
/** Rules the JSON Schema cannot say: the server may refuse what the browser lets through here. */
const SERVER_ONLY = new Set(['reminders.timezone', 'pricing.timezone', 'quotas.timezone'])

type Obj = Record<string, unknown>

/** Values around a field's rules. */
function candidates (n: SchemaNode): unknown[] {
  if (n.enum) return [...n.enum, 'not-a-choice', 1]
  if (n.type === 'integer' || n.type === 'number') {
    const out: unknown[] = ['', 'abc', true]
    for (const b of [n.minimum, n.maximum]) if (b !== undefined) out.push(b, b - 1, b + 1, b + 0.5)
    if (n.minimum === undefined && n.maximum === undefined) out.push(0, 3.5, -1)
    return out
  }
  if (n.type === 'string') {
    const out: unknown[] = ['', 'a', 'lingxi', 'https://example.com/x', 5]
    if (n.maxLength !== undefined) out.push('x'.repeat(n.maxLength), 'x'.repeat(n.maxLength + 1))
    if (n.minLength !== undefined && n.minLength > 1) out.push('x'.repeat(n.minLength - 1))
    return out
  }
  if (n.anyOf) return ['', 'http://127.0.0.1:8080/v1', 'not a url', 'ftp://x.example']
  if (n.type === 'boolean') return [true, false, 'yes']
  return []
}

describe('config schema: the browser\'s check agrees with the server\'s', () => {
  const schema = bareConfigJsonSchema() as SchemaNode
  const current = readConfigFiles({ defaultFile: join(ROOT, 'config', 'default.yaml'), userFile: join(ROOT, 'no-such-config.yaml') })

  it('accepts every section of the default configuration', () => {
    for (const name of SECTIONS) {
      const node = schema.properties?.[name] as SchemaNode
      expect(validate(node, structuredClone(current[name]), name), name).to.deep.equal([])
    }
  })

  it('judges values at and past every bound like the server (numbers, texts, choices, addresses)', () => {
    const disagree: string[] = []
    let checked = 0
    for (const name of SECTIONS) {
      const section = schema.properties?.[name] as SchemaNode
      const value = current[name]
      // the fields of the section's own objects (lists and records have their own test below)
      const walk = (node: SchemaNode, path: string[]): void => {
        for (const [k, child] of Object.entries(node.properties ?? {})) {
          const at = [...path, k]
          if (child.type === 'object' && child.properties) { walk(child, at); continue }
          for (const v of candidates(child)) {
            const draft = structuredClone(value) as Obj
            let cur = draft
            for (const p of at.slice(0, -1)) cur = cur[p] as Obj
            cur[at[at.length - 1]!] = v
            const browser = validate(section, draft, name).length === 0
            const server = configSchema.shape[name].safeParse(draft).success
            checked++
            const field = [name, ...at].join('.')
            if (browser === server) continue
            if (SERVER_ONLY.has(field) && browser && !server) continue
            disagree.push(`${field} = ${JSON.stringify(v)}: browser ${browser ? 'accepts' : 'refuses'}, server ${server ? 'accepts' : 'refuses'}`)
          }
        }
      }
      if (section.type === 'object' && section.properties) walk(section, [])
    }
    expect(checked).to.be.greaterThan(1000)
    expect(disagree).to.deep.equal([])
  })

  it('a new list item or record entry starts from values the server accepts once its required texts are filled', () => {
    const models = (schema.properties?.pricing?.properties?.models as SchemaNode).items as SchemaNode
    const fresh = defaultFor(models) as Obj
    expect(fresh).to.deep.equal({ model: '', input: 0, output: 0 })
    expect(validate(models, fresh, 'm').map((i) => i.path)).to.deep.equal(['m.model'])
    const limits = (schema.properties?.quotas?.properties?.users as SchemaNode).additionalProperties as SchemaNode
    expect(validate(limits, defaultFor(limits), 'u')).to.deep.equal([])
  })

  it('the patch holds only what changed; a removed key is null', () => {
    expect(diff({ a: 1, b: { c: 2, d: [1] } }, { a: 1, b: { c: 3, d: [1] } })).to.deep.equal({ b: { c: 3 } })
    expect(diff({ a: 1, r: { x: 1, y: 2 } }, { a: 1, r: { x: 1 } })).to.deep.equal({ r: { y: null } })
    expect(diff({ l: [1, 2] }, { l: [2] })).to.deep.equal({ l: [2] })
    expect(diff({ a: 1 }, { a: 1 })).to.equal(undefined)
    expect(diff('zh-CN', 'en')).to.equal('en')
  })
})
