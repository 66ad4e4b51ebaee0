// The preset editor's check (resources/src/preset-rules.ts through schema-validate.ts) against the server's
// (lib/presets/types.ts presetFields and strictId): values at and past every bound of every field are judged
// the same, so the editor neither refuses what the server takes nor sends what it refuses.
import { expect } from 'chai'
import { presetFields, strictId } from '../../lib/presets/types.js'
import { PRESET_RULES } from '../../resources/src/preset-rules.js'
import { validate, type SchemaNode } from '../../resources/src/schema-validate.js'

type Obj = Record<string, unknown>

function candidates (n: SchemaNode): unknown[] {
  if (n.type === 'integer' || n.type === 'number') {
    const out: unknown[] = ['', 'abc']
    for (const b of [n.minimum, n.maximum]) if (b !== undefined) out.push(b, b - 1, b + 1, b + 0.5, b - 0.05)
    return out
  }
  if (n.type === 'string') {
    const out: unknown[] = ['', ' ', 'a', 'ab', 'abc', 'a b', 'a_b-c', 5]
    if (n.maxLength !== undefined) out.push('x'.repeat(n.maxLength), 'x'.repeat(n.maxLength + 1))
    return out
  }
  if (n.type === 'array') return [[], ['web_search'], ['x'.repeat(201)], Array.from({ length: 1001 }, (_x, i) => `t${i}`)]
  if (n.type === 'boolean') return [true, false, 'yes']
  return []
}

describe('preset editor rules agree with the server\'s', () => {
  const base: Obj = { id: 'my-preset', name: 'Mine', description: '', category: 'general', systemPrompt: 'hi', temperature: 0.7, maxTokens: 100, model: '',
    tools: { enabled: true, allowedTools: [], excludedTools: [], allowDangerous: false }, voice: { enabled: false, voiceId: '', speed: 1 }, memory: { enabled: true, maxMemories: 10 } }
  /** the editor checks the name trimmed (the server trims it before its length check) */
  const browser = (body: Obj): boolean => validate(PRESET_RULES, { ...body, name: typeof body.name === 'string' ? body.name.trim() : body.name }).length === 0
  const server = (body: Obj): boolean => {
    const { id, ...fields } = body
    return strictId.safeParse(id).success && presetFields.safeParse(fields).success && typeof fields.name === 'string' && fields.name.trim() !== ''
  }

  it('the starting values pass both', () => {
    expect([browser(base), server(base)]).to.deep.equal([true, true])
  })

  it('judges every field at and past its bounds like the server', () => {
    const disagree: string[] = []
    let checked = 0
    const walk = (node: SchemaNode, path: string[]): void => {
      for (const [k, child] of Object.entries(node.properties ?? {})) {
        const at = [...path, k]
        if (child.type === 'object' && child.properties) { walk(child, at); continue }
        for (const v of candidates(child)) {
          const body = structuredClone(base)
          let cur = body
          for (const p of at.slice(0, -1)) cur = cur[p] as Obj
          cur[at[at.length - 1]!] = v
          checked++
          if (browser(body) !== server(body)) disagree.push(`${at.join('.')} = ${JSON.stringify(v).slice(0, 40)}: browser ${browser(body)}, server ${server(body)}`)
        }
      }
    }
    walk(PRESET_RULES, [])
    expect(checked).to.be.greaterThan(150)
    expect(disagree).to.deep.equal([])
  })
})
