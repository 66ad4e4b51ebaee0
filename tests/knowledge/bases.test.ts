// Knowledge bases through real HTTP (/api/knowledge/bases, baseId on documents, files, URLs, lists and
// the search; GET /:id/passages), kept across a restart; and in a QQ group of the standalone host the
// passages come from the bases the group names (config groups.<id>.knowledge), else from the preset's
// (its documents and the bases bound to it).
import { expect } from 'chai'
import { readFileSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { sentMessages } from '../chat/helpers.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { splitUserContent } from '../support/user-text.js'

const FIXTURES = fileURLToPath(new URL('../fixtures/knowledge/', import.meta.url))

interface Base { id: string; name: string; description: string; presetIds: string[]; documents: number }
interface Doc { id: string; title: string; baseId: string; status: string }
interface Hit { docId: string; title: string; text: string }

describe('knowledge bases (HTTP)', function () {
  this.timeout(60_000)
  let s: TestServer
  before(async () => { s = await startTestServer({ keepData: true }) })
  after(async () => { await s?.close(); if (s) rmSync(s.dataDir, { recursive: true, force: true }) })

  const bases = async (): Promise<Base[]> => {
    const r = await s.api('/api/knowledge/bases')
    expect(r.status, r.text).to.equal(200)
    return r.body.data as Base[]
  }
  const add = async (title: string, content: string, extra: Record<string, unknown> = {}): Promise<Doc> => {
    const r = await s.api('/api/knowledge', { method: 'POST', json: { title, content, ...extra } })
    expect(r.status, r.text).to.equal(201)
    return r.body.data as Doc
  }
  const search = async (query: string, extra = ''): Promise<Hit[]> => {
    const r = await s.api(`/api/knowledge/search?query=${encodeURIComponent(query)}${extra}`)
    expect(r.status, r.text).to.equal(200)
    return r.body.data as Hit[]
  }

  it('has a default base that holds the documents written without one', async () => {
    const before = await bases()
    expect(before.map((b) => b.id)).to.deep.equal(['default'])
    const d = await add('门禁', '门禁卡在前台领取。')
    expect(d.baseId).to.equal('default')
    expect((await bases())[0]).to.include({ id: 'default', documents: 1 })
  })

  it('creates (201), lists, reads and renames a base; 400 for bad fields, 409 for a taken id, 404 for an unknown one', async () => {
    const r = await s.api('/api/knowledge/bases', { method: 'POST', json: { id: 'cats', name: '猫咪', description: '养猫的资料' } })
    expect(r.status, r.text).to.equal(201)
    expect(r.body.data).to.include({ id: 'cats', name: '猫咪', description: '养猫的资料', documents: 0 })
    const made = await s.api('/api/knowledge/bases', { method: 'POST', json: { name: '咖啡' } })
    expect(made.status).to.equal(201)
    expect(made.body.data.id).to.match(/^[\w-]{1,64}$/)
    expect((await bases()).map((b) => b.name)).to.deep.equal(['默认知识库', '猫咪', '咖啡'])

    const noName = await s.api('/api/knowledge/bases', { method: 'POST', json: { description: 'x' } })
    expect([noName.status, noName.body.message]).to.deep.equal([400, 'name is required'])
    const badId = await s.api('/api/knowledge/bases', { method: 'POST', json: { id: 'a b', name: 'x' } })
    expect([badId.status, badId.body.message]).to.deep.equal([400, 'id: id must be 1-64 letters, digits, _ or -'])
    const extra = await s.api('/api/knowledge/bases', { method: 'POST', json: { name: 'x', color: 'red' } })
    expect(extra.status).to.equal(400)
    const taken = await s.api('/api/knowledge/bases', { method: 'POST', json: { id: 'cats', name: 'x' } })
    expect(taken.status).to.equal(409)

    const renamed = await s.api('/api/knowledge/bases/cats', { method: 'PUT', json: { name: '猫咪照护' } })
    expect(renamed.status, renamed.text).to.equal(200)
    expect(renamed.body.data).to.include({ id: 'cats', name: '猫咪照护', description: '养猫的资料' })
    expect((await s.api('/api/knowledge/bases/cats')).body.data.name).to.equal('猫咪照护')
    const empty = await s.api('/api/knowledge/bases/cats', { method: 'PUT', json: {} })
    expect([empty.status, empty.body.message]).to.deep.equal([400, 'Nothing to update: send name, description or presetIds'])
    expect((await s.api('/api/knowledge/bases/ghost')).status).to.equal(404)
    expect((await s.api('/api/knowledge/bases/ghost', { method: 'PUT', json: { name: 'x' } })).status).to.equal(404)
  })

  it('puts documents, files and URLs into a base (404 for an unknown base, nothing kept); lists and searches one base', async () => {
    const cat = await add('猫粮', '成年猫每天喂两次猫粮，每次四十克。', { baseId: 'cats' })
    expect(cat.baseId).to.equal('cats')
    const dog = await add('狗粮', '成年狗每天喂两次狗粮，每次两百克。')
    const ghost = await s.api('/api/knowledge', { method: 'POST', json: { title: 'x', content: 'y', baseId: 'ghost' } })
    expect(ghost.status, ghost.text).to.equal(404)
    expect(ghost.body.message).to.equal('Knowledge base not found: ghost')

    const form = (baseId: string): FormData => {
      const f = new FormData()
      f.append('file', new Blob([new Uint8Array(readFileSync(FIXTURES + 'cat-care.html'))]), 'cat-care.html')
      f.append('baseId', baseId)
      return f
    }
    const before = (await s.api('/api/knowledge')).body.data.length
    const lost = await s.api('/api/knowledge/files', { method: 'POST', body: form('ghost') })
    expect(lost.status, lost.text).to.equal(404)
    expect((await s.api('/api/knowledge')).body.data).to.have.length(before)
    const up = await s.api('/api/knowledge/files', { method: 'POST', body: form('cats') })
    expect(up.status, up.text).to.equal(201)
    const fileId = up.body.data[0].id as string
    await s.lx.rt.need('knowledge').processed(fileId)
    expect((await s.api(`/api/knowledge/${fileId}`)).body.data).to.include({ baseId: 'cats', status: 'ready' })
    const url = await s.api('/api/knowledge/url', { method: 'POST', json: { url: 'http://127.0.0.1:9/x.html', baseId: 'ghost' } })
    expect(url.status).to.equal(404)

    const listed = await s.api('/api/knowledge?baseId=cats')
    expect(listed.status).to.equal(200)
    expect((listed.body.data as Doc[]).map((d) => d.id).sort()).to.deep.equal([cat.id, fileId].sort())
    const page = await s.api('/api/knowledge?baseId=cats&limit=1&offset=1')
    expect(page.body.total).to.equal(2)
    expect(page.body.data).to.have.length(1)
    expect((await s.api('/api/knowledge?baseId=ghost')).status).to.equal(404)
    expect((await s.api('/api/knowledge?baseId=a%20b')).status).to.equal(400)

    // both documents match "每天喂两次"; the base narrows it to its own
    expect((await search('每天喂两次')).map((h) => h.docId)).to.include.members([cat.id, dog.id])
    const inCats = (await search('每天喂两次', '&baseId=cats')).map((h) => h.docId)
    expect(inCats[0]).to.equal(cat.id)
    expect(inCats.filter((id) => id !== cat.id && id !== fileId)).to.deep.equal([])
    expect((await s.api('/api/knowledge/search?query=x&baseId=ghost')).status).to.equal(404)
    expect((await bases()).find((b) => b.id === 'cats')!.documents).to.equal(2)

    // a document moves to another base
    const moved = await s.api(`/api/knowledge/${cat.id}`, { method: 'PUT', json: { baseId: 'default' } })
    expect(moved.body.data.baseId).to.equal('default')
    expect((await search('每天喂两次', '&baseId=cats')).map((h) => h.docId)).to.not.include(cat.id)
    await s.api(`/api/knowledge/${cat.id}`, { method: 'PUT', json: { baseId: 'cats' } })
  })

  it('answers a document\'s passages in order with heading and page', async () => {
    const r = await s.api('/api/knowledge/files', { method: 'POST', body: (() => { const f = new FormData(); f.append('file', new Blob([new Uint8Array(readFileSync(FIXTURES + 'safety.pdf'))]), 'safety.pdf'); return f })() })
    const id = r.body.data[0].id as string
    await s.lx.rt.need('knowledge').processed(id)
    const p = await s.api(`/api/knowledge/${id}/passages`)
    expect(p.status, p.text).to.equal(200)
    const list = p.body.data as Array<{ index: number; heading: string; page?: number; text: string }>
    expect(list.map((x) => x.index)).to.deep.equal(list.map((_, i) => i))
    expect(list.length).to.equal((await s.api(`/api/knowledge/${id}`)).body.data.chunks)
    const drill = list.find((x) => x.text.includes('消防演练在每年十月的第二个周五举行'))
    expect(drill).to.include({ heading: '第二章 消防安全', page: 2 })
    expect((await s.api('/api/knowledge/ghost/passages')).status).to.equal(404)
    await s.api(`/api/knowledge/${id}`, { method: 'DELETE' })
  })

  it('binds a base to presets: a search within the preset finds its documents besides the preset\'s own', async () => {
    const r = await s.api('/api/knowledge/bases', { method: 'POST', json: { id: 'barista', name: '咖啡师', presetIds: ['coffee-bot', 'coffee-bot'] } })
    expect(r.body.data.presetIds).to.deep.equal(['coffee-bot'])
    const inBase = await add('磨豆', '意式浓缩的研磨度要细，萃取二十五秒。', { baseId: 'barista' })
    const own = await add('奶泡', '奶泡温度六十度，萃取后倒入。', { presetId: 'coffee-bot' })
    await add('别处', '别的预设：萃取茶叶三分钟。', { presetId: 'tea-bot' })
    expect((await search('萃取', '&presetId=coffee-bot')).map((h) => h.docId).sort()).to.deep.equal([inBase.id, own.id].sort())
    expect((await search('萃取', '&presetId=coffee-bot&baseId=barista')).map((h) => h.docId)).to.deep.equal([inBase.id])
    expect((await s.api('/api/knowledge/bases/barista', { method: 'PUT', json: { presetIds: 'coffee-bot' } })).status).to.equal(400)
  })

  it('keeps the bases across a restart', async () => {
    const dataDir = s.dataDir
    await s.close()
    s = await startTestServer({ dataDir, keepData: true })
    const after = await bases()
    expect(after.map((b) => b.id)).to.include.members(['default', 'cats', 'barista'])
    expect(after.find((b) => b.id === 'cats')).to.include({ name: '猫咪照护', documents: 2 })
    // (right after the start the index may still be building: the base's documents are scanned then)
    const titles = (await search('每天喂两次', '&baseId=cats')).map((h) => h.title)
    expect(titles).to.include('猫粮').and.not.include('狗粮')
  })

  it('refuses to remove a base holding documents (409) unless withDocuments=true; never the default base', async () => {
    const held = await s.api('/api/knowledge/bases/cats', { method: 'DELETE' })
    expect(held.status, held.text).to.equal(409)
    expect(held.body.message).to.include('withDocuments=true')
    expect((await s.api('/api/knowledge/bases/cats?withDocuments=maybe', { method: 'DELETE' })).status).to.equal(400)
    const docs = (await s.api('/api/knowledge?baseId=cats')).body.data as Doc[]
    const gone = await s.api('/api/knowledge/bases/cats?withDocuments=true', { method: 'DELETE' })
    expect(gone.status, gone.text).to.equal(200)
    expect(gone.body.data).to.deep.equal({ success: true })
    expect((await s.api('/api/knowledge/bases/cats')).status).to.equal(404)
    for (const d of docs) expect((await s.api(`/api/knowledge/${d.id}`)).status).to.equal(404)
    expect(await search('猫粮')).to.deep.equal([])
    const emptyBase = (await bases()).find((b) => b.name === '咖啡')!
    expect((await s.api(`/api/knowledge/bases/${emptyBase.id}`, { method: 'DELETE' })).status).to.equal(200)
    expect((await s.api('/api/knowledge/bases/default', { method: 'DELETE' })).status).to.equal(409)
  })
})

describe('knowledge bases in a QQ group (standalone host)', function () {
  this.timeout(60_000)
  let fake: FakeOpenAI
  let p: PluginHost
  const ids: Record<string, string> = {}
  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    p = await startPluginHost('miao', 'lingxi-kb-bases-')
    const rt = p.run.rt
    await rt.config.update({ channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk', model: 'gpt-test', models: ['gpt-test'] }], trigger: { private: 'always', group: 'at', prefix: '灵犀', randomRate: 0 } })
    const kb = rt.need('knowledge')
    const preset = (await rt.need('presetResolver').resolve({ userId: '74001', groupId: '75001', isMaster: false, via: 'bot', conversationId: 'group:75001' })).id
    await kb.bases.create({ id: 'north', name: '北区' })
    await kb.bases.create({ id: 'south', name: '南区', presetIds: [preset] })
    ids.north = (await kb.create({ title: '北区班车', content: '北区班车每天早上七点从东门发车。', baseId: 'north' })).id
    ids.south = (await kb.create({ title: '南区班车', content: '南区班车每天早上八点从西门发车。', baseId: 'south' })).id
    // the group 75001 names the north base; 75002 names none (the preset's bound base applies)
    await rt.config.update({ groups: { 75001: { knowledge: ['north'] } } })
  })
  after(async () => { await p?.stop(); await fake?.close() })

  const tailOfLastRequest = (): string => {
    const newest = sentMessages(fake.chatRequests().at(-1)?.body).filter((m) => m.role === 'user').at(-1)!.content
    return splitUserContent(newest).tail
  }

  it('a group that names bases gets passages from them only', async () => {
    fake.reset()
    fake.enqueue({ content: '七点，东门。' })
    const res = await p.host.sendGroup('75001', '74001', '班车几点发车？', { at: true })
    expect(res.stage).to.equal('handled')
    const tail = tailOfLastRequest()
    expect(tail).to.include('北区班车每天早上七点从东门发车').and.include('《北区班车》')
    expect(tail).to.not.include('南区班车')
    expect(p.run.rt.need('why').store.lastFor('74001', '75001')?.knowledge.map((k) => k.documentId)).to.deep.equal([ids.north])
  })

  it('a group without bases of its own gets the bases bound to its preset', async () => {
    fake.reset()
    fake.enqueue({ content: '八点，西门。' })
    await p.host.sendGroup('75002', '74002', '班车几点发车？', { at: true })
    const tail = tailOfLastRequest()
    expect(tail).to.include('南区班车每天早上八点从西门发车')
    expect(tail).to.not.include('北区班车')
  })
})
