// Parsing of model answers (extraction JSON, summary lines) and the near-duplicate rule.
import { expect } from 'chai'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { systemClock } from '../../lib/core/clock.js'
import { EventBus } from '../../lib/core/event-bus.js'
import { PluginLogger } from '../../lib/core/logger.js'
import { MemoryService } from '../../lib/memory/service.js'
import { CATEGORIES, type MemoryCategory, type MemoryRecord, type MemoryStats, type UserEntry } from '../../lib/memory/types.js'
import { parseFacts } from '../../lib/memory/extract.js'
import { similarity, SAME_FACT } from '../../lib/memory/similar.js'
import { parseSummaryLines } from '../../lib/memory/summarize.js'
import { categoryFromModel } from '../../lib/memory/types.js'
import { normalizeCategory, toA } from '../../routes/_http/memory-adapter.js'

describe('memory: parsing and similarity', () => {
  it('parseFacts reads the first JSON array, tolerating fences and reasoning, and cleans each fact', () => {
    const facts = parseFacts('<think>[not this]</think>Sure!\n```json\n[{"content":" 住在杭州 ","category":"basic_info","confidence":3,"kind":"stated","replaces":"#4"},{"content":""},{"category":"event"},"junk",{"content":"likes tea","category":"unknown","subType":"drink","replaces":"x"}]\n```')
    // a fact whose kind is not said is read as inferred; `replaces` only when it names an id
    expect(facts).to.deep.equal([
      { content: '住在杭州', category: 'profile', subType: '', confidence: 1, kind: 'stated', replaces: 4 },
      { content: 'likes tea', category: 'custom', subType: 'drink', confidence: 0.7, kind: 'inferred' }
    ])
    expect(parseFacts('nothing here')).to.deep.equal([])
    expect(parseFacts('[{"content": broken')).to.deep.equal([])
    expect(parseFacts('{"content":"not an array"}')).to.deep.equal([])
  })

  it('parseSummaryLines keeps only [category] lines, maps names, drops reasoning and duplicates', () => {
    const lines = parseSummaryLines('<thinking>[profile] hidden thought</thinking>\n1. [preferences] likes tea\n- [preference] likes tea\n* [RELATION] has a sister\n[zzz] odd one\nplain text\n[event]')
    expect(lines).to.deep.equal([
      { category: 'preference', content: 'likes tea' },
      { category: 'relation', content: 'has a sister' },
      { category: 'custom', content: 'odd one' }
    ])
  })

  it('category names of both variants normalise to the stored six', () => {
    expect(['basic_info', 'Preferences', 'events', 'relationships', 'interests', 'custom', 'topic'].map(normalizeCategory))
      .to.deep.equal(['profile', 'preference', 'event', 'relation', 'topic', 'custom', 'topic'])
    expect(normalizeCategory('other')).to.equal(undefined)
    expect(toA('relation')).to.equal('relationships')
    // a model's answer: any case, a plural, or a name it echoes from elsewhere
    expect(['Preferences', 'events', 'RELATION', 'topics', 'relationships', 'interests', 'basic_info'].map(categoryFromModel))
      .to.deep.equal(['preference', 'event', 'relation', 'topic', 'relation', 'topic', 'profile'])
    expect(categoryFromModel('zzz')).to.equal(undefined)
  })

  it('similarity: same fact despite punctuation/case/containment; different facts stay apart', () => {
    expect(similarity('喜欢吃火锅', '喜欢吃火锅！')).to.equal(1)
    expect(similarity('Likes Jazz.', 'likes jazz')).to.equal(1)
    expect(similarity('住在成都', '现在住在成都市')).to.be.at.least(SAME_FACT)
    expect(similarity('喜欢吃火锅', '讨厌吃火锅')).to.be.below(SAME_FACT)
    expect(similarity('likes cats', 'likes dogs')).to.be.below(SAME_FACT)
    expect(similarity('', 'x')).to.equal(0)
  })
})

describe('memory: running totals and searches during the start-up build', () => {
  const dirs: string[] = []
  const noop = (): void => {}
  const log = new PluginLogger({ host: () => ({ trace: noop, debug: noop, info: noop, warn: noop, error: noop, fatal: noop, mark: noop }), bus: new EventBus() })
  let t = 1_700_000_000_000
  const clock = { ...systemClock, now: () => (t += 1000) }
  const tempFile = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'lingxi-mem-unit-'))
    dirs.push(dir)
    return join(dir, 'memories.json')
  }
  after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }) })

  /** stats and users counted from scratch over every live record */
  const recount = (m: MemoryService): { stats: MemoryStats; users: UserEntry[] } => {
    const all = m.list()
    const byCategory = Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<MemoryCategory, number>
    const per = new Map<string, MemoryRecord[]>()
    for (const r of all) {
      byCategory[r.category]++
      per.set(r.userId, [...(per.get(r.userId) ?? []), r])
    }
    const users = [...per].map(([userId, rs]) => ({
      userId, count: rs.length, lastUpdate: Math.max(...rs.map((r) => r.updatedAt)), categories: CATEGORIES.filter((c) => rs.some((r) => r.category === c))
    })).sort((a, b) => b.lastUpdate - a.lastUpdate || a.userId.localeCompare(b.userId))
    return { stats: { total: all.length, users: per.size, byCategory }, users }
  }
  const sortedUsers = (u: UserEntry[]): UserEntry[] => [...u].map((e) => ({ ...e, categories: [...e.categories] })).sort((a, b) => b.lastUpdate - a.lastUpdate || a.userId.localeCompare(b.userId))

  it('stats and users kept on write equal a full recount after adds, updates, deletes and a restart', async () => {
    const file = tempFile()
    const m = await MemoryService.open(file, { clock, log })
    const ids: number[] = []
    for (let i = 0; i < 60; i++) ids.push((await m.add({ userId: `u${i % 7}`, content: `fact ${i} 喜欢${i}`, category: CATEGORIES[i % 6]! })).id)
    await m.update(ids[3]!, { category: 'event' })
    await m.update(ids[4]!, { userId: 'u-moved', content: 'moved fact' })
    await m.update(ids[59]!, { content: 'newest changed' }) // newest of its user changes
    await m.remove(ids[58]!, false) // soft: the newest of u2 goes, lastUpdate recounted
    await m.remove(ids[10]!, true)
    await m.remove(ids[11]!, false)
    await m.remove(ids[11]!, true) // a soft-deleted one erased: counted once
    await m.clearUser('u5', false)
    await m.remove(ids[6]!, false) // u6: soft-deleted, then erased with the rest by a hard clear
    expect(await m.clearUser('u6', true)).to.be.greaterThan(0)
    let erased = false
    await m.remove(ids[6]!, true).catch(() => { erased = true })
    expect(erased).to.equal(true)
    const expected = recount(m)
    expect(expected.stats.total).to.be.greaterThan(30)
    expect(m.stats()).to.deep.equal(expected.stats)
    expect(sortedUsers(m.users())).to.deep.equal(expected.users)
    expect(m.users().map((u) => u.userId)).to.not.include.members(['u5', 'u6'])
    await m.close()

    const again = await MemoryService.open(file, { clock, log })
    try {
      expect(again.stats()).to.deep.equal(expected.stats)
      expect(sortedUsers(again.users())).to.deep.equal(expected.users)
      await again.add({ userId: 'u5', content: 'back again', category: 'topic' })
      const after = recount(again)
      expect(again.stats()).to.deep.equal(after.stats)
      expect(sortedUsers(again.users())).to.deep.equal(after.users)
    } finally { await again.close() }
  })

  it("a user's search while the index is still being built answers at once, with that user's records", async () => {
    const file = tempFile()
    const records: MemoryRecord[] = []
    for (let id = 1; id <= 40_000; id++) {
      records.push({ id, userId: `u${id % 400}`, content: id % 400 === 7 && id % 3 === 0 ? `喜欢吃火锅 number ${id}` : `likes tea and long walks number ${id}`, category: 'custom', subType: '', confidence: 0.8, groupId: '', metadata: {}, source: 'auto', createdAt: 1, updatedAt: 1 })
    }
    writeFileSync(file, JSON.stringify({ meta: { nextId: 40_001 }, records }))
    const m = await MemoryService.open(file, { clock, log })
    try {
      expect(m.indexComplete).to.equal(false)
      const during = await m.search({ query: '火锅', userId: 'u7', limit: 100 })
      expect(m.indexComplete).to.equal(false) // answered without waiting for the build
      const want = records.filter((r) => r.userId === 'u7' && r.content.includes('火锅')).map((r) => r.id).sort()
      expect(during.map((h) => h.id).sort()).to.deep.equal(want)
      await m.ready()
      expect(m.indexComplete).to.equal(true)
      const done = await m.search({ query: '火锅', userId: 'u7', limit: 100 })
      expect(done.map((h) => h.id).sort()).to.deep.equal(want)
      expect(await m.search({ query: 'tea', limit: 5 })).to.have.length(5)
    } finally { await m.close() }
  })
})
