// The governance service with the whole plugin (temp data folder, real HTTP): settings validation,
// the moderation endpoint's key (masked, redacted), the endpoint's verdicts, and quota counts that
// survive a restart.
import { expect } from 'chai'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTestServer, type TestServer } from '../support/server.js'

const KEY = 'sk-moderation-secret-0123456789'
const who = { userId: '40001', groupId: '900', isMaster: false, isGroupAdmin: false }

describe('governance service', function () {
  this.timeout(60_000)
  let s: TestServer
  let mod: Server
  let modUrl = ''
  let answer: (input: string) => { status: number; body: unknown }
  const seen: Array<{ auth: string | undefined; body: any }> = []

  before(async () => {
    mod = createServer((req, res) => {
      let raw = ''
      req.on('data', (c: Buffer) => { raw += c.toString() })
      req.on('end', () => {
        const body = JSON.parse(raw || '{}')
        seen.push({ auth: req.headers.authorization, body })
        const a = answer(String(body.input))
        res.writeHead(a.status, { 'content-type': 'application/json' })
        res.end(JSON.stringify(a.body))
      })
    })
    await new Promise<void>((resolve) => mod.listen(0, '127.0.0.1', resolve))
    modUrl = `http://127.0.0.1:${(mod.address() as AddressInfo).port}/v1`
    s = await startTestServer()
  })
  after(async () => {
    await s?.close()
    await new Promise((resolve) => mod?.close(resolve))
  })

  it('a regex that could hang the bot is refused by the config API with an error naming it', async () => {
    const r = await s.api('/api/config/moderation', { method: 'PUT', json: { regexes: ['ok+', '(a+)+$'] } })
    expect(r.status).to.equal(400)
    expect(JSON.stringify(r.body)).to.include('(a+)+$').and.include('repeated group')
    expect(s.lx.rt.config.get().moderation.regexes).to.deep.equal([])
  })

  it('the endpoint key is masked in the config answer and kept when the mask is sent back; flagged texts are refused and logged; a failing endpoint lets the text pass and its echo of the key stays out of the log', async () => {
    const put = await s.api('/api/config/moderation', { method: 'PUT', json: { strictness: 'mask', endpoint: { baseUrl: modUrl, apiKey: KEY, model: 'omni-moderation-latest', timeoutMs: 5000 } } })
    expect(put.status, JSON.stringify(put.body)).to.equal(200)
    const got = await s.api('/api/config/moderation')
    expect(JSON.stringify(got.body)).to.not.include(KEY)
    const masked = got.body.data?.endpoint?.apiKey ?? got.body.endpoint?.apiKey
    expect(masked).to.include('****')
    await s.api('/api/config/moderation', { method: 'PUT', json: { endpoint: { baseUrl: modUrl, apiKey: masked, model: 'omni-moderation-latest', timeoutMs: 5000 } } })
    expect(s.lx.rt.config.get().moderation.endpoint.apiKey, 'the mask sent back keeps the key').to.equal(KEY)

    const gov = s.lx.rt.need('governance')
    answer = (input) => ({ status: 200, body: { results: [{ flagged: input.includes('打人'), categories: { violence: input.includes('打人'), sexual: false } }] } })
    expect(await gov.moderate(who, '今天天气很好', 'output')).to.deep.equal({ ok: true, text: '今天天气很好' })
    const flagged = await gov.moderate(who, '教你怎么打人', 'output')
    expect(flagged).to.include({ ok: false, reason: 'moderation' })
    expect(seen.at(-1)?.auth).to.equal(`Bearer ${KEY}`)
    expect(seen.at(-1)?.body).to.deep.equal({ model: 'omni-moderation-latest', input: '教你怎么打人' })
    const hits = await s.api('/api/governance/hits?rule=endpoint')
    expect(hits.body.data[0]).to.include({ userId: '40001', groupId: '900', direction: 'output', action: 'refuse' })
    expect(hits.body.data[0].rules).to.deep.equal(['endpoint:violence'])

    answer = () => ({ status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}` } } })
    expect(await gov.moderate(who, '教你怎么打人', 'input')).to.deep.equal({ ok: true, text: '教你怎么打人' })
    const logs = await s.api('/api/logs?limit=50')
    const text = JSON.stringify(logs.body)
    expect(text).to.include('The moderation endpoint failed')
    expect(text).to.not.include(KEY)
    await s.api('/api/config/moderation', { method: 'PUT', json: { endpoint: { baseUrl: '', apiKey: '', model: 'omni-moderation-latest', timeoutMs: 5000 } } })
  })

  it('GET /api/governance/status counts the rules in force; a config change recompiles them', async () => {
    const before = (await s.api('/api/governance/status')).body.data.rules
    expect(before).to.be.greaterThan(30)
    await s.api('/api/config/moderation', { method: 'PUT', json: { keywords: ['新词一', '新词二'] } })
    expect((await s.api('/api/governance/status')).body.data.rules).to.equal(before + 2)
    await s.api('/api/config/moderation', { method: 'PUT', json: { useDefaultList: false } })
    expect((await s.api('/api/governance/status')).body.data.rules).to.equal(2)
    await s.api('/api/config/moderation', { method: 'PUT', json: { useDefaultList: true, keywords: [] } })
  })

  it('the owner\'s own list file in the data folder replaces the shipped one after POST /api/governance/reload', async () => {
    const own = join(s.dataDir, 'moderation-words.txt')
    writeFileSync(own, '# mine\n自己的词\n/自己.{0,2}正则/\n')
    try {
      const r = await s.api('/api/governance/reload', { method: 'POST' })
      expect(r.body.data).to.deep.equal({ rules: 2, listFile: own })
      const m = await s.lx.rt.need('governance').moderate(who, '这是自己的词，还有冰毒', 'output')
      expect(m).to.deep.equal({ ok: true, text: '这是＊＊＊，还有冰毒' })
    } finally {
      rmSync(own)
      await s.api('/api/governance/reload', { method: 'POST' })
    }
  })
})

describe('governance quotas across a restart', function () {
  this.timeout(60_000)
  it('a day\'s counted messages and tokens are still there after a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lingxi-quota-restart-'))
    try {
      let s = await startTestServer({ dataDir, keepData: true })
      await s.lx.rt.config.update({ quotas: { user: { messagesPerDay: 5, tokensPerDay: 1000 }, group: { messagesPerDay: 0 } } })
      const gov = s.lx.rt.need('governance')
      for (let i = 0; i < 3; i++) expect(gov.admit(who)).to.deep.equal({ ok: true })
      gov.recordTokens(who, 400)
      expect(gov.left(who).user).to.deep.equal({ messages: 2, tokens: 600, minuteMessages: null })
      await s.close()
      s = await startTestServer({ dataDir, keepData: true })
      const again = s.lx.rt.need('governance')
      expect(again.left(who).user, 'after the restart').to.deep.equal({ messages: 2, tokens: 600, minuteMessages: null })
      expect(again.admit(who)).to.deep.equal({ ok: true })
      expect(again.admit(who)).to.deep.equal({ ok: true })
      expect(again.admit(who)).to.include({ ok: false, reason: 'quota' })
      await s.close()
    } finally { rmSync(dataDir, { recursive: true, force: true }) }
  })
})
