// Scheduled tasks on one PostgreSQL shared by two task services (each with its own fake clock, as two
// instances): a task made on one is listed on the other; 40 tasks due at the same minute with both ticking
// run once each (the claims of lib/storage/pg/claims.ts through lib/storage/due.ts), each run recorded once
// and listed on both; a task paused on one is not run by the other; the migration command copies tasks and
// runs both ways.
import { expect } from 'chai'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type sinon from 'sinon'
import { EventBus } from '../../lib/core/event-bus.js'
import type { Config } from '../../lib/config/schema.js'
import { copyFromPostgres, copyToPostgres } from '../../lib/storage/copy.js'
import { PORTED_STORES } from '../../lib/storage/ported.js'
import type { RunOutcome } from '../../lib/tasks/run.js'
import { TaskService, type TaskActor } from '../../lib/tasks/service.js'
import { postgresOrSkip } from '../support/postgres.js'
import { instanceClock, until } from '../support/shared-instances.js'
import { quietLogger } from '../skills/helpers.js'

const NOW = Date.parse('2026-11-26T07:50:00+08:00')
const MIN = 60_000
const SETTINGS: Config['tasks'] = { enabled: true, maxTasks: 1000, minIntervalMinutes: 30, groupAdminsMay: false, monthlyBudget: 0, pauseAfterFailures: 3, missedAfterMinutes: 10, nightHours: '23:00-08:00', runsKept: 50 }
const MASTER: TaskActor = { userId: '10001', isMaster: true, via: 'dashboard' }
const OK: RunOutcome = { status: 'ok', delivered: true, answer: 'hi', tokens: { input: 10, output: 2, cached: 0 }, cost: 0.001, tools: [] }

interface Node { name: string; svc: TaskService; fake: sinon.SinonFakeTimers }

describe('storage: scheduled tasks shared by two instances on one PostgreSQL (run once)', function () {
  this.timeout(60_000)
  let url: string
  let dirs: string[]
  let nodes: Node[]
  let ran: Array<{ id: string; by: string }>

  beforeEach(async function () {
    url = await postgresOrSkip(this)
    dirs = []
    nodes = []
    ran = []
  })
  afterEach(async () => {
    for (const n of nodes) { await n.svc.close(); n.fake.restore() }
    for (const d of dirs) rmSync(d, { recursive: true, force: true })
  })

  const deps = (dataDir: string, clock: ReturnType<typeof instanceClock>['clock'], database: string): Parameters<typeof TaskService.open>[0] =>
    ({ paths: { dataDir }, config: { get: () => ({ storage: { database: { url: database } } }) }, env: {}, log: quietLogger(new EventBus()), clock })
  const options = (name: string, clock: ReturnType<typeof instanceClock>['clock']): Parameters<typeof TaskService.open>[1] => ({
    settings: () => SETTINGS, timeZone: () => 'Asia/Shanghai', currency: () => 'CNY', clock, log: quietLogger(new EventBus()),
    run: async (task) => { ran.push({ id: task.id, by: name }); return OK },
    tellMasters: async () => undefined
  })

  async function node (name: string): Promise<Node> {
    const dataDir = mkdtempSync(join(tmpdir(), 'lingxi-pg-tasks-'))
    dirs.push(dataDir)
    const { fake, clock } = instanceClock(NOW)
    const svc = await TaskService.open(deps(dataDir, clock, url), options(name, clock))
    await svc.start()
    const n = { name, svc, fake }
    nodes.push(n)
    return n
  }
  async function advance (ms: number): Promise<void> {
    await Promise.all(nodes.map((n) => n.fake.tickAsync(ms)))
    for (let i = 0; i < 3; i++) {
      await Promise.all(nodes.map((n) => n.svc.idle()))
      await Promise.all(nodes.map((n) => n.fake.tickAsync(0)))
    }
    await Promise.all(nodes.map((n) => n.svc.idle()))
  }

  it('40 tasks due at 08:00 with both instances ticking: each runs once, each run recorded once and listed on both', async () => {
    const a = await node('a')
    const b = await node('b')
    const made = []
    for (let i = 0; i < 40; i++) made.push(await a.svc.create(MASTER, { name: `t${i}`, prompt: 'p', schedule: '0 8 * * *', target: { groupId: String(9000 + i) } }))
    await until((l) => b.svc.onRemote(l), () => b.svc.list().length === 40)
    await advance(10 * MIN)
    expect(ran).to.have.length(40)
    expect(new Set(ran.map((r) => r.id)).size).to.equal(40)
    expect(new Set(ran.map((r) => r.by)).size, 'both instances took some').to.equal(2)
    for (const t of made) {
      await until((l) => b.svc.onRemote(l), () => b.svc.runsOf(t.id).length === 1 && a.svc.runsOf(t.id).length === 1)
      await until((l) => b.svc.onRemote(l), () => b.svc.get(t.id)?.nextAt === Date.parse('2026-11-27T08:00:00+08:00'))
    }
  })

  it('a task paused on one instance is not run by the other', async () => {
    const a = await node('a')
    const b = await node('b')
    const t = await a.svc.create(MASTER, { name: 'p', prompt: 'p', schedule: '0 8 * * *', target: { groupId: '9100' } })
    await until((l) => b.svc.onRemote(l), () => b.svc.get(t.id) !== undefined)
    await a.svc.pause(t.id, MASTER)
    await until((l) => b.svc.onRemote(l), () => b.svc.get(t.id)?.paused === 'manual')
    await advance(20 * MIN)
    expect(ran).to.deep.equal([])
  })

  it('the migration copies tasks and runs into PostgreSQL and back with equal counts', async () => {
    const source = mkdtempSync(join(tmpdir(), 'lingxi-tasks-src-'))
    const back = mkdtempSync(join(tmpdir(), 'lingxi-tasks-back-'))
    dirs.push(source, back)
    const { fake, clock } = instanceClock(NOW)
    try {
      const files = await TaskService.open(deps(source, clock, ''), options('files', clock))
      for (let i = 0; i < 3; i++) await files.runNow((await files.create(MASTER, { name: `m${i}`, prompt: 'p', schedule: '0 9 * * *', target: { userId: `u${i}` } })).id, MASTER)
      const listed = files.list()
      await files.close()
      const stores = PORTED_STORES.filter((s) => s.name === 'tasks' || s.name === 'task-runs')
      expect(await copyToPostgres(source, url, { stores })).to.deep.equal([{ store: 'tasks', read: 3, written: 3 }, { store: 'task-runs', read: 3, written: 3 }])
      const shared = await TaskService.open(deps(back, clock, url), options('shared', clock))
      expect(shared.list()).to.deep.equal(listed)
      await shared.close()
      expect(await copyFromPostgres(url, back, { stores })).to.deep.equal([{ store: 'tasks', read: 3, written: 3 }, { store: 'task-runs', read: 3, written: 3 }])
      const again = await TaskService.open(deps(back, clock, ''), options('files', clock))
      expect(again.list()).to.deep.equal(listed)
      expect(again.runsOf(listed[0]?.id ?? '')).to.have.length(1)
      await again.close()
    } finally { fake.restore() }
  })
})
