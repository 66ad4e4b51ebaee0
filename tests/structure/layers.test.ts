// The seams of the architecture (lib/README.md, the README of each folder): every import rule is a
// dependency-cruiser rule of tests/structure/depcruise.config.cjs, checked here one test per rule over
// one shared cruise (cruise.ts); a failure lists `from -> to  [rule]` and the rule's why. What is not
// an import (a double cast, a host global, a call of the global fetch) is read from the sources as text.
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { expect } from 'chai'
import { CRUISED, cruised, lines, valueSpecifiersOf, type Cruise } from './cruise.js'
import { read, serverSources } from './sources.js'

interface RuleText { name: string; comment: string }
const config = createRequire(import.meta.url)('./depcruise.config.cjs') as { forbidden: RuleText[] }

/** Code lines of the files matching `pattern` (comment lines skipped), as `file:line: text`. */
function offenders (files: string[], pattern: RegExp): string[] {
  const out: string[] = []
  for (const file of files) {
    read(file).split('\n').forEach((line, i) => {
      if (/^\s*(\/\/|\/?\*)/.test(line)) return
      if (pattern.test(line.replace(/\s\/\/\s.*$/, ''))) out.push(`${file}:${i + 1}: ${line.trim()}`)
    })
  }
  return out
}

describe('structure: the seams (dependency-cruiser rules)', function () {
  this.timeout(180_000)
  let c: Cruise

  before(async () => { c = await cruised() })

  it('reads the tree: the sources cruised, every import resolved, each rule checking some modules', () => {
    expect(c.result.summary.totalCruised, `modules read from ${CRUISED.join(', ')}`).to.be.greaterThan(300)
    const lib = c.result.modules.filter((m) => m.source.startsWith('lib/')).length
    expect(lib, 'lib/ modules').to.be.greaterThan(150)
    const idle = config.forbidden.filter((r) => (c.checked.get(r.name) ?? 0) === 0).map((r) => r.name)
    expect(idle, 'rules whose `from` selects no module (a renamed folder?)').to.deep.equal([])
  })

  it('the type-only filter tells value imports from type imports', () => {
    const found = [...valueSpecifiersOf([
      "import { a } from 'pkg-a'",
      "import type { B } from 'pkg-b'",
      "import { type C, type D } from 'pkg-c'",
      "import { type E, f } from 'pkg-e'",
      "import G, { type H } from 'pkg-g'",
      "import * as I from 'pkg-i'",
      "import 'pkg-side'",
      "export { j } from 'pkg-j'",
      "export type { K } from 'pkg-k'",
      "export { type L } from 'pkg-l'",
      "export * from 'pkg-star'",
      "const o = await import('pkg-o')",
      "type P = typeof import('pkg-p')"
    ].join('\n'))]
    expect(found).to.deep.equal(['pkg-a', 'pkg-e', 'pkg-g', 'pkg-i', 'pkg-side', 'pkg-j', 'pkg-star'])
  })

  for (const rule of config.forbidden) {
    if (rule.name === 'no-circular') continue // tests/structure/cycles.test.ts, circle by circle
    it(`${rule.name}`, () => {
      const bad = lines(c.findings.filter((f) => f.rule === rule.name))
      expect(bad, `${rule.comment}\n${bad.join('\n')}\n`).to.deep.equal([])
    })
  }

  it('every known violation of the config still occurs (drop the fixed ones from KNOWN)', () => {
    expect(lines(c.stale), 'known violations that no longer occur').to.deep.equal([])
  })
})

describe('structure: what is not an import', () => {
  const server = serverSources

  it('no `as unknown as` in server code (index.ts, apps/, lib/, routes/)', () => {
    const bad = offenders(server(), /\bas unknown as\b/)
    expect(bad, `double casts:\n${bad.join('\n')}`).to.deep.equal([])
  })

  it('only lib/host reads the host\'s globals (Bot, segment, redis; plugin and logger through globalThis) or declares them (lib/host/README.md)', () => {
    const outside = server().filter((f) => !f.startsWith(join('lib', 'host') + '/'))
    // `redis.call(` / `redis.pcall(` is the Lua API of a script sent to Redis (lib/storage/redis), not the host's client
    const bad = offenders(outside, /(?<![\w.$/'"`-])(Bot|segment|redis(?!\.p?call\())\s*(\?\.|\.|\[)|\bglobalThis\s*(\?\.|\.)\s*(plugin|logger|Bot|segment|redis)\b|^\s*var\s+(plugin|Bot|logger|segment|redis)\b/)
    expect(bad, `host globals outside the port (go through lib/host/port.ts):\n${bad.join('\n')}`).to.deep.equal([])
  })

  it('the global fetch is called only for the master\'s own endpoints (lib/web/README.md: channels, speech, moderation, search providers, MCP servers)', () => {
    // Everything else that fetches goes through the outbound fetcher, lib/web/outbound.ts.
    const own = new Set(['lib/channels/fetch.ts', 'lib/tts/speech.ts', 'lib/governance/endpoint.ts', 'lib/web/search.ts', 'lib/mcp/connection.ts'].map((f) => join(...f.split('/'))))
    const bad = offenders(server().filter((f) => !own.has(f)), /(?<![\w.$])fetch\s*\(|\bglobalThis\s*\.\s*fetch\b/)
    expect(bad, `fetch() outside the master's endpoints (use outboundFetch of lib/web/outbound.ts):\n${bad.join('\n')}`).to.deep.equal([])
    const gone = [...own].filter((f) => !read(f))
    expect(gone, 'modules of the list that are gone (update it)').to.deep.equal([])
  })
})
