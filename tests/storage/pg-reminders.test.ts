// The reminders on one PostgreSQL shared by two reminder services (each with its own fake clock, as two
// instances): a reminder set on one is listed on the other and cancelled there; due, it is claimed and sent
// by exactly one (200 due at the same instant, both ticking together); a recurring one advances once per
// occurrence; a claimer that dies after marking an occurrence sending is settled without a second send, one
// that dies before is taken over; a failed send is retried after the backoff by the other instance; a
// reminder naming a bot goes to the instance that has it; the migration
// command copies the reminders both ways; and two plugin instances share them through the domain's start.
import { expect } from 'chai'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sinon from 'sinon'
import { EventBus } from '../../lib/core/event-bus.js'
import type { Config } from '../../lib/config/schema.js'
import { NotSentError } from '../../lib/storage/due.js'
import { ReminderService, type ReminderActor } from '../../lib/reminders/service.js'
import type { Reminder } from '../../lib/reminders/types.js'
import { copyFromPostgres, copyToPostgres } from '../../lib/storage/copy.js'
import { openDueClaims, type DueClaims } from '../../lib/storage/pg/claims.js'
import { PORTED_STORES } from '../../lib/storage/ported.js'
import { postgresOrSkip } from '../support/postgres.js'
import type { TestServer } from '../support/server.js'
import { instanceClock, startTwoOn, until as untilChange } from '../support/shared-instances.js'
import { quietLogger } from '../skills/helpers.js'

type FakeClock = sinon.SinonFakeTimers
type Settings = Config['reminders']

const NOW = Date.parse('2026-11-26T11:40:00+08:00')
const MIN = 60_000
const LEASE = MIN
const SETTINGS: Settings = { enabled: true, timezone: 'Asia/Shanghai', maxPerUser: 1000, maxPerGroup: 1000, minIntervalMinutes: 1, maxMessageChars: 500, groupRecurringNeedsAdmin: true, lateAfterSeconds: 60 }
const actor = (userId: string, botId?: string): ReminderActor => ({ userId, isMaster: false, isGroupAdmin: false, ...(botId ? { botId } : {}) })

interface Sent { id: string; by: string; occurrence: number }

/** One "instance": a service on the shared database with a fake clock of its own. */
interface Node { name: string; svc: ReminderService; fake: FakeClock }

const storageDeps = (url: string): { config: { get(): { storage: { database: { url: string } } } }; env: NodeJS.ProcessEnv; log: ReturnType<typeof quietLogger> } =>
  ({ config: { get: () => ({ storage: { database: { url } } }) }, env: {}, log: quietLogger(new EventBus()) })

/** Resolves once `cond` holds, checked now and after each remote change `svc` applies. */
function until (svc: ReminderService, cond: () => boolean, ms?: number): Promise<void> {
  return untilChange((l) => svc.onRemote(l), cond, ms)
}

describe('storage: reminders shared by two instances on one PostgreSQL (claimed and sent once)', function () {
  this.timeout(60_000)
  let url: string
  let dirs: string[]
  let nodes: Node[]
  let claims: Array<DueClaims<Reminder>>
  let sent: Sent[]
  /** per node: a deliver that does not return until released (a claimer stuck mid-send) */
  let stuck: Map<string, Promise<void>>
  /** resolved at the next delivery */
  let onSend: Array<() => void>
  /** nodes whose host is not connected: their sends fail before anything went out */
  let failing: Set<string>
  let failed: string[]
  /** unblocks the stuck sends (at the end of a test) */
  const releases: Array<() => void> = []

  beforeEach(async function () {
    url = await postgresOrSkip(this)
    dirs = []
    nodes = []
    claims = []
    sent = []
    stuck = new Map()
    onSend = []
    failing = new Set()
    failed = []
  })
  afterEach(async () => {
    for (const f of releases.splice(0)) f()
    for (const n of nodes) await n.svc.close()
    for (const c of claims) await c.close()
    for (const d of dirs) rmSync(d, { recursive: true, force: true })
  })

  async function node (name: string, o: { bots?: string[] } = {}): Promise<Node> {
    const dataDir = mkdtempSync(join(tmpdir(), 'lingxi-pg-reminders-'))
    dirs.push(dataDir)
    const { fake, clock } = instanceClock(NOW)
    const svc = await ReminderService.openShared({ ...storageDeps(url), paths: { dataDir }, clock }, {
      settings: () => SETTINGS,
      clock,
      log: quietLogger(new EventBus()),
      leaseMs: LEASE,
      ...(o.bots ? { bots: () => o.bots } : {}),
      deliver: async (r) => {
        if (failing.has(name)) { failed.push(name); throw new NotSentError('host not connected') }
        sent.push({ id: r.id, by: name, occurrence: r.nextAt })
        for (const f of onSend.splice(0)) f()
        await stuck.get(name)
      }
    })
    await svc.start()
    const n = { name, svc, fake }
    nodes.push(n)
    return n
  }

  /**
   * Both clocks forward by `ms` at the same instant, then the delivery rounds they started (real database
   * writes). A round that began while its clock was being moved on arms its next look for "now": that
   * timer runs in the rounds at 0 ms that follow.
   */
  async function advance (ms: number, which = nodes): Promise<void> {
    await Promise.all(which.map((n) => n.fake.tickAsync(ms)))
    for (let i = 0; i < 3; i++) {
      await Promise.all(which.map((n) => n.svc.idle()))
      await Promise.all(which.map((n) => n.fake.tickAsync(0)))
    }
    await Promise.all(which.map((n) => n.svc.idle()))
  }

  async function ghost (): Promise<DueClaims<Reminder>> {
    const c = await openDueClaims<Reminder>(storageDeps(url), 'reminders', { leaseMs: LEASE })
    if (!c) throw new Error('no claims with a database address set')
    claims.push(c)
    return c
  }

  it('a reminder set on one is listed on the other within 2 s; cancelled there, neither sends it', async () => {
    const a = await node('a')
    const b = await node('b')
    const r = await a.svc.create(actor('u1'), { when: '5分钟后', message: '喝水' })
    await until(b.svc, () => b.svc.get(r.id) !== undefined)
    expect(b.svc.list({ userId: 'u1' }).map((x) => x.id)).to.deep.equal([r.id])
    expect(b.svc.get(r.id)?.nextAt).to.equal(NOW + 5 * MIN)

    await b.svc.cancel(r.id, { userId: 'u1', isMaster: false })
    await until(a.svc, () => a.svc.get(r.id) === undefined)
    expect(a.svc.list()).to.deep.equal([])
    await advance(10 * MIN)
    expect(sent).to.deep.equal([])
  })

  it('200 reminders due at the same instant over two instances: each delivered exactly once', async () => {
    const a = await node('a')
    const b = await node('b')
    const made = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).svc.create(actor(`u${i}`), { when: '5分钟后', message: `n${i}` })))
    await Promise.all([until(a.svc, () => a.svc.list().length === 200, 5000), until(b.svc, () => b.svc.list().length === 200, 5000)])
    await advance(5 * MIN)
    const ids = sent.map((s) => s.id)
    const duplicates = ids.length - new Set(ids).size
    const byA = sent.filter((s) => s.by === 'a').length
    console.log(`      200 due at once: delivered ${ids.length} (a ${byA}, b ${ids.length - byA}), duplicates ${duplicates}`)
    expect(duplicates).to.equal(0)
    expect(new Set(ids)).to.deep.equal(new Set(made.map((r) => r.id)))
    // the one-offs are gone on both
    await Promise.all([until(a.svc, () => a.svc.list().length === 0), until(b.svc, () => b.svc.list().length === 0)])
    await advance(10 * MIN)
    expect(sent).to.have.length(200)
  })

  it('a recurring reminder advances once per occurrence and is sent once each time', async () => {
    const a = await node('a')
    const b = await node('b')
    const r = await a.svc.create(actor('u1'), { when: '每5分钟', message: '站起来' })
    await until(b.svc, () => b.svc.get(r.id) !== undefined)
    for (let k = 1; k <= 4; k++) {
      await advance(5 * MIN)
      await Promise.all(nodes.map((n) => until(n.svc, () => n.svc.get(r.id)?.fired === k)))
    }
    expect(sent.map((s) => s.occurrence)).to.deep.equal([1, 2, 3, 4].map((k) => NOW + 5 * k * MIN))
    for (const n of nodes) expect(n.svc.get(r.id)).to.deep.include({ fired: 4, nextAt: NOW + 25 * MIN })
  })

  it('a claimer gone after marking the occurrence sending: settled by another, not sent again; the next one is sent once', async () => {
    const a = await node('a')
    const b = await node('b')
    const r = await a.svc.create(actor('u1'), { when: '每10分钟', message: '喝水' })
    await until(b.svc, () => b.svc.get(r.id) !== undefined)
    const due = NOW + 10 * MIN
    // a third instance claims it, marks it sending and dies (never settles)
    const dead = await ghost()
    const round = await dead.claimDue(due, { limit: 20, bots: undefined })
    expect(round.claimed.map((c) => c.key)).to.deep.equal([r.id])
    expect(await dead.markSending(r.id, due, due)).to.equal(true)
    await dead.close()

    await advance(10 * MIN) // due now, but claimed under a live lease: nobody sends
    expect(sent).to.deep.equal([])
    expect(b.svc.get(r.id)?.fired).to.equal(0)
    await advance(LEASE) // the lease lapsed: settled, without a send
    await Promise.all(nodes.map((n) => until(n.svc, () => n.svc.get(r.id)?.fired === 1)))
    expect(sent).to.deep.equal([])
    expect(a.svc.get(r.id)?.nextAt).to.equal(NOW + 20 * MIN)
    await advance(9 * MIN)
    await Promise.all(nodes.map((n) => until(n.svc, () => n.svc.get(r.id)?.fired === 2)))
    expect(sent.map((s) => s.occurrence)).to.deep.equal([NOW + 20 * MIN])
  })

  it('a claimer gone before marking: another takes the claim over when its lease lapses and sends it once', async () => {
    const a = await node('a')
    const b = await node('b')
    const r = await a.svc.create(actor('u1'), { when: '10分钟后', message: '开会' })
    await until(b.svc, () => b.svc.get(r.id) !== undefined)
    const due = NOW + 10 * MIN
    const dead = await ghost()
    expect((await dead.claimDue(due, { limit: 20, bots: undefined })).claimed).to.have.length(1)
    await dead.close()

    await advance(10 * MIN)
    expect(sent).to.deep.equal([])
    await advance(LEASE)
    await Promise.all(nodes.map((n) => until(n.svc, () => n.svc.get(r.id) === undefined)))
    expect(sent.map((s) => s.id)).to.deep.equal([r.id])
    await advance(30 * MIN)
    expect(sent).to.have.length(1)
  })

  it('a claimer stuck mid-send past its lease: the other settles that occurrence, it is delivered once', async () => {
    const a = await node('a')
    stuck.set('a', new Promise((resolve) => { releases.push(resolve) }))
    const r = await a.svc.create(actor('u1'), { when: '每10分钟', message: '喝水' })
    // only a runs at the due time: it claims, marks and hangs in the send
    const sending = new Promise<void>((resolve) => onSend.push(resolve))
    await a.fake.tickAsync(10 * MIN)
    await sending
    expect(sent.map((s) => s.by)).to.deep.equal(['a'])
    const b = await node('b')
    await advance(10 * MIN + LEASE, [b]) // b's clock past a's lease
    await until(b.svc, () => b.svc.get(r.id)?.fired === 1)
    expect(sent).to.have.length(1) // b settled it without a send
    for (const f of releases.splice(0)) f()
    await a.svc.idle() // a's own settling finds the occurrence already advanced
    await until(a.svc, () => a.svc.get(r.id)?.fired === 1)
    expect(a.svc.get(r.id)?.nextAt).to.equal(NOW + 20 * MIN)
    expect(sent).to.have.length(1)
  })

  it('a send that fails before anything went out is retried after the backoff, by the instance that can send it', async () => {
    const a = await node('a')
    const b = await node('b')
    failing.add('a')
    const r = await a.svc.create(actor('u1'), { when: '10分钟后', message: '开会' })
    await until(b.svc, () => b.svc.get(r.id) !== undefined)
    await advance(10 * MIN, [a]) // a alone at the due time: claims it, the send fails, it holds the claim for 15 s
    expect(failed).to.deep.equal(['a'])
    await until(b.svc, () => b.svc.get(r.id)?.attempts === 1)
    await advance(10 * MIN, [b]) // b reaches the due time: a's claim holds, nothing sent
    expect(sent).to.deep.equal([])
    await advance(14_000, [b])
    expect(sent).to.deep.equal([])
    // a's clock stands still (were it running, a and b would race for the retry); at the backoff's end b takes it
    await advance(1_000, [b])
    expect(sent.map((s) => s.by)).to.deep.equal(['b'])
    expect(failed).to.deep.equal(['a'])
    await Promise.all(nodes.map((n) => until(n.svc, () => n.svc.get(r.id) === undefined)))
    await advance(30 * MIN)
    expect(sent).to.have.length(1)
  })

  it('a reminder naming a bot is sent by the instance that has that bot', async () => {
    const a = await node('a', { bots: ['bot-a'] })
    const b = await node('b', { bots: ['bot-b'] })
    const forB = await a.svc.create(actor('u1', 'bot-b'), { when: '5分钟后', message: 'via b' })
    const forA = await b.svc.create(actor('u2', 'bot-a'), { when: '5分钟后', message: 'via a' })
    await Promise.all([until(a.svc, () => a.svc.list().length === 2), until(b.svc, () => b.svc.list().length === 2)])
    await advance(5 * MIN)
    await advance(2 * LEASE)
    expect(sent.map((s) => `${s.id}:${s.by}`).sort()).to.deep.equal([`${forA.id}:a`, `${forB.id}:b`].sort())
  })

  it('the migration copies the reminders into PostgreSQL and back with equal counts', async () => {
    const source = mkdtempSync(join(tmpdir(), 'lingxi-reminders-src-'))
    const back = mkdtempSync(join(tmpdir(), 'lingxi-reminders-back-'))
    dirs.push(source, back)
    const { clock } = instanceClock(NOW)
    const o = { settings: () => SETTINGS, clock, log: quietLogger(new EventBus()), deliver: async () => undefined }
    const files = await ReminderService.open(source, o)
    for (let i = 0; i < 7; i++) await files.create(actor(`u${i}`), { when: i % 2 ? '每天9点' : `${i + 1}小时后`, message: `m${i}` })
    const listed = files.list()
    await files.close()
    const stores = PORTED_STORES.filter((s) => s.name === 'reminders')
    expect(await copyToPostgres(source, url, { stores })).to.deep.equal([{ store: 'reminders', read: 7, written: 7 }])
    const shared = await ReminderService.openShared({ ...storageDeps(url), paths: { dataDir: back }, clock: o.clock }, o)
    expect(shared.list()).to.deep.equal(listed)
    await shared.close()
    expect(await copyFromPostgres(url, back, { stores })).to.deep.equal([{ store: 'reminders', read: 7, written: 7 }])
    const again = await ReminderService.open(back, o)
    expect(again.list()).to.deep.equal(listed)
    await again.close()
  })
})

describe('storage: reminders of two plugin instances on one PostgreSQL', function () {
  this.timeout(30_000)
  let one: TestServer | undefined
  let two: TestServer | undefined
  before(async function () {
    const url = await postgresOrSkip(this)
    ;[one, two] = await startTwoOn(url)
  })
  after(async () => {
    await one?.close()
    await two?.close()
  })

  it('a reminder set through one is listed by the other\'s API and cancelled through it', async () => {
    const r = await one!.lx.rt.need('reminders').create(actor('u-plugin'), { when: '2小时后', message: '交周报' })
    const other = two!.lx.rt.need('reminders')
    await until(other, () => other.get(r.id) !== undefined)
    const listed = await two!.api('/api/reminders')
    expect(listed.status, listed.text).to.equal(200)
    expect(JSON.stringify(listed.body.data)).to.include(r.id)
    const gone = await two!.api(`/api/reminders/${r.id}`, { method: 'DELETE' })
    expect(gone.status, gone.text).to.equal(200)
    const first = one!.lx.rt.need('reminders')
    await until(first, () => first.get(r.id) === undefined)
  })
})
