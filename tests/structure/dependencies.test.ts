// The plugin's npm dependencies (lib/core/packages.ts, boot/deps.mjs): every one is bundled into the
// plugin (INLINE: what every start needs) or says which features it serves (PACKAGE_FEATURES), and no
// module of the server sources imports a package outside INLINE at module evaluation: a package an
// update named but nobody installed then turns off its features, never the plugin's start. Each rule
// reads the sources as text and fails listing the offending lines (`file:line`).
import { expect } from 'chai'
import { INLINE } from '../../boot/deps.mjs'
import { PACKAGE_FEATURES } from '../../lib/core/packages.js'
import { read, serverSources } from './sources.js'

/** The package a module specifier names (`@scope/name/sub` -> `@scope/name`), or undefined for a relative path or a Node built-in. */
function packageOf (spec: string): string | undefined {
  if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:')) return undefined
  const parts = spec.split('/')
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
}

/** True when an import or export clause brings in types only (`type X`, `type { X }`, `{ type X, type Y }`). */
function typesOnly (clause: string): boolean {
  const c = clause.trim()
  if (/^type\b(?!\s*,)/.test(c) && !/^type\s+from\b/.test(c)) return true // `import type ...`, `export type { ... }`
  const braces = /^\{([^}]*)\}$/.exec(c)
  if (!braces) return false // a default or namespace import, or `export *`: values
  const names = braces[1]!.split(',').map((n) => n.trim()).filter(Boolean)
  return names.length > 0 && names.every((n) => /^type\s/.test(n))
}

interface StaticImport { line: number; spec: string; text: string }

/**
 * The static value imports and re-exports of a source text (not `import type`, not types-only clauses,
 * not `import()`): a statement starting a line with `import` or `export`, its clause possibly spanning
 * lines up to `from '...'`. Lines inside a block comment are skipped.
 */
function staticValueImports (source: string): StaticImport[] {
  const out: StaticImport[] = []
  const lines = source.split('\n')
  let inComment = false
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (inComment) { if (line.includes('*/')) inComment = false; continue }
    if (/^\s*\/\*/.test(line) && !line.includes('*/')) { inComment = true; continue }
    const start = /^\s*(import|export)\b(?!\s*\()/.exec(line)
    if (!start) continue
    // a side-effect import: `import 'pkg'`
    const bare = /^\s*import\s+(['"])([^'"]+)\1/.exec(line)
    if (bare?.[2]) { out.push({ line: i + 1, spec: bare[2], text: line.trim() }); continue }
    // the statement up to its `from '...'` (or its end, for a plain `export const ...`)
    let stmt = line
    let j = i
    while (!/\bfrom\s+['"][^'"]+['"]/.test(stmt) && !/;\s*$/.test(stmt) && j < i + 40 && j + 1 < lines.length && !/^\s*export\s+(?:default\s+)?(?:async\s+)?(?:const|let|var|function|class|interface|type\s+\w+\s*[=<]|enum|abstract|declare|namespace)\b/.test(stmt)) {
      j++
      stmt += '\n' + lines[j]!
    }
    const m = /^\s*(?:import|export)\s+([\s\S]*?)\s*\bfrom\s+(['"])([^'"]+)\2/.exec(stmt)
    if (!m?.[3]) continue
    if (typesOnly(m[1]!)) continue
    out.push({ line: i + 1, spec: m[3], text: line.trim() })
  }
  return out
}

const declared = (): string[] => Object.keys((JSON.parse(read('package.json')) as { dependencies?: Record<string, string> }).dependencies ?? {})
const server = serverSources

describe('structure: dependencies', () => {
  it('the scanner tells value imports from type imports', () => {
    const found = staticValueImports([
      "import { a } from 'pkg-a'",
      "import type { B } from 'pkg-b'",
      "import { type C, type D } from 'pkg-c'",
      "import { type E, f } from 'pkg-e'",
      "import G, { type H } from 'pkg-g'",
      "import * as I from 'pkg-i'",
      "import 'pkg-side'",
      "export { j } from 'pkg-j'",
      "export type { K } from 'pkg-k'",
      "export * from 'pkg-star'",
      'import {',
      '  type L,',
      '  m',
      "} from 'pkg-m'",
      'import {',
      '  type N',
      "} from 'pkg-n'",
      "const o = await import('pkg-o')",
      "type P = typeof import('pkg-p')",
      '/*',
      "import { q } from 'pkg-q'",
      '*/',
      "export const r = 'from \\'pkg-r\\''",
      "import { s } from './local.js'"
    ].join('\n')).map((x) => x.spec)
    expect(found).to.deep.equal(['pkg-a', 'pkg-e', 'pkg-g', 'pkg-i', 'pkg-side', 'pkg-j', 'pkg-star', 'pkg-m', './local.js'])
    expect(staticValueImports("import {\n  type L,\n  m\n} from 'pkg-m'")[0]?.line).to.equal(1)
  })

  it('every dependency in package.json is bundled (INLINE) or says what it serves (PACKAGE_FEATURES), and every package listed there is a dependency', () => {
    const deps = declared()
    expect(deps.length, 'package.json dependencies').to.be.greaterThan(5)
    const unaccounted = deps.filter((d) => !INLINE.includes(d) && !PACKAGE_FEATURES.has(d))
    expect(unaccounted, `dependencies neither in INLINE (boot/deps.mjs) nor in PACKAGE_FEATURES (lib/core/packages.ts):\n${unaccounted.join('\n')}`).to.deep.equal([])
    const stale = [...PACKAGE_FEATURES.keys(), ...INLINE].filter((p) => !deps.includes(p))
    expect(stale, `packages in PACKAGE_FEATURES or INLINE that package.json does not list:\n${stale.join('\n')}`).to.deep.equal([])
    const both = INLINE.filter((p) => PACKAGE_FEATURES.has(p))
    expect(both, 'packages both bundled and optional').to.deep.equal([])
  })

  it('no server module (index.ts, apps/, lib/, routes/) imports a package outside INLINE at module evaluation (only where it is used, through import())', () => {
    const files = server()
    expect(files.length, 'server sources').to.be.greaterThan(100)
    const bad = files.flatMap((file) => staticValueImports(read(file))
      .filter(({ spec }) => { const p = packageOf(spec); return p !== undefined && !INLINE.includes(p) })
      .map(({ line, text }) => `${file}:${line}: ${text}`))
    expect(bad, `static imports of packages that may be missing (import them where they are used, through importOptional of lib/core/packages.ts):\n${bad.join('\n')}`).to.deep.equal([])
  })
})
