// The group log store (lib/grouplog/service.ts) on real files in a temp folder: bounded per group,
// long texts cut, opt-outs never logged, appends (not rewrites), and the log after a clean restart
// and after a crash (the journal replayed).
import { expect } from 'chai'
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Config } from '../../lib/config/schema.js'
import { GroupLogService, MAX_TEXT_CHARS } from '../../lib/grouplog/service.js'

type Settings = Config['groupLog']

describe('grouplog: the store', () => {
  let dir: string
  let settings: Settings
  const logs: GroupLogService[] = []
  const open = async (): Promise<GroupLogService> => {
    const log = await GroupLogService.open(dir, { settings: () => settings })
    logs.push(log)
    return log
  }
  const msg = (i: number, userId = 'u1'): { at: number; userId: string; text: string } => ({ at: 1000 + i, userId, text: `message ${i}` })

  beforeEach(() => {
    dir = join(mkdtempSync(join(tmpdir(), 'lingxi-grouplog-')), 'group-log')
    settings = { enabled: true, maxMessages: 10, contextMessages: 5, excludeUsers: [], excludeGroups: [] }
  })
  afterEach(async () => {
    for (const l of logs.splice(0)) await l.close().catch(() => undefined)
    rmSync(join(dir, '..'), { recursive: true, force: true })
  })

  it('keeps the newest maxMessages per group, oldest first, and counts by time', async () => {
    const log = await open()
    for (let i = 0; i < 25; i++) log.record('g1', msg(i))
    log.record('g2', msg(100))
    expect(log.recent('g1', 100).map((e) => e.text)).to.deep.equal(Array.from({ length: 10 }, (_, i) => `message ${15 + i}`))
    expect(log.recent('g1', 3).map((e) => e.text)).to.deep.equal(['message 22', 'message 23', 'message 24'])
    expect(log.recent('g2', 5)).to.have.length(1)
    expect(log.recent('unknown', 5)).to.deep.equal([])
    expect(log.countSince('g1', 1020)).to.equal(5)
    expect(log.countSince('g1', 0)).to.equal(10)
  })

  it('cuts long texts and leaves unset fields out', async () => {
    const log = await open()
    log.record('g1', { at: 1, userId: 'u1', text: 'x'.repeat(5000), images: 0 })
    const [e] = log.recent('g1', 1)
    expect(e?.text.length).to.equal(MAX_TEXT_CHARS + 1)
    expect(Object.keys(e ?? {}).sort()).to.deep.equal(['at', 'text', 'userId'])
  })

  it('never logs opted-out users and groups, nor anything while off; the bot\'s answers stay', async () => {
    settings.excludeUsers = ['shy']
    settings.excludeGroups = ['private-group']
    const log = await open()
    log.record('g1', msg(1, 'shy'))
    log.record('g1', msg(2, 'u1'))
    log.record('g1', { ...msg(3, 'bot'), fromBot: true })
    log.record('private-group', msg(4))
    settings = { ...settings, enabled: false }
    log.record('g1', msg(5))
    settings = { ...settings, enabled: true }
    await log.idle()
    expect(log.recent('g1', 10).map((e) => e.userId)).to.deep.equal(['u1', 'bot'])
    expect(log.recent('private-group', 10)).to.deep.equal([])
    const onDisk = readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')).join('\n')
    expect(onDisk).to.include('message 2')
    for (const absent of ['message 1', 'message 4', 'message 5', 'private-group', 'shy']) expect(onDisk).to.not.include(absent)
  })

  it('a user who opts out later disappears from what is read, also from earlier messages', async () => {
    const log = await open()
    log.record('g1', msg(1, 'later'))
    log.record('g1', msg(2, 'u1'))
    settings = { ...settings, excludeUsers: ['later'] }
    expect(log.recent('g1', 10).map((e) => e.userId)).to.deep.equal(['u1'])
    expect(log.countSince('g1', 0)).to.equal(1)
  })

  it('journals one small line per message, not the group', async () => {
    const log = await open()
    for (let i = 0; i < 5; i++) log.record('g1', msg(i))
    await log.idle()
    const lines = readFileSync(join(dir, 'groups.journal.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { a?: { k: string; i: unknown[]; n: number } })
    const last = lines.at(-1)
    expect(last?.a?.k).to.equal('g1')
    expect(last?.a?.i).to.have.length(1)
    expect(last?.a?.n).to.equal(10)
  })

  it('is there again after a clean restart (the files) and after a crash (the journal)', async () => {
    const first = await open()
    for (let i = 0; i < 12; i++) first.record('g1', msg(i))
    await first.close()
    const second = await open()
    expect(second.recent('g1', 100).map((e) => e.text)).to.deep.equal(Array.from({ length: 10 }, (_, i) => `message ${2 + i}`))
    second.record('g1', msg(50))
    await second.idle()
    // no close: a second store opens the same folder as after kill -9
    const third = await open()
    expect(third.recent('g1', 1).map((e) => e.text)).to.deep.equal(['message 50'])
    expect(third.recent('g1', 100)).to.have.length(10)
  })
})
