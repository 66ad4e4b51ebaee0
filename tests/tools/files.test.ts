// Custom tools (JSON) and script tools (files in <data>/tools, hot-reloaded) through real HTTP and
// real files in the temp data folder.
import { expect } from 'chai'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { startTestServer, type TestServer } from '../support/server.js'
import { startEndlessServer } from '../support/endless.js'
import { frames } from './helpers.js'

async function until (cond: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('tools: custom and script tools', function () {
  let s: TestServer
  let target: Server
  let targetUrl: string
  const seen: Array<{ url: string; auth: string | undefined; body: string }> = []
  before(async () => {
    s = await startTestServer()
    // the test servers are on 127.0.0.1, which the outbound fetcher refuses unless the master names it
    await s.lx.rt.config.update({ web: { allowPrivateHosts: ['127.0.0.1'] } })
    target = createServer((req, res) => {
      let body = ''
      req.on('data', (c) => { body += c })
      req.on('end', () => {
        seen.push({ url: req.url ?? '', auth: req.headers.authorization, body })
        res.writeHead(req.url?.startsWith('/fail') ? 500 : 200, { 'Content-Type': 'text/plain' }).end(`echo ${req.url}`)
      })
    })
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', () => r()))
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`
  })
  after(async () => {
    await s.close()
    await new Promise((r) => target.close(r))
  })
  const api = (path: string, method = 'GET', json?: unknown) => s.api(`/api/tools${path}`, { method, ...(json === undefined ? {} : { json }) })
  const run = async (toolName: string, args: Record<string, unknown> = {}) => frames((await api('/test', 'POST', { toolName, arguments: args })).text).at(-1)!.json()

  describe('custom tools (/api/tools/custom)', () => {
    it('creates a text tool (201), lists it and runs it with the arguments filled in', async () => {
      const r = await api('/custom', 'POST', { name: 'greet', description: 'Greets', inputSchema: { type: 'object', properties: { who: { type: 'string' } } }, action: { type: 'text', text: 'Hello {{who}}!' } })
      expect(r.status).to.equal(201)
      expect(r.body).to.include({ code: 0, message: 'ok' }) // style B: the spec names no other message
      expect(r.body.data).to.include({ name: 'greet', category: 'custom' })
      expect((await api('/custom')).body.data.map((t: { name: string }) => t.name)).to.deep.equal(['greet'])
      expect(s.lx.rt.need('tools').registry.get('greet')?.source).to.equal('custom')
      expect((await run('greet', { who: 'Ada' })).result.content[0].text).to.equal('Hello Ada!')
      expect(JSON.parse(readFileSync(join(s.dataDir, 'custom-tools.json'), 'utf8')).tools[0].name).to.equal('greet')
    })
    it('creates an HTTP tool; header secrets are masked when read and kept when sent back masked', async () => {
      let r = await api('/custom', 'POST', { name: 'lookup', description: 'Looks up', action: { type: 'http', url: `${targetUrl}/q?term={{term}}`, headers: { Authorization: 'Bearer sk-secret-123456' } } })
      expect(r.status).to.equal(201)
      expect(r.body.data.action.headers.Authorization).to.not.include('secret-123456')
      expect((await run('lookup', { term: 'a b' })).result.content[0].text).to.equal('echo /q?term=a%20b')
      expect(seen.at(-1)?.auth).to.equal('Bearer sk-secret-123456')
      const masked = r.body.data
      r = await api('/custom/lookup', 'PUT', { ...masked, name: undefined, createdAt: undefined, updatedAt: undefined, description: 'Looks things up' })
      expect(r.status, JSON.stringify(r.body)).to.equal(200)
      expect(r.body.message).to.equal('ok')
      expect(r.body.data.description).to.equal('Looks things up')
      await run('lookup', { term: 'x' })
      expect(seen.at(-1)?.auth).to.equal('Bearer sk-secret-123456')
      expect(JSON.stringify((await api('/custom')).body)).to.not.include('secret-123456')
    })
    it('an HTTP error is an isError result, not a crash', async () => {
      await api('/custom', 'POST', { name: 'failing', description: 'Fails', action: { type: 'http', method: 'POST', url: `${targetUrl}/fail`, body: '{"a":"{{a}}"}' } })
      const r = await run('failing', { a: 1 })
      expect(r.result.isError).to.equal(true)
      expect(seen.at(-1)?.body).to.equal('{"a":"1"}')
    })
    it('a URL that answers without end: the first 20,000 characters, and the reading stops', async () => {
      const endless = await startEndlessServer()
      try {
        await api('/custom', 'POST', { name: 'flood', description: 'Floods', action: { type: 'http', url: `${endless.url}/?type=text/plain` } })
        const r = await run('flood')
        expect({ isError: r.result.isError, text: r.result.content[0].text }).to.deep.equal({ isError: false, text: 'x'.repeat(20_000) })
        await until(() => endless.sent.length === 1)
        expect(endless.sent[0]).to.be.lessThan(16 * 1024 * 1024)
        expect((await api('/custom/flood', 'DELETE')).status).to.equal(200)
      } finally { await endless.close() }
    })
    it('refuses bad configurations with 400, duplicates with 409, unknown names with 404', async () => {
      for (const body of [{}, { name: 'bad name', description: 'x', action: { type: 'text', text: '' } }, { name: 'x', description: 'x' },
        { name: 'x', description: 'x', action: { type: 'shell', cmd: 'rm' } }, { name: 'x', description: 'x', action: { type: 'http', url: 'file:///etc/passwd' } }]) {
        const r = await api('/custom', 'POST', body)
        expect(r.status, JSON.stringify(body)).to.equal(400)
        expect(r.body.code).to.equal(-1)
      }
      expect((await api('/custom', 'POST', { name: 'greet', description: 'again', action: { type: 'text', text: 'x' } })).status).to.equal(409)
      expect((await api('/custom', 'POST', { name: 'get_current_time', description: 'clash', action: { type: 'text', text: 'x' } })).status).to.equal(409)
      expect((await api('/custom/nope', 'PUT', { description: 'x', action: { type: 'text', text: 'x' } })).status).to.equal(404)
      expect((await api('/custom/greet', 'PUT', { description: 5 })).status).to.equal(400)
      expect((await api('/custom/nope', 'DELETE')).status).to.equal(404)
    })
    it('deletes a custom tool', async () => {
      const r = await api('/custom/greet', 'DELETE')
      expect(r.status).to.equal(200)
      expect(r.body).to.deep.equal({ code: 0, data: { name: 'greet' }, message: 'ok' })
      expect(s.lx.rt.need('tools').registry.get('greet')).to.equal(undefined)
    })
  })

  describe('script tools (/api/tools/js)', () => {
    const v1 = 'export const description = "adds"\nexport const inputSchema = { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } }\nexport async function execute (args: { a: number, b: number }): Promise<string> { return String(args.a + args.b) }\n'
    it('creates a TypeScript script (201) that runs at once', async () => {
      const r = await api('/js', 'POST', { name: 'adder.ts', source: v1 })
      expect(r.status).to.equal(201)
      expect(r.body).to.include({ code: 0, message: 'ok' })
      expect(r.body.data).to.include({ name: 'adder', filename: 'adder.ts', loaded: true })
      expect(existsSync(join(s.dataDir, 'tools', 'adder.ts'))).to.equal(true)
      expect((await run('adder', { a: 2, b: 3 })).result.content[0].text).to.equal('5')
    })
    it('lists and reads the source file', async () => {
      const list = await api('/js')
      expect(list.body.data.map((f: { name: string }) => f.name)).to.deep.equal(['adder'])
      const r = await api('/js/adder')
      expect(r.body.data).to.include({ name: 'adder', filename: 'adder.ts', source: v1 })
      expect(r.body.data.size).to.equal(Buffer.byteLength(v1))
      expect(r.body.data.modifiedAt).to.match(/^\d{4}-/)
    })
    it('PUT saves and hot-reloads (message says so)', async () => {
      const r = await api('/js/adder', 'PUT', { source: v1.replace('args.a + args.b', 'args.a * args.b') })
      expect(r.status).to.equal(200)
      expect(r.body.message).to.match(/saved and hot-reloaded/)
      expect((await run('adder', { a: 2, b: 3 })).result.content[0].text).to.equal('6')
    })
    it('an edit of the file on disk is picked up by the watcher', async () => {
      writeFileSync(join(s.dataDir, 'tools', 'adder.ts'), v1.replace('args.a + args.b', 'args.a - args.b'))
      await until(async () => (await run('adder', { a: 2, b: 3 })).result.content[0].text === '-1')
      writeFileSync(join(s.dataDir, 'tools', 'hello.js'), 'module.exports = { description: "hi", execute: () => "hello" }\n')
      await until(() => s.lx.rt.need('tools').registry.get('hello') !== undefined)
      expect((await run('hello')).result.content[0].text).to.equal('hello')
    })
    it('a broken script is reported, not crashing, and the old tool is gone', async () => {
      const r = await api('/js/hello', 'PUT', { source: 'export const execute = ( =>' })
      expect(r.status).to.equal(200)
      expect(r.body.data.loaded).to.equal(false)
      expect(r.body.data.error).to.be.a('string')
      expect(s.lx.rt.need('tools').registry.get('hello')).to.equal(undefined)
      expect((await api('/js')).body.data.find((f: { name: string }) => f.name === 'hello').error).to.be.a('string')
      const noExec = await api('/js/hello', 'PUT', { source: 'export const description = "no execute"' })
      expect(noExec.body.data.error).to.match(/execute/)
      const throwing = await api('/js', 'POST', { name: 'thrower', source: 'throw new Error("at load")' })
      expect(throwing.status).to.equal(201)
      expect(throwing.body.data.error).to.include('at load')
    })
    it('POST /js/reload reloads every script', async () => {
      const r = await api('/js/reload', 'POST')
      expect(r.status).to.equal(200)
      expect(r.body).to.include({ code: 0, message: 'ok' })
      expect(r.body.data.loaded).to.equal(1)
      expect(Object.keys(r.body.data.errors)).to.have.members(['hello', 'thrower'])
    })
    it('refuses path traversal and bad names', async () => {
      for (const name of ['../evil', '..%2Fevil', 'a/b', '/etc/passwd', 'a.mjs', '', 'x'.repeat(65), 'nul\u0000']) {
        const r = await api('/js', 'POST', { name, source: 'export const execute = () => 1' })
        expect(r.status, name).to.equal(400)
      }
      for (const path of ['/js/..%2F..%2Fconfig.yaml', '/js/..%5C..%5Cconfig', '/js/..%2Fcustom-tools.json']) {
        const r = await api(path)
        expect([400, 404], path).to.include(r.status)
        expect(r.text).to.not.include('"tools"')
        expect((await api(path, 'PUT', { source: 'x' })).status, path).to.be.oneOf([400, 404])
        expect((await api(path, 'DELETE')).status, path).to.be.oneOf([400, 404])
      }
      expect(existsSync(join(s.dataDir, 'evil.js'))).to.equal(false)
      expect(existsSync(join(s.dataDir, 'custom-tools.json'))).to.equal(true)
    })
    it('refuses duplicates (409), missing source (400), unknown files (404)', async () => {
      expect((await api('/js', 'POST', { name: 'adder', source: 'x' })).status).to.equal(409)
      expect((await api('/js', 'POST', { name: 'get_current_time', source: 'x' })).status).to.equal(409)
      expect((await api('/js', 'POST', { source: 'x' })).status).to.equal(400)
      expect((await api('/js/adder', 'PUT', {})).status).to.equal(400)
      expect((await api('/js/nope')).status).to.equal(404)
      expect((await api('/js/nope', 'PUT', { source: 'x' })).status).to.equal(404)
    })
    it('DELETE removes the file and the tool', async () => {
      const r = await api('/js/adder', 'DELETE')
      expect(r.status).to.equal(200)
      expect(r.body).to.deep.equal({ code: 0, data: { name: 'adder' }, message: 'ok' })
      expect(existsSync(join(s.dataDir, 'tools', 'adder.ts'))).to.equal(false)
      expect(s.lx.rt.need('tools').registry.get('adder')).to.equal(undefined)
      expect((await api('/js/adder', 'DELETE')).status).to.equal(404)
    })
  })
})
