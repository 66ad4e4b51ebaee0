// config/default.yaml is generated from the schema (lib/config/default-yaml.ts, `npm run
// config:defaults`; lib/config/README.md, "config/default.yaml"): the committed file must be what the
// generator writes, and the defaults must be the schema's own, complete and valid.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'chai'
import { parse } from 'yaml'
import { z } from 'zod'
import { defaultYaml } from '../../lib/config/default-yaml.js'
import { defaultOf, doc } from '../../lib/config/field-doc.js'
import { configSchema } from '../../lib/config/schema.js'
import { CONFIG_DOCS } from '../../lib/config/schema-text.js'

const FILE = join(import.meta.dirname, '..', '..', 'config', 'default.yaml')

describe('config: default.yaml generated from the schema', () => {
  it('the committed file is what `npm run config:defaults` writes', () => {
    const committed = readFileSync(FILE, 'utf8').replace(/\r\n/g, '\n')
    expect(committed === defaultYaml(), 'config/default.yaml differs from the schema: run npm run config:defaults').to.equal(true)
  })

  it('holds every default of the schema, and they pass the schema unchanged', () => {
    const defaults = defaultOf(configSchema)
    expect(parse(readFileSync(FILE, 'utf8'))).to.deep.equal(defaults)
    const parsed = configSchema.safeParse(defaults)
    expect(parsed.success, JSON.stringify(parsed.error?.issues.slice(0, 3))).to.equal(true)
    expect(JSON.parse(JSON.stringify(parsed.data))).to.deep.equal(defaults)
  })

  it('zod\'s own object defaults are the ones written (tools.eventProbabilities: join and recall 0)', () => {
    const tools = configSchema.shape.tools.parse({ ...defaultOf(configSchema.shape.tools) as object, eventProbabilities: undefined })
    expect(tools.eventProbabilities).to.deep.equal({ join: 0, recall: 0 })
  })

  it('every section and field written to the file has a comment', () => {
    const missing: string[] = []
    const visit = (value: unknown, path: string): void => {
      if (path && !CONFIG_DOCS.has(path)) missing.push(path)
      if (value && typeof value === 'object' && !Array.isArray(value)) {
        for (const [k, v] of Object.entries(value)) visit(v, path ? `${path}.${k}` : k)
      }
    }
    visit(defaultOf(configSchema), '')
    expect(missing).to.deep.equal([])
  })

  it('a field is documented once, with its default in one place (field-doc.ts)', () => {
    const shared = doc(z.boolean(), ['A', '甲'], { default: true })
    expect(() => doc(shared, ['B', '乙'])).to.throw(/shares its schema object/)
    expect(() => doc(z.number().default(1), ['C', '丙'], { default: 2 })).to.throw(/has its default in zod already/)
  })
})
