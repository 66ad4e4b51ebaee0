// PresetResolver (rt.chat.presets): per-user / per-group choices, defaults, placeholder rendering.
import { expect } from 'chai'
import type { ChatScope } from '../../lib/chat/contracts.js'
import { startTestServer, type TestServer } from '../support/server.js'

describe('preset resolver', () => {
  let s: TestServer
  before(async () => { s = await startTestServer() })
  after(async () => { await s.close() })

  const scope = (over: Partial<ChatScope> = {}): ChatScope => ({ userId: '10001', nickname: '小明', isMaster: false, via: 'bot', conversationId: 'private:10001', ...over })

  it('is registered on rt.chat.presets and renders the default prompt', async () => {
    const resolver = s.lx.rt.chat.presets
    expect(resolver).to.not.equal(undefined)
    const r = await resolver!.resolve(scope({ groupId: '555', groupName: '测试群', botName: '小犀' }))
    expect(r.id).to.equal('default')
    expect(r.systemPrompt).to.include('小犀').and.include('测试群').and.not.match(/\{\{/)
    // no speaker and no time: each message brings its own, so the prompt stays the same (lib/chat/turn-note.ts)
    expect(r.systemPrompt).to.not.include('小明').and.not.match(/\d\d:\d\d/)
    expect(r.tools).to.deep.equal({ enabled: true, allowedTools: [], excludedTools: [], allowDangerous: false })
  })

  it('an explicit id wins; an unknown explicit id is PRESET_NOT_FOUND, never another preset', async () => {
    expect((await s.lx.rt.chat.presets!.resolve(scope(), 'coder')).id).to.equal('coder')
    const err = await s.lx.rt.chat.presets!.resolve(scope(), 'ghost').then(() => undefined, (e: unknown) => e)
    expect(err).to.include({ code: 'PRESET_NOT_FOUND', status: 404 })
  })

  it('uses user and group choices only when perUserPreset / perGroupPreset are on', async () => {
    const rt = s.lx.rt
    await rt.need('presets').choose('users', '10001', 'companion')
    await rt.need('presets').choose('groups', '777', 'translator')
    const g = scope({ groupId: '777' })
    expect((await rt.chat.presets!.resolve(g)).id).to.equal('default')
    await rt.config.update({ presets: { perGroupPreset: true } })
    expect((await rt.chat.presets!.resolve(g)).id).to.equal('translator')
    await rt.config.update({ presets: { perUserPreset: true } })
    expect((await rt.chat.presets!.resolve(g)).id).to.equal('companion')
    expect((await rt.chat.presets!.resolve(scope({ userId: '20002', groupId: '777' }))).id).to.equal('translator')
    await rt.config.update({ presets: { perUserPreset: false, perGroupPreset: false } })
  })

  it('follows the configured default and a group\'s configured preset', async () => {
    const rt = s.lx.rt
    await rt.need('presets').setDefault('tsundere')
    expect((await rt.chat.presets!.resolve(scope())).id).to.equal('tsundere')
    await rt.config.update({ groups: { 888: { preset: 'coder' } } })
    expect((await rt.chat.presets!.resolve(scope({ groupId: '888' }))).id).to.equal('coder')
    await rt.need('presets').setDefault('default')
  })
})
