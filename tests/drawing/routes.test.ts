// The image group (style B): presets (builtin/custom/remote with refresh), config, API entries.
import { expect } from 'chai'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { startTestServer, type TestServer } from '../support/server.js'

describe('drawing routes', () => {
  let s: TestServer
  let remote: Server
  let remoteUrl: string
  let hits = 0
  before(async () => {
    s = await startTestServer()
    // the test servers are on 127.0.0.1, which the outbound fetcher refuses unless the master names it
    await s.lx.rt.config.update({ web: { allowPrivateHosts: ['127.0.0.1'] } })
    // Succeeds once, then fails (500, then stalls past the timeout when asked).
    remote = createServer((req, res) => {
      hits++
      if (hits === 1) {
        res.writeHead(200, { 'Content-Type': 'application/json' })
        res.end(JSON.stringify({ presets: [{ uid: 'r1', keywords: ['赛博'], prompt: 'cyberpunk {{input}}' }, { bogus: true }] }))
      } else {
        res.writeHead(500); res.end('down')
      }
    })
    await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve))
    remoteUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}/presets.json`
  })
  after(async () => {
    await s.close()
    await new Promise<void>((resolve) => remote.close(() => resolve()))
  })

  it('GET /api/image/presets answers {builtin, custom, remote}', async () => {
    const r = await s.api('/api/image/presets')
    expect(r.status).to.equal(200)
    expect(r.body.code).to.equal(0)
    expect(r.body.data.builtin.length).to.be.greaterThan(0)
    expect(r.body.data.builtin[0]).to.include.keys('uid', 'keywords', 'needImage', 'prompt')
    expect(r.body.data.custom).to.deep.equal([])
    expect(r.body.data.remote).to.include({ updatedAt: null })
  })

  it('custom presets: create 201, validate, delete, 404', async () => {
    const c = await s.api('/api/image/presets/custom', { method: 'POST', json: { keywords: ['水彩'], needImage: false, prompt: 'watercolor {{input}}' } })
    expect(c.status).to.equal(201)
    expect(c.body.data.uid).to.be.a('string')
    for (const bad of [{ keywords: [], prompt: 'x' }, { keywords: ['a'], prompt: '' }, { keywords: 'a', prompt: 'x' }, { keywords: ['a'], prompt: 'x', extra: 1 }]) {
      const b = await s.api('/api/image/presets/custom', { method: 'POST', json: bad })
      expect(b.status, JSON.stringify(bad)).to.equal(400)
      expect(b.body).to.include({ code: -1, data: null })
    }
    expect((await s.api('/api/image/presets')).body.data.custom).to.have.length(1)
    const d = await s.api(`/api/image/presets/custom/${c.body.data.uid as string}`, { method: 'DELETE' })
    expect(d.status).to.equal(200)
    expect((await s.api(`/api/image/presets/custom/${c.body.data.uid as string}`, { method: 'DELETE' })).status).to.equal(404)
  })

  it('refresh without a source is a 400', async () => {
    const r = await s.api('/api/image/presets/refresh', { method: 'POST' })
    expect(r.status).to.equal(400)
    expect(r.body.code).to.equal(-1)
  })

  it('refresh caches the remote source and keeps the last good copy when it fails', async () => {
    await s.api('/api/image/config', { method: 'PUT', json: { remotePresetsUrl: remoteUrl } })
    const ok = await s.api('/api/image/presets/refresh', { method: 'POST' })
    expect(ok.status).to.equal(200)
    expect(ok.body.data.presets).to.deep.equal([{ uid: 'r1', keywords: ['赛博'], needImage: false, prompt: 'cyberpunk {{input}}' }])
    expect(ok.body.data.error).to.equal(null)
    const fail = await s.api('/api/image/presets/refresh', { method: 'POST' })
    expect(fail.status).to.equal(502)
    expect(fail.body.code).to.equal(-1)
    expect(fail.body.message).to.include('HTTP 500')
    const all = await s.api('/api/image/presets')
    expect(all.body.data.remote.presets.map((p: { uid: string }) => p.uid)).to.deep.equal(['r1'])
    expect(all.body.data.remote.error).to.include('HTTP 500')
    // The copy is on disk, not only in memory.
    const file = JSON.parse(readFileSync(join(s.dataDir, 'drawing.json'), 'utf8')) as { remote: { presets: unknown[] } }
    expect(file.remote.presets).to.have.length(1)
    expect(s.lx.rt.need('drawing').match('赛博 城市夜景')?.input).to.equal('城市夜景')
    expect(hits).to.equal(2)
  })

  it('a source that does not answer in time fails with a timeout', async () => {
    const stall = createServer(() => { /* never answers */ })
    await new Promise<void>((resolve) => stall.listen(0, '127.0.0.1', resolve))
    try {
      await s.lx.rt.config.update({ image: { remotePresetsUrl: `http://127.0.0.1:${(stall.address() as AddressInfo).port}/` } })
      const err = await s.lx.rt.need('drawing').refreshRemote(200).then(() => undefined, (e: Error) => e)
      expect(err?.message).to.include('timed out')
      expect(s.lx.rt.need('drawing').all().remote.presets).to.have.length(1)
    } finally {
      stall.closeAllConnections()
      await new Promise<void>((resolve) => stall.close(() => resolve()))
    }
  })

  it('GET/PUT /api/image/config validates and writes the image section', async () => {
    const r = await s.api('/api/image/config', { method: 'PUT', json: { enabled: true, maxImages: 2, sendMode: 'url' } })
    expect(r.status).to.equal(200)
    expect(r.body.data).to.include({ enabled: true, maxImages: 2, sendMode: 'url' })
    expect(r.body.data).to.not.have.property('apis')
    expect(s.lx.rt.config.get().image.maxImages).to.equal(2)
    for (const bad of [{ maxImages: 0 }, { sendMode: 'fax' }, { timeout: 'x' }, { remotePresetsUrl: 'ftp://x' }, { unknown: 1 }]) {
      expect((await s.api('/api/image/config', { method: 'PUT', json: bad })).status, JSON.stringify(bad)).to.equal(400)
    }
    const g = await s.api('/api/image/config')
    expect(g.body.data).to.include.keys('enabled', 'model', 'videoModel', 'timeout', 'maxImages', 'sendMode')
  })

  it('image API entries by index: add, mask, update keeping the key, delete, 404', async () => {
    const a = await s.api('/api/image/apis', { method: 'POST', json: { name: 'sd', baseUrl: 'http://127.0.0.1:7860', apiKey: 'sk-secret-123456' } })
    expect(a.status).to.equal(201)
    expect(a.body.data.index).to.equal(0)
    const list = await s.api('/api/image/apis')
    expect(list.body.data[0].apiKey).to.include('****')
    expect(list.text).to.not.include('sk-secret-123456')
    const u = await s.api('/api/image/apis/0', { method: 'PUT', json: { apiKey: list.body.data[0].apiKey, models: ['sdxl'] } })
    expect(u.status).to.equal(200)
    expect(s.lx.rt.config.get().image.apis[0]).to.include({ apiKey: 'sk-secret-123456', baseUrl: 'http://127.0.0.1:7860' })
    expect((await s.api('/api/image/apis', { method: 'POST', json: { baseUrl: 'not a url' } })).status).to.equal(400)
    expect((await s.api('/api/image/apis/5', { method: 'PUT', json: {} })).status).to.equal(404)
    expect((await s.api('/api/image/apis/x', { method: 'DELETE' })).status).to.equal(404)
    expect((await s.api('/api/image/apis/0', { method: 'DELETE' })).status).to.equal(200)
    expect((await s.api('/api/image/apis')).body.data).to.deep.equal([])
  })
})
