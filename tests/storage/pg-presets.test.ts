// The presets on one PostgreSQL shared by two copies of the plugin (their own data folders): a preset
// created, changed and deleted on one is listed and used on the other; a user's and a group's choice made
// on one applies on the other; the default set on one is the other's default. The time to serve a change
// is measured and printed; the waits are for the state (up to 10 s, as in the other two-instance tests).
// And the migration command carries presets.json (the lowdb layout) into PostgreSQL and back, where the
// embedded store reads it again.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import { copyFromPostgres, copyToPostgres } from '../../lib/storage/copy.js'
import { PORTED_STORES } from '../../lib/storage/ported.js'
import { postgresOrSkip } from '../support/postgres.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { startTwoOn, whenRemote } from '../support/shared-instances.js'

/** Resolves with the ms until `s` serves a remote preset change whose key `match` accepts. */
function remotePreset (s: TestServer, match: (key: string) => boolean): Promise<number> {
  return whenRemote((l: (key: string) => void) => s.lx.rt.need('presets').onRemote(l), match)
}

describe('storage: presets shared by two plugin instances on one PostgreSQL', function () {
  this.timeout(60_000)
  let one: TestServer | undefined
  let two: TestServer | undefined
  const figures: number[] = []
  before(async function () {
    const url = await postgresOrSkip(this)
    ;[one, two] = await startTwoOn(url)
  })
  after(async () => {
    await one?.close()
    await two?.close()
    if (figures.length) console.log(`      preset changes served on the other instance after ${figures.map((f) => `${f.toFixed(0)} ms`).join(', ')} (request included)`)
  })

  it('a preset created on one is listed and used on two; changed there, one follows; deleted on one, it is gone', async () => {
    let seen = remotePreset(two!, (k) => k === 'preset:shared-persona')
    const made = await one!.api('/api/presets', { method: 'POST', json: { id: 'shared-persona', name: '共享人设', systemPrompt: 'You speak to {{nickname}} as the shared persona', temperature: 0.4 } })
    expect(made.status, made.text).to.equal(201)
    figures.push(await seen)
    const listed = await two!.api('/api/presets?type=user')
    expect(listed.body.data.presets.map((p: { id: string }) => p.id)).to.deep.equal(['shared-persona'])
    const resolved = await two!.lx.rt.need('presetResolver').resolve({ userId: 'u-1', nickname: 'Ann' } as never, 'shared-persona')
    expect(resolved).to.include({ id: 'shared-persona', name: '共享人设', temperature: 0.4 })
    expect(resolved.systemPrompt).to.equal('You speak to Ann as the shared persona')

    seen = remotePreset(one!, (k) => k === 'preset:shared-persona')
    const changed = await two!.api('/api/presets/shared-persona', { method: 'PUT', json: { name: '改过的人设' } })
    expect(changed.status, changed.text).to.equal(200)
    figures.push(await seen)
    expect((await one!.api('/api/presets/shared-persona')).body.data).to.include({ name: '改过的人设', systemPrompt: 'You speak to {{nickname}} as the shared persona' })

    // the default (configuration, shared too) set on one is two's default once the preset is there
    const setDefault = await one!.api('/api/presets/shared-persona/set-default', { method: 'POST' })
    expect(setDefault.status, setDefault.text).to.equal(200)
    await waitFor(two!, () => two!.lx.rt.need('presets').defaultId() === 'shared-persona')
    expect(two!.lx.rt.need('presetResolver').idFor({ userId: 'u-2' })).to.equal('shared-persona')
    await one!.lx.rt.need('presets').setDefault('default')
    await waitFor(two!, () => two!.lx.rt.need('presets').defaultId() === 'default')
  })

  it('a user\'s and a group\'s choice made on one applies on two, and goes with the preset deleted', async () => {
    await one!.lx.rt.need('presets').updateSettings({ perUserPreset: true, perGroupPreset: true })
    await waitFor(two!, () => two!.lx.rt.config.get().presets.perUserPreset && two!.lx.rt.config.get().presets.perGroupPreset)
    const presetsOne = one!.lx.rt.need('presets')
    let seen = remotePreset(two!, (k) => k === 'user:u-7')
    await presetsOne.choose('users', 'u-7', 'shared-persona')
    figures.push(await seen)
    const resolver = two!.lx.rt.need('presetResolver')
    expect(resolver.idFor({ userId: 'u-7' })).to.equal('shared-persona')
    expect(resolver.idFor({ userId: 'u-8' })).to.equal('default')

    seen = remotePreset(one!, (k) => k === 'group:g-5')
    await two!.lx.rt.need('presets').choose('groups', 'g-5', 'shared-persona')
    figures.push(await seen)
    expect(one!.lx.rt.need('presetResolver').idFor({ userId: 'u-9', groupId: 'g-5' })).to.equal('shared-persona')

    seen = remotePreset(two!, (k) => k === 'preset:shared-persona')
    const gone = await one!.api('/api/presets/shared-persona', { method: 'DELETE' })
    expect(gone.status, gone.text).to.equal(200)
    figures.push(await seen)
    expect((await two!.api('/api/presets/shared-persona')).status).to.equal(404)
    await waitFor(two!, () => two!.lx.rt.need('presets').userChoice('u-7') === undefined && two!.lx.rt.need('presets').groupChoice('g-5') === undefined)
    expect(resolver.idFor({ userId: 'u-7', groupId: 'g-5' })).to.equal('default')
  })
})

/** Resolves once `ok` holds, checked at each remote preset change or configuration change of `s`; fails after 10 s. */
function waitFor (s: TestServer, ok: () => boolean, ms = 10_000): Promise<void> {
  if (ok()) return Promise.resolve()
  return new Promise((resolve, reject) => {
    const check = (): void => { if (ok()) { done(); resolve() } }
    const offPresets = s.lx.rt.need('presets').onRemote(check)
    const offConfig = s.lx.rt.bus.on('config', check)
    const timer = setTimeout(() => { done(); reject(new Error(`not done within ${ms} ms`)) }, ms)
    const done = (): void => { clearTimeout(timer); offPresets(); offConfig() }
  })
}

describe('storage: presets.json through the migration command and back', function () {
  this.timeout(60_000)
  it('copies the lowdb layout into PostgreSQL with equal counts, and the embedded store reads it back', async function () {
    const url = await postgresOrSkip(this)
    const from = mkdtempSync(join(tmpdir(), 'lingxi-presets-'))
    const back = mkdtempSync(join(tmpdir(), 'lingxi-presets-'))
    try {
      const preset = { id: 'kept-1', name: '留下的', description: '', category: 'custom', systemPrompt: 'hi', temperature: 0.7, maxTokens: 1000, tools: { enabled: true, allowedTools: [], excludedTools: [], allowDangerous: false }, voice: { enabled: false }, memory: { enabled: true }, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' }
      writeFileSync(join(from, 'presets.json'), JSON.stringify({ presets: [preset], users: { 'u-1': 'kept-1' }, groups: { 'g-1': 'kept-1' } }))
      const stores = PORTED_STORES.filter((s) => s.name === 'presets')
      expect(await copyToPostgres(from, url, { stores })).to.deep.equal([{ store: 'presets', read: 3, written: 3 }])
      expect(await copyFromPostgres(url, back, { stores })).to.deep.equal([{ store: 'presets', read: 3, written: 3 }])
      const s = await startTestServer({ dataDir: back })
      try {
        const presets = s.lx.rt.need('presets')
        expect(presets.find('kept-1')).to.include({ name: '留下的', systemPrompt: 'hi' })
        expect(presets.userChoice('u-1')).to.equal('kept-1')
        expect(presets.groupChoice('g-1')).to.equal('kept-1')
        const file = JSON.parse(readFileSync(join(back, 'presets.json'), 'utf8')) as { presets: Array<{ id: string }> }
        expect(file.presets.map((p) => p.id), 'the file is in the lowdb layout again').to.deep.equal(['kept-1'])
        expect(existsSync(join(back, 'presets.journal.jsonl'))).to.equal(false)
      } finally { await s.close() }
    } finally {
      rmSync(from, { recursive: true, force: true })
      rmSync(back, { recursive: true, force: true })
    }
  })
})
