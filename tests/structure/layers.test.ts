// The layers of the server sources (lib/README.md): lib/ is the domain and speaks no HTTP; routes/
// only parse, call lib and wrap, one file per group; no double casts hide a type. Each rule reads the
// sources as text and fails listing the offending lines.
import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { expect } from 'chai'
import { read, ROOT, serverSources, sources } from './sources.js'

/** Lines of the files matching `pattern`, as `file:line: text`. */
function offenders (files: string[], pattern: RegExp): string[] {
  const out: string[] = []
  for (const file of files) {
    read(file).split('\n').forEach((line, i) => {
      if (pattern.test(line)) out.push(`${file}:${i + 1}: ${line.trim()}`)
    })
  }
  return out
}

/** The module named by an import or export line (static or dynamic), or undefined. */
const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/

function importsOf (file: string): Array<{ line: number; spec: string; text: string }> {
  const out: Array<{ line: number; spec: string; text: string }> = []
  read(file).split('\n').forEach((text, i) => {
    const m = IMPORT.exec(text)
    if (m?.[1]) out.push({ line: i + 1, spec: m[1], text: text.trim() })
  })
  return out
}

const lib = (): string[] => sources('lib')
const server = serverSources

describe('structure: layers', () => {
  it('reads the tree', () => {
    expect(lib().length, 'lib/ sources').to.be.greaterThan(50)
    expect(server().length).to.be.greaterThan(lib().length)
  })

  it('lib/ imports no node:http and no Koa (HTTP lives in routes/)', () => {
    const bad = lib().flatMap((file) => importsOf(file)
      .filter(({ spec }) => /^(node:)?https?$/.test(spec) || /^(koa|koa-[\w-]+|@koa\/[\w-]+)(\/|$)/.test(spec))
      .map(({ line, text }) => `${file}:${line}: ${text}`))
    expect(bad, `HTTP imports in lib/:\n${bad.join('\n')}`).to.deep.equal([])
  })

  it('lib/ imports nothing from routes/ or apps/, except the composition root lib/plugin.ts', () => {
    const bad = lib().filter((file) => file !== join('lib', 'plugin.ts')).flatMap((file) => importsOf(file)
      .filter(({ spec }) => spec.startsWith('.') && /^(routes|apps)\//.test(relative(ROOT, join(ROOT, file, '..', spec))))
      .map(({ line, text }) => `${file}:${line}: ${text}`))
    expect(bad, `lib/ importing the web or bot layer:\n${bad.join('\n')}`).to.deep.equal([])
  })

  it('no `as unknown as` in server code (index.ts, apps/, lib/, routes/)', () => {
    const bad = offenders(server(), /\bas unknown as\b/)
    expect(bad, `double casts:\n${bad.join('\n')}`).to.deep.equal([])
  })

  it('no route file imports another route file (shared helpers live in routes/_http/ or lib/)', () => {
    const routeFiles = new Set(readdirSync(join(ROOT, 'routes')).filter((n) => n.endsWith('.ts')).map((n) => join('routes', n)))
    // routes/index.ts assembles the routers: importing every route file is its job.
    const bad = [...routeFiles].filter((file) => file !== join('routes', 'index.ts')).flatMap((file) => importsOf(file)
      .filter(({ spec }) => spec.startsWith('./') && routeFiles.has(join('routes', spec.slice(2).replace(/\.js$/, '.ts'))))
      .map(({ line, text }) => `${file}:${line}: ${text}`))
    expect(bad, `route files importing route files:\n${bad.join('\n')}`).to.deep.equal([])
  })
})
