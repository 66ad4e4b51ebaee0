// `npm run bench`: runs every bench/*.bench.ts in its own child process (so figures such as RSS are
// not polluted by another bench) and prints one table. Exit code 1 when a target is missed.
import { spawn } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BenchRow } from './types.js'

const dir = fileURLToPath(new URL('.', import.meta.url))

function runOne (file: string): Promise<BenchRow[]> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--expose-gc', join(dir, 'child.ts'), join(dir, file)], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, NODE_ENV: 'production', LINGXI_QUIET: '1' }
    })
    let out = ''
    child.stdout.on('data', (d: Buffer) => { out += d.toString() })
    child.on('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('BENCH_ROWS '))
      if (code !== 0 || !line) {
        resolve([{ name: `${file} failed to run (exit ${code ?? 'signal'})`, figure: NaN, unit: '', target: '', pass: false }])
        return
      }
      resolve(JSON.parse(line.slice('BENCH_ROWS '.length)) as BenchRow[])
    })
  })
}

const only = process.argv[2]
const files = readdirSync(dir).filter((f) => f.endsWith('.bench.ts') && (!only || f.includes(only))).sort()
const rows: Array<BenchRow & { file: string }> = []
for (const f of files) {
  process.stderr.write(`running ${f}...\n`)
  for (const r of await runOne(f)) rows.push({ ...r, file: f.replace('.bench.ts', '') })
}
const fmt = (n: number): string => Number.isFinite(n) ? (Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(2)) : 'n/a'
const table = rows.map((r) => [r.file, r.name, `${fmt(r.figure)} ${r.unit}`, r.target, r.pass ? 'ok' : 'MISSED'])
const head = ['area', 'measure', 'figure', 'target', 'result']
const widths = head.map((h, i) => Math.max(h.length, ...table.map((row) => String(row[i]).length)))
const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ')
console.log(line(head))
console.log(widths.map((w) => '-'.repeat(w)).join('  '))
for (const row of table) console.log(line(row))
const missed = rows.filter((r) => !r.pass).length
console.log(`\n${rows.length - missed} targets met, ${missed} missed`)
process.exitCode = missed ? 1 : 0
