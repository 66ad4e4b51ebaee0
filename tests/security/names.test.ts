// Prototype pollution through names (README, Security model): users, groups, models, channels, tools named
// `__proto__`, `constructor`, `prototype`... Chat ids are stored safely (null-prototype records,
// lib/core/dict.ts); names the master picks through the API are refused with a 400. Afterwards
// Object.prototype is untouched and every strictly validated write still works.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { startTestServer, type TestServer } from '../support/server.js'

const HOSTILE = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString'] as const
const protoNames = (): string[] => Object.getOwnPropertyNames(Object.prototype).sort()
const ORIGINAL = protoNames()

/** Fails when anything was written onto Object.prototype (and cleans up, so one failure stays one). */
function expectCleanPrototype (): void {
  const added = protoNames().filter((n) => !ORIGINAL.includes(n))
  for (const n of added) delete (Object.prototype as Record<string, unknown>)[n]
  expect(added, 'keys added to Object.prototype').to.deep.equal([])
  expect(Object.getPrototypeOf(Object.prototype)).to.equal(null)
}

describe('security: hostile names (__proto__, constructor, prototype...)', function () {
  this.timeout(60_000)
  let fake: FakeOpenAI
  let s: TestServer
  let dataDir = ''

  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test', '__proto__'] })
    s = await startTestServer({ keepData: true })
    dataDir = s.dataDir
    const r = await s.api('/api/config/channels', { method: 'POST', json: { name: 'fake', baseUrl: fake.url, apiKey: 'sk-test', model: 'gpt-test', models: ['gpt-test', '__proto__'] } })
    expect(r.status, r.text).to.be.oneOf([200, 201])
  })
  after(async () => {
    await s?.close()
    await fake?.close()
    expectCleanPrototype()
  })

  const chat = async (json: Record<string, string>): Promise<{ status: number; body: any; text: string }> =>
    await s.api('/api/chat', { method: 'POST', json: { message: `hi from ${json.userId ?? ''}`, ...json } })

  it('chat from users and in groups named like Object.prototype members is answered and counted', async () => {
    for (const name of HOSTILE) {
      const priv = await chat({ userId: name })
      expect(priv.status, `${name}: ${priv.text}`).to.equal(200)
      expect(priv.body.data.response).to.equal(`echo: hi from ${name}`)
      const group = await chat({ userId: name, groupId: name })
      expect(group.status, `${name} in group: ${group.text}`).to.equal(200)
      expect(group.body.data.conversationId).to.equal(`group:${name}:${name}`)
    }
    // the pipeline's stats writes for a model named __proto__ (the channel's model) too
    await s.lx.rt.config.update({ channels: [{ ...s.lx.rt.config.get().channels[0], model: '__proto__' }] })
    const viaModel = await chat({ userId: '__proto__', groupId: 'constructor' })
    expect(viaModel.status, viaModel.text).to.equal(200)
    expect(fake.chatRequests().at(-1)?.body.model).to.equal('__proto__')
    await s.lx.rt.config.update({ channels: [{ ...s.lx.rt.config.get().channels[0], model: 'gpt-test' }] })
    // a tool and a channel id named so reach the stats through other paths: recorded directly
    s.lx.rt.stats.recordToolCall({ name: '__proto__', durationMs: 5, success: true, userId: '__proto__', groupId: 'constructor' })
    s.lx.rt.stats.recordModelRequest({ source: 'api', channelId: '__proto__', model: 'constructor', latencyMs: 3, success: false, error: 'x' })
    expectCleanPrototype()

    const conv = await s.api('/api/conversations?userId=__proto__')
    expect(conv.status).to.equal(200)
    expect(conv.body.data.conversations.map((c: { id: string }) => c.id)).to.include.members(['private:__proto__', 'group:__proto__:__proto__'])
  })

  it('GET /api/stats/* answer the hostile ids as ordinary ones', async () => {
    const users = await s.api('/api/stats/users?limit=100')
    expect(users.status).to.equal(200)
    const byUser = new Map<string, { messages: number }>(users.body.data.users.map((u: { userId: string; messages: number }) => [u.userId, u]))
    for (const name of HOSTILE) expect(byUser.get(name)?.messages, name).to.be.at.least(2)
    expect(byUser.get('__proto__')?.messages).to.equal(3)

    const groups = await s.api('/api/stats/groups?limit=100')
    const byGroup = new Map<string, { messages: number; users: number }>(groups.body.data.groups.map((g: { groupId: string; messages: number; users: number }) => [g.groupId, g]))
    for (const name of HOSTILE) expect(byGroup.get(name)?.messages, name).to.be.at.least(1)
    expect(byGroup.get('constructor')).to.include({ messages: 2, users: 2 })

    const one = await s.api('/api/stats?groupId=constructor&period=day')
    expect(one.status).to.equal(200)
    expect(one.body.data.summary).to.include({ totalMessages: 2, activeUsers: 2, activeGroups: 1, toolCalls: 1 })
    const allTime = await s.api('/api/stats?groupId=constructor')
    expect(allTime.body.data.summary).to.include({ activeUsers: 2, activeGroups: 1 })
    // a group nobody spoke in: no inherited member found under its name
    const protoGroup = await s.api('/api/stats?groupId=__proto__&period=day')
    expect(protoGroup.body.data.summary).to.include({ totalMessages: 1, activeUsers: 1, activeGroups: 1 })
    const none = await s.api('/api/stats?groupId=valueOf')
    expect(none.body.data.summary).to.include({ totalMessages: 0, activeUsers: 0, activeGroups: 0 })

    const models = (await s.api('/api/stats/models')).body.data.models.map((m: { model: string }) => m.model)
    expect(models).to.include.members(['gpt-test', '__proto__', 'constructor'])
    expect((await s.api('/api/stats/tools')).body.data.tools).to.deep.include({ name: '__proto__', calls: 1, avgDuration: 5, successRate: 1 })
    const channels = (await s.api('/api/stats/channels')).body.data.channels
    expect(channels.find((c: { id: string }) => c.id === '__proto__')).to.include({ status: 'removed', requests: 1, errors: 1 })
    expectCleanPrototype()
  })

  it('memories of a user named __proto__ are kept, listed and searched like any other', async () => {
    for (const name of ['__proto__', 'constructor']) {
      const add = await s.api(`/api/memory/user/${name}`, { method: 'POST', json: { content: `${name} likes green tea`, category: 'preference' } })
      expect(add.status, add.text).to.equal(200)
      const list = await s.api(`/api/memory/user/${name}`)
      expect(list.status).to.equal(200)
      expect(JSON.stringify(list.body)).to.include(`${name} likes green tea`)
    }
    const users = await s.api('/api/memory/users')
    expect(users.body.data.map((u: { userId: string }) => u.userId)).to.include.members(['__proto__', 'constructor'])
    const none = await s.api('/api/memory/user/toString')
    expect(none.status).to.equal(200)
    expect(JSON.stringify(none.body)).to.not.include('green tea')
    const found = await s.api('/api/memory/search', { method: 'POST', json: { query: 'green tea', userId: '__proto__' } })
    expect(found.status, found.text).to.equal(200)
    expect(JSON.stringify(found.body)).to.include('__proto__ likes green tea')
    expectCleanPrototype()
  })

  it('group config: group `constructor` is its own group; a `__proto__` key is refused with a 400', async () => {
    for (const name of ['constructor', 'toString', 'prototype']) {
      const before = await s.api(`/api/config/groups/${name}`)
      expect(before.status).to.equal(200)
      expect(before.body.data).to.include({ groupId: name, custom: false, enabled: true })
    }
    const put = await s.api('/api/config/groups/constructor', { method: 'PUT', json: { enabled: true, trigger: { type: 'prefix' } } })
    expect(put.status, put.text).to.equal(200)
    expect(put.body.data).to.include({ groupId: 'constructor', custom: true })
    expect(put.body.data.trigger.type).to.equal('prefix')
    expect((await s.api('/api/config/groups/constructor')).body.data.trigger.type).to.equal('prefix')
    expect((await s.api('/api/config/groups/toString')).body.data.custom).to.equal(false)
    // chat in the configured group still answers
    expect((await chat({ userId: 'u1', groupId: 'constructor' })).status).to.equal(200)

    const proto = await s.api('/api/config/groups/__proto__', { method: 'PUT', json: { enabled: false } })
    expect(proto.status, proto.text).to.equal(400)
    expect(proto.body.message).to.match(/__proto__.*reserved/)
    // JSON bodies holding a __proto__ key anywhere are refused by the body parser with a clear 400
    for (const [path, method, body] of [['/api/config', 'PUT', '{"groups":{"__proto__":{"enabled":false}}}'], ['/api/config', 'PUT', '{"__proto__":{"polluted":true}}'],
      ['/api/config/validate', 'POST', '{"trigger":{"__proto__":{"x":1}}}'], ['/api/chat', 'POST', '{"message":"hi","__proto__":{"isMaster":true}}']] as const) {
      const raw = await s.api(path, { method, body, headers: { 'Content-Type': 'application/json' } })
      expect(raw.status, raw.text).to.equal(400)
      expect(raw.body.message).to.match(/__proto__.*reserved/)
    }
    // below the HTTP parser (YAML files, other callers) the config service refuses it itself
    let refused: unknown
    await s.lx.rt.config.update(JSON.parse('{"groups":{"__proto__":{"enabled":false}}}')).catch((err: unknown) => { refused = err })
    expect(String((refused as Error | undefined)?.message)).to.match(/groups\.__proto__.*reserved/)
    expect(s.lx.rt.config.validate(JSON.parse('{"trigger":{"__proto__":{"x":1}}}'))[0]?.path).to.equal('trigger.__proto__')
    const yaml = await s.api('/api/config/import', { method: 'POST', body: 'groups:\n  __proto__:\n    enabled: false\n', headers: { 'Content-Type': 'text/yaml' } })
    expect(yaml.status, yaml.text).to.equal(400)
    expect(Object.hasOwn(s.lx.rt.config.get().groups, '__proto__')).to.equal(false)
    expect(Object.getPrototypeOf(s.lx.rt.config.get().groups)).to.equal(null)
    expectCleanPrototype()
  })

  it('names the master picks (channels, presets, custom tools, MCP servers) refuse reserved names with a 400', async () => {
    for (const name of HOSTILE) {
      const ch = await s.api('/api/config/channels', { method: 'POST', json: { name, baseUrl: fake.url, apiKey: 'sk', model: 'gpt-test' } })
      expect(ch.status, `channel ${name}: ${ch.text}`).to.equal(400)
      expect(ch.text).to.include('reserved name')
      const chId = await s.api('/api/config/channels', { method: 'POST', json: { name: `ok-${name.length}`, id: name, baseUrl: fake.url, apiKey: 'sk', model: 'gpt-test' } })
      expect(chId.status, `channel id ${name}: ${chId.text}`).to.equal(400)
      const tool = await s.api('/api/tools/custom', { method: 'POST', json: { name, description: 'x', action: { type: 'text', text: 'hi' } } })
      expect(tool.status, `tool ${name}: ${tool.text}`).to.equal(400)
      expect(tool.text).to.include('reserved name')
      const mcp = await s.api('/api/mcp/servers', { method: 'POST', json: { name, config: { command: 'node', args: ['-e', '0'] } } })
      expect(mcp.status, `mcp ${name}: ${mcp.text}`).to.equal(400)
    }
    for (const id of ['constructor', 'prototype', 'hasOwnProperty']) {
      const p = await s.api('/api/presets', { method: 'POST', json: { id, name: 'x', systemPrompt: 'x' } })
      expect(p.status, `preset ${id}: ${p.text}`).to.equal(400)
    }
    const imported = await s.api('/api/mcp/import', { method: 'POST', body: '{"mcpServers":{"__proto__":{"command":"node"},"constructor":{"command":"node"}}}', headers: { 'Content-Type': 'application/json' } })
    expect(imported.status).to.be.lessThan(500)
    expect(Object.keys(s.lx.rt.config.get().mcp.servers)).to.not.include.members(['__proto__', 'constructor'])
    expect(s.lx.rt.config.get().channels.map((c) => c.name)).to.deep.equal(['fake'])
    expectCleanPrototype()
  })

  it('every kind of strictly validated write still works afterwards', async () => {
    const cfg = await s.api('/api/config', { method: 'PUT', json: { trigger: { prefix: '#ai' } } })
    expect(cfg.status, cfg.text).to.equal(200)
    const ch = await s.api('/api/config/channels', { method: 'POST', json: { name: 'second', baseUrl: fake.url, apiKey: 'sk-2', model: 'gpt-test' } })
    expect(ch.status, ch.text).to.be.oneOf([200, 201])
    const kn = await s.api('/api/knowledge', { method: 'POST', json: { title: 'Tea', content: 'Green tea is tea.' } })
    expect(kn.status, kn.text).to.be.oneOf([200, 201])
    const tool = await s.api('/api/tools/custom', { method: 'POST', json: { name: 'greet', description: 'Greets', action: { type: 'text', text: 'Hello' } } })
    expect(tool.status, tool.text).to.be.oneOf([200, 201])
    const preset = await s.api('/api/presets', { method: 'POST', json: { id: 'tea-lover', name: 'Tea', systemPrompt: 'You like tea.' } })
    expect(preset.status, preset.text).to.be.oneOf([200, 201])
    const grp = await s.api('/api/config/groups/hasOwnProperty', { method: 'PUT', json: { enabled: false } })
    expect(grp.status, grp.text).to.equal(200)
    expect((await chat({ userId: 'constructor', groupId: 'prototype' })).status).to.equal(200)
    expectCleanPrototype()
  })

  it('after a restart the stored records read back with the same names, still without a prototype', async () => {
    // per-user and per-group preset choices (the bot command's store) keyed by the hostile ids
    await s.lx.rt.need('presets').choose('users', '__proto__', 'tea-lover')
    await s.lx.rt.need('presets').choose('groups', 'constructor', 'tea-lover')
    expect(s.lx.rt.need('presets').groupChoice('toString')).to.equal(undefined)
    await s.close()
    s = await startTestServer({ dataDir, keepData: true })
    const users = (await s.api('/api/stats/users?limit=100')).body.data.users.map((u: { userId: string }) => u.userId)
    expect(users).to.include.members([...HOSTILE])
    const groups = (await s.api('/api/stats/groups?limit=100')).body.data.groups.map((g: { groupId: string }) => g.groupId)
    expect(groups).to.include.members([...HOSTILE])
    const day = await s.api('/api/stats?groupId=constructor&period=day')
    expect(day.body.data.summary.totalMessages).to.equal(3)
    expect((await s.api('/api/stats?groupId=valueOf&period=day')).body.data.summary.totalMessages).to.equal(0)
    expect((await s.api('/api/stats/models')).body.data.models.map((m: { model: string }) => m.model)).to.include('__proto__')
    expect((await s.api('/api/memory/users')).body.data.map((u: { userId: string }) => u.userId)).to.include('__proto__')
    expect((await s.api('/api/config/groups/constructor')).body.data.custom).to.equal(true)
    expect(s.lx.rt.need('presets').userChoice('__proto__')).to.equal('tea-lover')
    expect(s.lx.rt.need('presets').groupChoice('constructor')).to.equal('tea-lover')
    expect(s.lx.rt.need('presets').userChoice('hasOwnProperty')).to.equal(undefined)
    // more chat on the reloaded records
    expect((await chat({ userId: '__proto__', groupId: 'constructor' })).status).to.equal(200)
    expect((await s.api('/api/config', { method: 'PUT', json: { trigger: { prefix: '#lx-ai' } } })).status).to.equal(200)
    expectCleanPrototype()
  })
})

describe('security: hostile keys in the files read at start', function () {
  this.timeout(60_000)
  after(() => { expectCleanPrototype() })

  it('config.yaml and stats.json holding __proto__ / constructor keys load without touching Object.prototype', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lingxi-names-files-'))
    writeFileSync(join(dir, 'config.yaml'), 'groups:\n  __proto__:\n    enabled: false\n  constructor:\n    enabled: false\n  "123":\n    preset: assistant\n')
    const user = { nickname: 'p', messages: 4, tokens: 9, lastActive: 1 }
    writeFileSync(join(dir, 'stats.json'), `{"models":{"__proto__":{"requests":2,"tokens":3,"latencySum":4,"errors":0}},"tools":{},"users":{"__proto__":${JSON.stringify(user)},"constructor":${JSON.stringify(user)}},` +
      '"groups":{"__proto__":{"messages":1,"responses":1,"tokens":1,"users":1,"lastActive":1,"userIds":{"__proto__":1}}},"channels":{}}')
    const srv = await startTestServer({ dataDir: dir })
    try {
      expectCleanPrototype()
      const groups = srv.lx.rt.config.get().groups
      expect(Object.keys(groups).sort()).to.deep.equal(['123', 'constructor'])
      expect(Object.getPrototypeOf(groups)).to.equal(null)
      expect(srv.lx.rt.log.query({ level: 'warn' }).some((e) => e.message.includes('groups.__proto__'))).to.equal(true)
      const users = (await srv.api('/api/stats/users')).body.data.users
      expect(users.map((u: { userId: string }) => u.userId).sort()).to.deep.equal(['__proto__', 'constructor'])
      // the loaded records take new writes as records, not as the prototype
      srv.lx.rt.stats.recordMessage({ userId: '__proto__', groupId: '__proto__' })
      srv.lx.rt.stats.recordMessage({ userId: 'constructor', groupId: '__proto__' })
      const g = (await srv.api('/api/stats/groups')).body.data.groups[0]
      expect(g).to.include({ groupId: '__proto__', messages: 3, users: 2 })
      expect((await srv.api('/api/stats/models')).body.data.models[0]).to.include({ model: '__proto__', requests: 2 })
      expectCleanPrototype()
    } finally {
      await srv.close()
    }
  })
})

describe('security: hostile names through the standalone host', function () {
  this.timeout(60_000)
  let fake: FakeOpenAI
  let p: PluginHost
  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    p = await startPluginHost('miao', 'lingxi-names-')
    await p.run.rt.config.update({ channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk', model: 'gpt-test' }] })
  })
  after(async () => {
    await p?.stop()
    await fake?.close()
    expectCleanPrototype()
  })

  it('a message from user __proto__ in group constructor is answered', async () => {
    const res = await p.host.sendGroup('constructor', '__proto__', '你好', { at: true })
    expect(res.stage).to.equal('handled')
    const sent = await p.host.waitForSend((e) => e.target === 'group' && e.targetId === 'constructor')
    expect(sent.text).to.include('echo: 你好')
    const priv = await p.host.sendPrivate('__proto__', '在吗')
    expect(priv.stage).to.equal('handled')
    expect(p.host.transcript.at(-1)?.text).to.include('echo: 在吗')
    expect(p.run.rt.need('conversations').store.history('group:constructor:__proto__')).to.have.length(2)
    expect(p.run.rt.stats.users(100).map((u) => u.userId)).to.include('__proto__')
    expectCleanPrototype()
  })
})
