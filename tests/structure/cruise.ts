// One dependency-cruiser run over the shipped sources with tests/structure/depcruise.config.cjs,
// shared by the structure tests of a mocha process (the first caller starts it, the others await the
// same result). Each violation comes back as `from -> to` with its rule's name. The API runs in a
// plain-Node child (depcruise-run.mjs says why).
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { parseSync, type ModuleItem } from '@swc/core'
import type { ICruiseResult, IForbiddenRuleType, IViolation } from 'dependency-cruiser'
import { ROOT } from './sources.js'

/** What is cruised: the hosts' entry, the loader, the bot commands, the domain, the routes, the standalone host. */
export const CRUISED = ['index.js', 'index.ts', 'boot', 'apps', 'lib', 'routes', 'standalone']

/**
 * The closing words of a rule's comment when type-only imports do not count for it (the config says
 * why: swc reports `import type` like any import).
 */
const TYPES_FREE = 'Type-only imports do not count.'

interface Finding { rule: string; from: string; to: string; cycle: string[] }
export interface Cruise {
  /** The violations, type-only imports dropped where the rule says they do not count, known ones apart. */
  findings: Finding[]
  /** The config's known violations (options.knownViolations) that no longer occur: to be dropped from it. */
  stale: Finding[]
  /** Rule name -> the modules the rule's `from` applies to (how much each rule checked). */
  checked: Map<string, number>
  /** The rules of the config, by name, with their comment. */
  rules: Map<string, string>
  result: ICruiseResult
}

/** The specifiers a file imports or re-exports for values (not `import type`, not `{ type X }` only). */
function valueSpecifiers (file: string): Set<string> {
  let text: string
  try {
    text = readFileSync(join(ROOT, file), 'utf8')
  } catch {
    return new Set() // gone since the cruise: nothing to judge
  }
  return valueSpecifiersOf(text)
}

/** The static imports and re-exports of a TypeScript text that bring in values (swc's syntax tree). */
export function valueSpecifiersOf (text: string): Set<string> {
  let body: ModuleItem[]
  try {
    body = parseSync(text, { syntax: 'typescript', target: 'es2022' }).body
  } catch {
    return new Set() // unparsable (a file caught mid-edit): nothing to judge
  }
  const out = new Set<string>()
  for (const item of body) {
    if (item.type === 'ImportDeclaration') {
      const typesOnly = item.typeOnly || (item.specifiers.length > 0 && item.specifiers.every((s) => s.type === 'ImportSpecifier' && s.isTypeOnly))
      if (!typesOnly) out.add(item.source.value)
    } else if (item.type === 'ExportNamedDeclaration' && item.source) {
      const typesOnly = item.typeOnly || (item.specifiers.length > 0 && item.specifiers.every((s) => s.type === 'ExportSpecifier' && s.isTypeOnly))
      if (!typesOnly) out.add(item.source.value)
    } else if (item.type === 'ExportAllDeclaration') {
      out.add(item.source.value)
    }
  }
  return out
}

/** True when every import of `to` in `from` is type-only (a dynamic import() never is). */
function typeOnly (result: ICruiseResult, from: string, to: string, values: (file: string) => Set<string>): boolean {
  const mod = result.modules.find((m) => m.source === from)
  const specs = (mod?.dependencies ?? []).filter((d) => d.resolved === to)
  if (specs.length === 0) return false
  const v = values(from)
  return specs.every((d) => !d.dynamic && !v.has(d.module))
}

async function run (): Promise<Cruise> {
  const { stdout } = await promisify(execFile)(process.execPath, [join(ROOT, 'tests', 'structure', 'depcruise-run.mjs'), ...CRUISED], { cwd: ROOT, maxBuffer: 256 * 1024 * 1024, env: { ...process.env, NODE_OPTIONS: '' } })
    .catch((err: { stderr?: string; message: string }) => { throw new Error(`dependency-cruiser failed: ${err.stderr || err.message}`) })
  const result = JSON.parse(stdout) as ICruiseResult
  const forbidden = result.summary.ruleSetUsed?.forbidden ?? []
  const rules = new Map(forbidden.map((r) => [r.name ?? '', r.comment ?? '']))
  const cache = new Map<string, Set<string>>()
  const values = (file: string): Set<string> => {
    let v = cache.get(file)
    if (!v) cache.set(file, v = valueSpecifiers(file))
    return v
  }
  const finding = (v: IViolation): Finding => ({ rule: v.rule.name, from: v.from, to: v.to, cycle: (v.cycle ?? []).map((c) => c.name) })
  const findings = result.summary.violations
    .filter((v) => v.rule.severity !== 'ignore') // a known violation (the config's options.knownViolations)
    .filter((v) => !(rules.get(v.rule.name)?.endsWith(TYPES_FREE) && typeOnly(result, v.from, v.to, values)))
    .map(finding)
  const ignored = new Set(result.summary.violations.filter((v) => v.rule.severity === 'ignore').map((v) => `${v.rule.name} ${v.from} ${v.to}`))
  const stale = (result.summary.optionsUsed.knownViolations ?? []).filter((k) => !ignored.has(`${k.rule.name} ${k.from} ${k.to}`)).map(finding)
  return { findings, stale, checked: checkedCounts(result, forbidden), rules, result }
}

/** For each rule, how many cruised modules its `from` selects (a rule that selects none checks nothing). */
function checkedCounts (result: ICruiseResult, forbidden: readonly IForbiddenRuleType[]): Map<string, number> {
  const sources = result.modules.filter((m) => !m.coreModule && !m.couldNotResolve && !m.matchesDoNotFollow).map((m) => m.source)
  const patterns = (p: string | string[] | undefined): RegExp[] => (p === undefined ? [] : Array.isArray(p) ? p : [p]).map((s) => new RegExp(s))
  const out = new Map<string, number>()
  for (const rule of forbidden) {
    const path = patterns(rule.from.path)
    const not = patterns(rule.from.pathNot)
    out.set(rule.name ?? '', sources.filter((s) => (path.length === 0 || path.some((r) => r.test(s))) && !not.some((r) => r.test(s))).length)
  }
  return out
}

let running: Promise<Cruise> | undefined

/** The shared cruise (started by the first caller). */
export function cruised (): Promise<Cruise> {
  return (running ??= run())
}

/** The findings of some rules, as `from -> to  [rule]` lines (a circle as its files in order, an orphan alone). */
export function lines (findings: readonly Finding[]): string[] {
  return findings.map((f) => `${f.from === f.to ? f.from : [f.from, ...(f.cycle.length > 0 ? f.cycle : [f.to])].join(' -> ')}  [${f.rule}]`)
}
