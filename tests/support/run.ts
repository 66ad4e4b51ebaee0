// The test run of `npm test` / `npm run test:only` (tests/README.md, "Running in parallel"): every test file, in
// three groups run side by side, each a mocha process of its own (`mocha --parallel` with more than one job):
// - real-host: tests/realhost (the real TRSS-Yunzai / Miao-Yunzai hosts: mostly waiting for installs and restarts),
// - browser: the files that drive chromium (they import playwright-core or tests/dashboard/browser.ts),
// - unit: all the others (in-process servers, HTTP, the standalone host).
// Each group prints its mocha output once it is done; the end is the two lines CI reads (summary-reporter.cjs):
// "N skipped" and "N passed, N failed", the sums of the groups. With --typecheck the type check runs beside them and
// a failed one counts as one failure. Per file wall times go to node_modules/.cache/lingxi-tests/file-times.json
// (the next run starts the longest files first), each group's live output to <group>.log beside it.
// Options: --typecheck, --unit-jobs=N, --browser-jobs=N, --realhost-jobs=N, --serial (one plain mocha process, as
// before), --list (the groups, nothing run), and files or folders to run only those.
import { spawn, type ChildProcess } from 'node:child_process'
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join, relative, resolve, sep } from 'node:path'

const ROOT = resolve(import.meta.dirname, '..', '..')
const MOCHA = join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js')
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')
const LOGS = join(ROOT, 'node_modules', '.cache', 'lingxi-tests')
const TIMES = join(LOGS, 'file-times.json')

interface Failure { title: string; file: string; error: string }
interface Result { passed: number; failed: number; skipped: number; failures: Failure[] }
interface FileTime { file: string; ms: number; cpuSelf: number; cpuChildren: number; pid?: number; tests?: number }
interface Group { name: string; files: string[]; jobs: number; needsDashboard: boolean }
interface Outcome { name: string; result: Result; output: string; seconds: number; code: number | null }

function option (args: string[], name: string, fallback: number): number {
  const hit = args.find((a) => a.startsWith(`--${name}=`))
  const n = hit ? Number(hit.slice(name.length + 3)) : NaN
  return Number.isInteger(n) && n > 0 ? n : fallback
}

/** tests/**\/*.test.ts (or below the given files and folders), sorted, relative to the repository with `/`. */
function testFiles (only: string[]): string[] {
  const all = (readdirSync(join(ROOT, 'tests'), { recursive: true, encoding: 'utf8' }))
    .filter((f) => f.endsWith('.test.ts') && !f.split(sep).includes('node_modules'))
    .map((f) => `tests/${f.split(sep).join('/')}`)
    .sort()
  if (!only.length) return all
  const wanted = only.map((p) => relative(ROOT, resolve(p)).split(sep).join('/'))
  return all.filter((f) => wanted.some((w) => f === w || f.startsWith(`${w}/`)))
}

/** A file that drives chromium: it imports playwright-core or the dashboard's browser helpers. */
function isBrowserFile (file: string): boolean {
  return /from ['"](playwright-core|\.\/browser\.js|\.\.\/dashboard\/browser\.js)['"]/.test(readFileSync(join(ROOT, file), 'utf8'))
}

function readTimes (): Record<string, number> {
  try { return JSON.parse(readFileSync(TIMES, 'utf8')) as Record<string, number> } catch { return {} }
}

/** Longest first (by the last run's times; a file not timed yet first of all), so no long file starts last. */
function byDuration (files: string[], times: Record<string, number>): string[] {
  const w = (f: string): number => times[f] ?? Number.MAX_SAFE_INTEGER
  return [...files].sort((a, b) => w(b) - w(a) || a.localeCompare(b))
}

function readResult (file: string): Result | undefined {
  try { return JSON.parse(readFileSync(file, 'utf8')) as Result } catch { return undefined }
}

/** A group's per file times: JSON lines of the workers (`<group>-times.jsonl`) or the reporter's array (`.json`). */
function readFileTimes (work: string, group: string): FileTime[] {
  const lines = join(work, `${group}-times.jsonl`)
  const rows: FileTime[] = existsSync(lines) ? readFileSync(lines, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as FileTime) : []
  const array = join(work, `${group}-times.json`)
  if (existsSync(array)) rows.push(...(JSON.parse(readFileSync(array, 'utf8')) as FileTime[]))
  return rows
}

const children = new Set<ChildProcess>()
// a run stopped (Ctrl+C, a CI cancel): the groups' mocha processes are stopped with it, not left running
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const c of children) c.kill(signal)
    process.exitCode = 130
  })
}

/** Runs `args` with this Node, its output collected (and written to `log` as it comes); resolves with the exit code. */
function collect (args: string[], env: NodeJS.ProcessEnv, log?: string): { done: Promise<number | null>; output: () => string } {
  let out = ''
  if (log) writeFileSync(log, '')
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  children.add(child)
  child.once('close', () => children.delete(child))
  const add = (b: Buffer): void => { out += b.toString(); if (log) appendFileSync(log, b) }
  child.stdout.on('data', add)
  child.stderr.on('data', add)
  const done = new Promise<number | null>((resolve) => {
    child.once('error', (err) => { out += `\n${err.message}\n`; resolve(1) })
    child.once('close', (code) => resolve(code))
  })
  return { done, output: () => out }
}

async function runGroup (g: Group, work: string, ready: Promise<void>): Promise<Outcome> {
  if (g.needsDashboard) await ready
  const t0 = Date.now()
  const resultFile = join(work, `${g.name}.json`)
  // per file times: from the root hooks of tests/support/setup.ts in the workers of `mocha --parallel`, from the
  // reporter in one process (mocha runs a group of 1 job in its own process, without workers)
  const env: NodeJS.ProcessEnv = { ...process.env, LINGXI_TEST_RESULT: resultFile, LINGXI_TEST_FILE_TIMES: join(work, `${g.name}-times.jsonl`) }
  delete env.LINGXI_TEST_TIMES
  if (g.jobs < 2) env.LINGXI_TEST_TIMES = join(work, `${g.name}-times.json`)
  const args = [MOCHA, ...(g.jobs > 1 ? ['--parallel', '--jobs', String(g.jobs)] : []), ...(process.stdout.isTTY ? ['--color'] : []), ...g.files]
  const log = join(LOGS, `${g.name}.log`)
  console.log(`[run] ${g.name}: ${g.files.length} files, ${g.jobs} at a time (live output: ${relative(ROOT, log)})`)
  const p = collect(args, env, log)
  const code = await p.done
  const seconds = (Date.now() - t0) / 1000
  const got = readResult(resultFile)
  const result: Result = got ?? {
    passed: 0,
    failed: 1,
    skipped: 0,
    failures: [{ title: `the ${g.name} group ended (exit code ${String(code)}) without a result`, file: '', error: p.output().slice(-4000) }]
  }
  return { name: g.name, result, output: p.output(), seconds, code }
}

async function typecheck (): Promise<Outcome> {
  const t0 = Date.now()
  let output = ''
  let failed = 0
  for (const project of ['tsconfig.json', join('resources', 'tsconfig.json')]) {
    const p = collect([TSC, '--noEmit', '-p', project], process.env)
    const code = await p.done
    output += p.output()
    if (code !== 0) { failed = 1; output += `tsc -p ${project} failed (exit code ${String(code)})\n` }
  }
  const failures = failed ? [{ title: 'typecheck (tsc --noEmit)', file: 'tsconfig.json', error: output.slice(-4000) }] : []
  return { name: 'typecheck', result: { passed: 0, failed, skipped: 0, failures }, output, seconds: (Date.now() - t0) / 1000, code: failed }
}

/** Builds the dashboard once before the groups that read resources/dist (a build empties it first). */
async function dashboardReady (): Promise<void> {
  try {
    const { ensureDashboardBuilt } = await import('../../routes/_http/dashboard-build.js')
    await ensureDashboardBuilt(ROOT)
  } catch (err) {
    console.log(`[run] the dashboard build failed (the suites that need it will say so): ${(err as Error).message}`)
  }
}

function serial (only: string[]): void {
  const files = only.length ? only : ['tests/**/*.test.ts']
  const child = spawn(process.execPath, [MOCHA, ...files], { cwd: ROOT, stdio: 'inherit' })
  child.once('close', (code) => { process.exitCode = code ?? 1 })
}

async function main (): Promise<void> {
  const args = process.argv.slice(2)
  const only = args.filter((a) => !a.startsWith('--'))
  if (args.includes('--serial')) { serial(only); return }
  const cpus = availableParallelism()
  const files = testFiles(only)
  const times = readTimes()
  const realhost = files.filter((f) => f.startsWith('tests/realhost/'))
  const browser = files.filter((f) => !realhost.includes(f) && isBrowserFile(f))
  const unit = files.filter((f) => !realhost.includes(f) && !browser.includes(f))
  const groups: Group[] = [
    { name: 'real-host', files: byDuration(realhost, times), jobs: option(args, 'realhost-jobs', 3), needsDashboard: true },
    { name: 'browser', files: byDuration(browser, times), jobs: option(args, 'browser-jobs', 1), needsDashboard: true },
    { name: 'unit', files: byDuration(unit, times), jobs: option(args, 'unit-jobs', Math.max(2, cpus)), needsDashboard: false }
  ].filter((g) => g.files.length > 0)
  if (args.includes('--list')) {
    for (const g of groups) console.log(`${g.name} (${g.jobs} at a time):\n  ${g.files.map((f) => `${f}${times[f] !== undefined ? ` ${(times[f] / 1000).toFixed(1)} s` : ''}`).join('\n  ')}`)
    return
  }
  const work = mkdtempSync(join(tmpdir(), 'lingxi-test-run-'))
  mkdirSync(LOGS, { recursive: true })
  const t0 = Date.now()
  const ready = groups.some((g) => g.needsDashboard) ? dashboardReady() : Promise.resolve()
  const running: Array<Promise<Outcome>> = groups.map((g) => runGroup(g, work, ready))
  if (args.includes('--typecheck')) running.unshift(typecheck())
  // each group's output as soon as it is done, whole (the groups run at once: their lines would interleave)
  const outcomes = await Promise.all(running.map((p) => p.then((o) => {
    console.log(`\n[run] ==== ${o.name}: ${o.seconds.toFixed(1)} s, ${o.result.passed} passed, ${o.result.failed} failed, ${o.result.skipped} skipped ====`)
    process.stdout.write(o.name === 'typecheck' && !o.result.failed ? '' : o.output)
    return o
  })))
  // the file times, for the next run's order
  const fileTimes = groups.flatMap((g) => readFileTimes(work, g.name).map((t) => ({ ...t, group: g.name })))
  // a file that failed keeps its last time: a failed `before` ends a long file in seconds, and it would start last next time
  const failedFiles = new Set(outcomes.flatMap((o) => o.result.failures.map((f) => f.file ? relative(ROOT, f.file).split(sep).join('/') : '')))
  for (const t of fileTimes) {
    const file = relative(ROOT, t.file).split(sep).join('/')
    if (!failedFiles.has(file) || times[file] === undefined) times[file] = t.ms
  }
  writeFileSync(TIMES, JSON.stringify(times, null, 1))
  if (process.env.LINGXI_TEST_TIMES) writeFileSync(process.env.LINGXI_TEST_TIMES, JSON.stringify(fileTimes, null, 1))
  rmSync(work, { recursive: true, force: true })
  const sum = (k: 'passed' | 'failed' | 'skipped'): number => outcomes.reduce((n, o) => n + o.result[k], 0)
  const failures = outcomes.flatMap((o) => o.result.failures.map((f) => ({ ...f, group: o.name })))
  console.log(`\n[run] ${files.length} files in ${((Date.now() - t0) / 1000).toFixed(1)} s (${outcomes.map((o) => `${o.name} ${o.seconds.toFixed(0)} s`).join(', ')})`)
  if (failures.length) {
    console.log(`\n[run] failures (${failures.length}):`)
    failures.forEach((f, i) => { console.log(`  ${i + 1}) [${f.group}] ${f.title}\n     ${f.file ? relative(ROOT, f.file) : ''}\n     ${f.error.split('\n').slice(0, 6).join('\n     ')}`) })
  }
  console.log(`${sum('skipped')} skipped`)
  console.log(`${sum('passed')} passed, ${sum('failed')} failed`)
  process.exitCode = sum('failed') > 0 || outcomes.some((o) => o.code !== 0 && o.result.failed === 0) ? 1 : 0
}

await main()
