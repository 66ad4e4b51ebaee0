// `/api/stats` with 1,000,000 recorded model requests (issue target: under 20 ms). The requests are
// recorded through the stats store the gateway uses, spread over a year by a clock the bench moves
// (about 2,700 a day; 2,000 users, 100 groups, 12 models, 4 channels), then the routes are asked
// over HTTP with a session like the dashboard does. Aggregation reads the daily rollups only. Also
// reported: what the debounced write costs once a year of rollups exists (one file per month).
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Clock } from '../lib/core/clock.js'
import { systemClock } from '../lib/core/clock.js'
import { startLingxi } from '../tests/support/server.js'
import { percentile, type BenchRow } from './types.js'

const RECORDS = 1_000_000
const DAY = 86_400_000

export async function run (): Promise<BenchRow[]> {
  let offset = 0 // the bench's clock: real time moved back by `offset`
  const clock: Clock = { ...systemClock, now: () => Date.now() - offset }
  const dataDir = mkdtempSync(join(tmpdir(), 'lingxi-bench-stats-'))
  process.env.LINGXI_PORT = '0'
  const lx = await startLingxi({ env: { ...process.env, LINGXI_DATA_DIR: dataDir, LINGXI_QUIET: '1' }, clock })
  try {
    const stats = lx.rt.stats
    const perDay = Math.ceil(RECORDS / 365)
    const t0 = performance.now()
    for (let i = 0; i < RECORDS; i++) {
      offset = (364 - Math.floor(i / perDay)) * DAY
      const user = `u${(i * 7919) % 2000}`
      const group = i % 3 === 0 ? undefined : `g${i % 100}`
      if (i % 2 === 0) stats.recordMessage({ userId: user, ...(group ? { groupId: group } : {}) })
      stats.recordModelRequest({
        source: i % 50 === 0 ? 'batch-test' : 'chat', channelId: `ch${i % 4}`, model: `model-${i % 12}`,
        userId: user, ...(group ? { groupId: group } : {}), promptTokens: 120, completionTokens: 40,
        latencyMs: 300 + (i % 700), success: i % 97 !== 0, ...(i % 97 === 0 ? { error: 'HTTP 500' } : {})
      })
    }
    offset = 0
    const recordMs = performance.now() - t0
    await stats.flush() // the whole year once
    // steady state: one more request, then the debounced write (the totals and the current month only)
    stats.recordModelRequest({ source: 'chat', channelId: 'ch0', model: 'model-0', userId: 'u1', latencyMs: 300, success: true, promptTokens: 1, completionTokens: 1 })
    const f0 = performance.now()
    await stats.flush()
    const flushMs = performance.now() - f0
    const thisMonth = new Date().toISOString().slice(0, 7)
    const fileMb = (statSync(join(dataDir, 'stats.json')).size + statSync(join(dataDir, 'stats-days', `${thisMonth}.json`)).size) / 1048576

    const { token } = lx.rt.loginTokens.issue({ userId: '10001', isMaster: true })
    const login = await fetch(`${lx.web.localUrl}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token }) })
    const session = ((await login.json()) as { data: { token: string } }).data.token
    const time = async (path: string, n = 40): Promise<{ p50: number; ok: boolean }> => {
      const ms: number[] = []
      let ok = true
      for (let i = 0; i < n + 5; i++) {
        const a = performance.now()
        const res = await fetch(lx.web.localUrl + path, { headers: { Authorization: `Bearer ${session}` } })
        const body = await res.json() as { success?: boolean; data?: { summary?: { aiResponses?: number } } }
        if (i >= 5) ms.push(performance.now() - a) // the first few warm up
        ok &&= res.status === 200 && body.success === true
      }
      return { p50: percentile(ms, 50), ok }
    }
    const all = await time('/api/stats?period=all')
    const month = await time('/api/stats?period=month&groupId=g7')
    const users = await time('/api/stats/users?limit=50&sort=tokens')
    const r = (x: number): number => Math.round(x * 100) / 100
    return [
      { name: 'stats: record 1,000,000 model requests (in process)', figure: Math.round(recordMs), unit: 'ms', target: '(report)', pass: true },
      { name: 'stats: debounced write after a request (totals + this month)', figure: r(flushMs), unit: 'ms', target: '(report)', pass: true },
      { name: 'stats: size of what that write rewrites', figure: r(fileMb), unit: 'MB', target: '(report)', pass: true },
      { name: 'stats: GET /api/stats?period=all over 1M requests (p50)', figure: r(all.p50), unit: 'ms', target: '< 20', pass: all.ok && all.p50 < 20 },
      { name: 'stats: GET /api/stats?period=month&groupId (p50)', figure: r(month.p50), unit: 'ms', target: '< 20', pass: month.ok && month.p50 < 20 },
      { name: 'stats: GET /api/stats/users (2,000 users, p50)', figure: r(users.p50), unit: 'ms', target: '< 20', pass: users.ok && users.p50 < 20 }
    ]
  } finally {
    await lx.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
