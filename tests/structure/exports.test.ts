// No unused exports: every `export` of the sources is imported somewhere else (another source file, a
// test, a benchmark or the dashboard), checked by knip with tests/structure/knip.json (entry points:
// index.ts, the bot host's cli, tests, benchmarks, fixtures, the dashboard). A failure names each
// export as `file:line name`: drop the `export` keyword (or the code, when nothing uses it). A type that
// is part of a public contract without an importer yet is tagged `@public` in its doc comment.
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { expect } from 'chai'

const ROOT = join(import.meta.dirname, '..', '..')
const BIN = join(ROOT, 'node_modules', 'knip', 'bin', 'knip.js')

interface Item { name: string; line: number }
interface KnipReport { issues: Array<{ file: string; exports?: Item[]; types?: Item[]; nsExports?: Item[]; nsTypes?: Item[] }> }

/** Files that are contracts as a whole (the dashboard's view of the API types): not checked. */
const CONTRACT_FILES = new Set(['resources/src/contracts.ts'])

/**
 * Exports that work in progress is about to use, or that a declaration file promises (`file name`).
 * This list may only shrink.
 */
const PENDING = new Set<string>([
  'boot/load-plugin.mjs INLINE', // declared in boot/load-plugin.d.mts
  'boot/load-plugin.mjs sourceHash', // declared in boot/load-plugin.d.mts
  'routes/_http/openapi.ts buildOpenApi', // the OpenAPI document (issue 16), being wired
  'resources/src/paging.tsx Page', // dashboard paging, being wired
  'lib/chat/store.ts summaryOf',
  'lib/system/status.ts RSS_SAMPLE_MS'
])

/** The unused exports knip reports, as `file:line name`. */
export async function unusedExports (): Promise<string[]> {
  const { stdout } = await promisify(execFile)(process.execPath, [BIN, '--config', 'tests/structure/knip.json', '--include', 'exports,types,nsExports,nsTypes', '--no-progress', '--no-config-hints', '--reporter', 'json'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 })
    .catch((err: { stdout?: string; stderr?: string; message: string }) => {
      // exit code 1 = issues found; the report is on stdout all the same
      if (err.stdout) return { stdout: err.stdout }
      throw new Error(`knip failed: ${err.stderr ?? err.message}`)
    })
  const report = JSON.parse(stdout) as KnipReport
  const out: string[] = []
  for (const issue of report.issues) {
    if (CONTRACT_FILES.has(issue.file)) continue
    for (const item of [...issue.exports ?? [], ...issue.types ?? [], ...issue.nsExports ?? [], ...issue.nsTypes ?? []]) {
      if (!PENDING.has(`${issue.file} ${item.name}`)) out.push(`${issue.file}:${item.line} ${item.name}`)
    }
  }
  return out.sort()
}

describe('structure: no unused exports', function () {
  this.timeout(120_000)

  it('every export is imported somewhere else', async () => {
    expect(await unusedExports(), 'exports nothing imports').to.deep.equal([])
  })
})
