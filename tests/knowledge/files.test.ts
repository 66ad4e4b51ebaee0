// Files and URLs in, passages out, through real HTTP (/api/knowledge/files, /url, /:id, /search) with
// the real files of tests/fixtures/knowledge (one of every type, a broken and an encrypted PDF).
import { expect } from 'chai'
import { readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { startTestServer, type TestServer } from '../support/server.js'

const FIXTURES = fileURLToPath(new URL('../fixtures/knowledge/', import.meta.url))
const fixture = (name: string): Buffer => readFileSync(FIXTURES + name)

interface Doc { id: string; title: string; status: string; error?: string; chunks: number; content: string; source: Record<string, unknown> }
interface Hit { docId: string; title: string; text: string; score: number; heading?: string; page?: number; retrievers: string[] }

describe('knowledge: files and URLs in, passages out (HTTP)', function () {
  this.timeout(60_000)
  let s: TestServer
  before(async () => { s = await startTestServer({ keepData: true }) })
  after(async () => { await s?.close(); if (s) rmSync(s.dataDir, { recursive: true, force: true }) })
  beforeEach(async () => {
    for (const d of s.lx.rt.need('knowledge').list()) await s.lx.rt.need('knowledge').remove(d.id)
    await s.lx.rt.config.update({ knowledge: { maxFileBytes: 20 * 1024 * 1024 }, web: { allowPrivateHosts: [] } })
  })

  const upload = (files: Array<[string, Buffer]>, fields: Record<string, string> = {}): ReturnType<TestServer['api']> => {
    const form = new FormData()
    for (const [name, bytes] of files) form.append('file', new Blob([new Uint8Array(bytes)]), name)
    for (const [k, v] of Object.entries(fields)) form.append(k, v)
    return s.api('/api/knowledge/files', { method: 'POST', body: form })
  }
  /** GET /:id until the document is no longer processing. */
  const settled = async (id: string): Promise<Doc> => {
    const end = Date.now() + 30_000
    for (;;) {
      const r = await s.api(`/api/knowledge/${id}`)
      expect(r.status, r.text).to.equal(200)
      if (r.body.data.status !== 'processing') return r.body.data as Doc
      if (Date.now() > end) throw new Error(`document ${id} still processing`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  const search = async (query: string, extra = ''): Promise<Hit[]> => {
    const r = await s.api(`/api/knowledge/search?query=${encodeURIComponent(query)}${extra}`)
    expect(r.status, r.text).to.equal(200)
    return r.body.data as Hit[]
  }

  it('takes one file of every type in one upload (201, processing), then each is ready and its passages are found with heading and page', async () => {
    const names = ['lighthouse.txt', 'coffee.md', 'cat-care.html', 'safety.pdf', 'leave-policy.docx', 'products.csv', 'duty-roster.xlsx']
    const r = await upload(names.map((n) => [n, fixture(n)]))
    expect(r.status, r.text).to.equal(201)
    expect(r.body.code).to.equal(0)
    const made = r.body.data as Array<{ id: string; title: string; status: string }>
    expect(made.map((d) => d.status)).to.deep.equal(names.map(() => 'processing'))
    // titled by the file name until the file names itself
    expect(made.map((d) => d.title).sort()).to.deep.equal(['cat-care', 'coffee', 'duty-roster', 'leave-policy', 'lighthouse', 'products', 'safety'])
    const docs = new Map<string, Doc>()
    for (const d of made) { const done = await settled(d.id); docs.set(String(done.source.name), done) }
    expect([...docs.keys()].sort()).to.deep.equal([...names].sort())
    for (const [name, d] of docs) {
      expect(d.status, `${name}: ${d.error}`).to.equal('ready')
      expect(d.chunks, name).to.be.above(0)
      expect(d.source).to.include({ kind: 'file', name })
    }
    // titles the files name themselves
    expect(docs.get('coffee.md')!.title).to.equal('咖啡机使用说明')
    expect(docs.get('cat-care.html')!.title).to.equal('猫咪照护指南')
    expect(docs.get('safety.pdf')!.title).to.equal('安全管理制度')
    // the page's chrome and scripts are not text
    expect(docs.get('cat-care.html')!.content).to.not.include('导航栏').and.not.include('脚本里').and.not.include('页脚')

    const top = async (q: string, file: string): Promise<Hit> => {
      const hits = await search(q, '&limit=3')
      expect(hits[0]?.docId, `${q}: ${JSON.stringify(hits.slice(0, 2))}`).to.equal(docs.get(file)!.id)
      expect(hits[0]!.retrievers).to.deep.equal(['bm25'])
      expect(hits[0]!.text.length, 'a passage, never the whole document').to.be.below(docs.get(file)!.content.length + 1)
      return hits[0]!
    }
    expect((await top('潮汐表什么时候更新', 'lighthouse.txt')).text).to.include('潮汐表每周一由港务处更新')
    const md = await top('锅炉除垢用什么', 'coffee.md')
    expect(md).to.include({ heading: '咖啡机使用说明 > 清洁 > 除垢' })
    expect(md.text).to.include('柠檬酸').and.not.include('18 克咖啡粉')
    expect((await top('猫砂多久换一次', 'cat-care.html')).text).to.include('猫砂每两天整盆更换一次')
    const pdf = await top('消防演练在什么时候', 'safety.pdf')
    expect(pdf).to.include({ page: 2, heading: '第二章 消防安全', title: '安全管理制度' })
    expect(pdf.text).to.include('消防演练在每年十月的第二个周五举行').and.not.include('电热毯')
    const docx = await top('没休完的年假能顺延吗', 'leave-policy.docx')
    expect(docx).to.include({ heading: '员工休假制度 > 年假' })
    expect(docx.text).to.include('| 满二十年 | 15天 |') // table rows kept as rows
    expect((await top('紫砂壶的价格', 'products.csv')).text).to.include('| 产品: 紫砂壶 | 价格: 560 | 库存: 8 | 产地: 宜兴 |')
    const xlsx = await top('周二谁值班', 'duty-roster.xlsx')
    expect(xlsx).to.include({ heading: '值班表' })
    expect(xlsx.text).to.include('值班人: 李娜')
    // best first
    const many = await search('年假 病假 消防 猫砂', '&limit=10')
    for (let i = 1; i < many.length; i++) expect(many[i - 1]!.score).to.be.at.least(many[i]!.score)
  })

  it('a broken and an encrypted PDF end failed with the reason in the owner\'s words; the server goes on', async () => {
    const r = await upload([['broken.pdf', fixture('broken.pdf')], ['encrypted.pdf', fixture('encrypted.pdf')], ['ok.txt', fixture('lighthouse.txt')]])
    expect(r.status, r.text).to.equal(201)
    const byTitle = new Map((r.body.data as Array<{ id: string; title: string }>).map((d) => [d.title, d.id]))
    const [broken, encrypted, ok] = await Promise.all(['broken', 'encrypted', 'ok'].map((t) => settled(byTitle.get(t)!)))
    expect(broken).to.include({ status: 'failed', chunks: 0 })
    expect(broken!.error).to.match(/^PDF 已损坏或加密：文件结构无效/)
    expect(encrypted).to.include({ status: 'failed' })
    expect(encrypted!.error).to.match(/^PDF 已损坏或加密：打开它需要密码/)
    expect(ok!.status).to.equal('ready')
    expect((await search('灯塔 雾笛')).map((h) => h.docId)).to.deep.equal([ok!.id])
    expect((await s.api('/api/knowledge')).body.data.map((d: Doc) => d.status).sort()).to.deep.equal(['failed', 'failed', 'ready'])
  })

  it('refuses other types with 400 naming the supported ones, storing nothing of the upload', async () => {
    const exe = await upload([['notes.md', fixture('coffee.md')], ['setup.exe', Buffer.from('MZ\x90\x00binary')]])
    expect(exe.status).to.equal(400)
    expect(exe.body).to.include({ code: -1, data: null })
    expect(exe.body.message).to.equal('Unsupported file type: setup.exe. Supported: .txt .md .html .pdf .docx .csv .xlsx')
    expect(s.lx.rt.need('knowledge').size).to.equal(0)
    const none = await upload([], { presetId: 'x' })
    expect(none.status).to.equal(400)
    expect(none.body.message).to.equal('file is required (multipart field "file", repeatable)')
    const json = await s.api('/api/knowledge/files', { method: 'POST', json: { file: 'x' } })
    expect(json.status).to.equal(415)
  })

  it('answers 413 for a file over knowledge.maxFileBytes (style B envelope), storing nothing', async () => {
    await s.lx.rt.config.update({ knowledge: { maxFileBytes: 4096 } })
    const r = await upload([['safety.pdf', fixture('safety.pdf')]])
    expect(r.status, r.text).to.equal(413)
    expect(r.body).to.include({ code: -1, data: null })
    expect(r.body.message).to.include('knowledge.maxFileBytes')
    expect(s.lx.rt.need('knowledge').size).to.equal(0)
    // under the limit it is taken
    expect((await upload([['lighthouse.txt', fixture('lighthouse.txt')]])).status).to.equal(201)
  })

  it('binds the files to a preset (presetId field); search by preset; delete removes the passages at once', async () => {
    const r = await upload([['coffee.md', fixture('coffee.md')]], { presetId: 'barista' })
    expect(r.status, r.text).to.equal(201)
    const d = await settled(r.body.data[0].id)
    expect(d).to.include({ presetId: 'barista', status: 'ready' })
    expect((await search('柠檬酸 除垢', '&presetId=barista')).map((h) => h.docId)).to.deep.equal([d.id])
    expect(await search('柠檬酸 除垢', '&presetId=someone-else')).to.deep.equal([])
    expect(s.lx.rt.need('knowledge').hasPreset('barista')).to.equal(true)
    const del = await s.api(`/api/knowledge/${d.id}`, { method: 'DELETE' })
    expect(del.body).to.deep.equal({ code: 0, data: { success: true }, message: 'ok' })
    expect(await search('柠檬酸 除垢')).to.deep.equal([])
    expect((await s.api(`/api/knowledge/${d.id}`)).status).to.equal(404)
    const long = await upload([['x.md', fixture('coffee.md')]], { presetId: 'p'.repeat(101) })
    expect(long.status).to.equal(400)
  })

  it('pasted documents go through the same passages: ready at once, a passage answered, not the whole text', async () => {
    const content = ['# 园艺手册', '', '## 浇水', '', `${'夏天早晚各浇一次水，避开正午。'.repeat(60)}`, '', '## 施肥', '', '月季每两周施一次稀释的液体肥，冬季停止施肥。'].join('\n')
    const r = await s.api('/api/knowledge', { method: 'POST', json: { title: '园艺', content } })
    expect(r.status, r.text).to.equal(201)
    expect(r.body.data).to.include({ status: 'ready' })
    expect(r.body.data.chunks).to.be.above(2)
    expect(r.body.data.source).to.deep.equal({ kind: 'text' })
    const [hit] = await search('月季 施肥')
    expect(hit).to.include({ docId: r.body.data.id, heading: '园艺手册 > 施肥' })
    expect(hit!.text).to.include('月季每两周施一次').and.not.include('正午')
  })

  describe('POST /url (through the outbound fetcher)', () => {
    let pages: Server
    let base = ''
    before(async () => {
      pages = createServer((req, res) => {
        if (req.url === '/cats') { res.setHeader('Content-Type', 'text/html; charset=utf-8'); res.end(fixture('cat-care.html')); return }
        if (req.url === '/safety') { res.setHeader('Content-Type', 'application/pdf'); res.end(fixture('safety.pdf')); return }
        if (req.url === '/app.exe') { res.setHeader('Content-Type', 'application/octet-stream'); res.end('MZ'); return }
        res.statusCode = 404; res.end('no')
      })
      await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve))
      base = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`
    })
    after(() => { pages?.close() })

    it('refuses a loopback address unless web.allowPrivateHosts names it (failed, with why)', async () => {
      const r = await s.api('/api/knowledge/url', { method: 'POST', json: { url: `${base}/cats` } })
      expect(r.status, r.text).to.equal(201)
      expect(r.body.data).to.include({ status: 'processing', title: `127.0.0.1:${new URL(base).port}/cats` })
      const d = await settled(r.body.data.id)
      expect(d.status).to.equal('failed')
      expect(d.error).to.match(/^不能读取这个地址/)
    })

    it('reads a page and a PDF by URL (ready, title from the page, pages kept); 404 and unknown types fail', async () => {
      await s.lx.rt.config.update({ web: { allowPrivateHosts: ['127.0.0.1'] } })
      const page = await s.api('/api/knowledge/url', { method: 'POST', json: { url: `${base}/cats`, presetId: 'vet' } })
      expect(page.status, page.text).to.equal(201)
      const d = await settled(page.body.data.id)
      expect(d).to.include({ status: 'ready', title: '猫咪照护指南', presetId: 'vet' })
      expect(d.source).to.deep.equal({ kind: 'url', url: `${base}/cats` })
      expect((await search('猫砂 更换', '&presetId=vet'))[0]?.docId).to.equal(d.id)
      const pdf = await settled((await s.api('/api/knowledge/url', { method: 'POST', json: { url: `${base}/safety` } })).body.data.id)
      expect(pdf.status).to.equal('ready')
      expect((await search('消防演练'))[0]).to.include({ docId: pdf.id, page: 2 })
      const missing = await settled((await s.api('/api/knowledge/url', { method: 'POST', json: { url: `${base}/gone` } })).body.data.id)
      expect(missing).to.include({ status: 'failed', error: '网站返回了 HTTP 404' })
      const exe = await settled((await s.api('/api/knowledge/url', { method: 'POST', json: { url: `${base}/app.exe` } })).body.data.id)
      expect(exe).to.include({ status: 'failed', error: '不支持这种网页内容：application/octet-stream' })
    })

    it('validates the body: url required, http(s) only, no unknown fields', async () => {
      const cases: Array<[unknown, string | RegExp]> = [
        [{}, 'url is required'], [{ url: 'ftp://example.com/x' }, 'url must be an absolute http(s) URL'],
        [{ url: 'not a url' }, 'url must be an absolute http(s) URL'], [{ url: 'https://example.com', extra: 1 }, /extra|Unrecognized/i],
        [{ url: `https://example.com/${'x'.repeat(2000)}` }, /url is longer than 2000/]
      ]
      for (const [body, msg] of cases) {
        const r = await s.api('/api/knowledge/url', { method: 'POST', json: body })
        expect(r.status, JSON.stringify(body).slice(0, 60)).to.equal(400)
        expect(r.body.message).to.match(typeof msg === 'string' ? new RegExp(`^${msg.replace(/[()]/g, '\\$&')}$`) : msg)
      }
      expect(s.lx.rt.need('knowledge').size).to.equal(0)
    })
  })
})
