// Dashboard page weight: JavaScript a browser loads on the first visit (the entry script and the
// modules it preloads, plus the first page's chunk), gzipped: target under 60 KB (issue 21). The total of
// every chunk is reported too (an upper bound).
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { ensureDashboardBuilt } from '../routes/_http/dashboard-build.js'
import type { BenchRow } from './types.js'

export async function run (): Promise<BenchRow[]> {
  const root = fileURLToPath(new URL('..', import.meta.url))
  await ensureDashboardBuilt(root)
  const dist = join(root, 'resources', 'dist')
  const gz = (file: string): number => gzipSync(readFileSync(join(dist, file))).length
  const html = readFileSync(join(dist, 'index.html'), 'utf8')
  const first = new Set([...html.matchAll(/(?:src|href)="\.?\/?([^"]+\.js)"/g)].map((m) => m[1]!.replace(/^\//, '')))
  // the overview page is the first one shown after login
  const overview = readdirSync(join(dist, 'assets')).find((f) => f.startsWith('overview-') && f.endsWith('.js'))
  if (overview) first.add(`assets/${overview}`)
  const firstKb = [...first].reduce((sum, f) => sum + gz(f), 0) / 1024
  const allKb = readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.js')).reduce((sum, f) => sum + gz(`assets/${f}`), 0) / 1024
  const r = (n: number): number => Math.round(n * 10) / 10
  return [
    { name: 'dashboard: first-load JavaScript, gzipped', figure: r(firstKb), unit: 'KB', target: '< 60', pass: firstKb < 60 },
    { name: 'dashboard: every JavaScript chunk, gzipped', figure: r(allKb), unit: 'KB', target: '(report)', pass: true }
  ]
}
