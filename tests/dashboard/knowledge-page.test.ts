// End-to-end, on a 390x844 phone screen in Debian's chromium: the knowledge page makes a base, takes
// real fixture files (tests/fixtures/knowledge) dropped on it and chosen through the file input, shows
// each one ready (or failed with the reason), opens a document's passages, runs a retrieval test within
// the base, shows the embedding panel, renames the base and deletes it with its documents; in English
// and dark too. Each change is read back through the HTTP API. Screenshots: screenshots/knowledge-*.png.
import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { startTestServer, type TestServer } from '../support/server.js'
import { goTo, launch, openDashboard, prepare, SHOTS } from './browser.js'

const FIXTURES = fileURLToPath(new URL('../fixtures/knowledge/', import.meta.url))
const DRILL = '消防演练在每年十月的第二个周五举行'

describe('dashboard: knowledge page (chromium e2e, phone screen)', function () {
  this.timeout(180_000)
  let s: TestServer
  let browser: Browser
  let page: Page
  let pageErrors: string[] = []

  before(async function () {
    await prepare(this)
    s = await startTestServer()
    await s.login()
    browser = await launch()
    ;({ page, pageErrors } = await openDashboard(browser, s, { phone: true }))
  })

  after(async () => {
    await browser?.close()
    await s?.close()
  })

  const docsIn = async (baseId: string): Promise<Array<{ id: string, title: string, status: string, baseId: string }>> => (await s.api(`/api/knowledge?baseId=${baseId}`)).body.data
  const fits = async (): Promise<void> => { expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(390) }

  it('opens from the menu with the default base chosen, no raw keys, fitting the phone', async () => {
    await goTo(page, 'knowledge')
    await page.waitForSelector('[data-testid="kb-base-default"][aria-pressed="true"]')
    const text = await page.textContent('main') ?? ''
    expect(text).to.include('默认知识库').and.include('上传文件').and.include('检索测试').and.include('向量检索')
    expect(text).to.not.match(/\bkb\.\w/)
    await fits()
  })

  it('makes a base and chooses it', async () => {
    await page.click('[data-testid="kb-base-new"]')
    await page.fill('[data-testid="kb-base-name"]', '安全资料')
    await page.fill('[data-testid="kb-base-id"]', 'safety')
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/knowledge/bases') && r.request().method() === 'POST'), page.click('[data-testid="kb-base-create"]')])
    await page.waitForSelector('[data-testid="kb-base-safety"][aria-pressed="true"]')
    const bases = (await s.api('/api/knowledge/bases')).body.data as Array<{ id: string, name: string }>
    expect(bases.map((b) => [b.id, b.name])).to.deep.include(['safety', '安全资料'])
    expect(await page.textContent('[data-testid="kb-upload"]')).to.include('存入“安全资料”')
  })

  it('takes files dropped on the zone: each goes up, then is ready, or failed with the reason', async () => {
    const files = [['safety.pdf', 'application/pdf'], ['broken.pdf', 'application/pdf']].map(([name, type]) => ({ name, type, b64: readFileSync(FIXTURES + name!).toString('base64') }))
    const dt = await page.evaluateHandle((list) => {
      const t = new DataTransfer()
      for (const f of list) t.items.add(new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name, { type: f.type }))
      return t
    }, files)
    await page.dispatchEvent('[data-testid="kb-drop"]', 'drop', { dataTransfer: dt })
    await page.waitForSelector('[data-testid="kb-up-safety.pdf"][data-state="ready"]', { timeout: 60_000 })
    await page.waitForSelector('[data-testid="kb-up-broken.pdf"][data-state="failed"]', { timeout: 60_000 })
    expect(await page.textContent('[data-testid="kb-up-broken.pdf"]')).to.include('失败：').and.include('PDF')
    expect(await page.textContent('[data-testid="kb-up-safety.pdf"]')).to.include('已就绪')
    const docs = await docsIn('safety')
    expect(docs.map((d) => [d.title, d.status]).sort()).to.deep.equal([['broken', 'failed'], ['安全管理制度', 'ready']])
    await fits()
  })

  it('takes a file chosen through the file input', async () => {
    await page.setInputFiles('[data-testid="kb-file"]', FIXTURES + 'lighthouse.txt')
    await page.waitForSelector('[data-testid="kb-up-lighthouse.txt"][data-state="ready"]', { timeout: 60_000 })
    expect((await docsIn('safety')).map((d) => d.status)).to.have.length(3)
    expect((await docsIn('default'))).to.deep.equal([])
    await page.screenshot({ path: join(SHOTS, 'knowledge-upload-phone.png'), fullPage: true })
  })

  it('opens a document\'s passages with their heading and page', async () => {
    const button = '[data-testid="kb-passages-安全管理制度"]'
    await page.waitForSelector(`${button}:not([disabled])`)
    await page.click(button)
    await page.waitForSelector('[data-testid="kb-passage-list"]')
    const text = await page.textContent('[data-testid="kb-passages"]') ?? ''
    expect(text).to.include(DRILL).and.include('第二章 消防安全 · 第 2 页')
    await page.click('[data-testid="kb-passages-close"]')
    await page.waitForSelector('[data-testid="kb-passages"]', { state: 'detached' })
  })

  it('runs a retrieval test within the base: passages with score, heading and page, and their retrievers', async () => {
    await page.fill('[data-testid="kb-query"]', '消防演练 什么时候')
    await page.selectOption('[data-testid="kb-scope"]', 'safety')
    await Promise.all([page.waitForResponse((r) => r.url().includes('/api/knowledge/search') && r.url().includes('baseId=safety')), page.click('[data-testid="kb-search"]')])
    await page.waitForSelector('[data-testid="kb-hit-0"]')
    const first = await page.textContent('[data-testid="kb-hit-0"]') ?? ''
    expect(first).to.include(DRILL).and.include('bm25').and.include('得分')
    expect(await page.textContent('[data-testid="kb-hit-where-0"]')).to.include('第 2 页')
    expect(await page.$$('[data-testid="kb-hit-0"] mark')).to.not.have.length(0)
    await fits()
  })

  it('shows the embedding panel: the status, or a clear message while the server has no such route', async () => {
    await page.waitForSelector('[data-testid="kb-emb-status"]')
    const status = await s.api('/api/knowledge/embedding/status')
    const shown = await page.textContent('[data-testid="kb-emb-status"]') ?? ''
    if (status.status === 404) expect(shown).to.include('还没有向量检索的接口')
    else expect(shown).to.include('状态')
    await page.click('[data-testid="kb-emb-test"]')
    await page.waitForSelector('[data-testid="kb-emb-result"]')
    expect((await page.textContent('[data-testid="kb-emb-result"]') ?? '').trim()).to.not.equal('')
  })

  it('renames the base', async () => {
    await page.fill('[data-testid="kb-base-rename-input"]', '安全制度')
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/knowledge/bases/safety') && r.request().method() === 'PUT'), page.click('[data-testid="kb-base-save"]')])
    await page.waitForFunction(() => document.querySelector('[data-testid="kb-base-safety"]')?.textContent?.includes('安全制度'))
    expect((await s.api('/api/knowledge/bases/safety')).body.data.name).to.equal('安全制度')
  })

  it('reads in English and in the dark', async () => {
    await page.evaluate(() => localStorage.setItem('lingxi.lang', 'en'))
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.reload()
    await goTo(page, 'knowledge')
    await page.waitForSelector('[data-testid="kb-base-default"]')
    const text = await page.textContent('main') ?? ''
    expect(text).to.include('Knowledge bases').and.include('Upload files').and.include('Retrieval test').and.not.match(/\bkb\.\w/)
    const bg = await page.evaluate(() => getComputedStyle(document.querySelector('[data-testid="kb-upload"]')!).backgroundColor)
    expect(bg).to.equal('rgb(27, 30, 38)')
    await fits()
    await page.screenshot({ path: join(SHOTS, 'knowledge-dark-en-phone.png'), fullPage: true })
    await page.evaluate(() => localStorage.setItem('lingxi.lang', 'zh'))
    await page.emulateMedia({ colorScheme: 'light' })
    await page.reload()
    await goTo(page, 'knowledge')
  })

  it('deletes the base with its documents after asking', async () => {
    await page.click('[data-testid="kb-base-safety"]')
    await page.click('[data-testid="kb-base-delete"]')
    expect(await page.textContent('[data-testid="confirm-text"]')).to.include('3 篇文档')
    await Promise.all([page.waitForResponse((r) => r.url().includes('/api/knowledge/bases/safety?withDocuments=true') && r.request().method() === 'DELETE'), page.click('[data-testid="confirm-ok"]')])
    await page.waitForSelector('[data-testid="kb-base-safety"]', { state: 'detached' })
    await page.waitForSelector('[data-testid="kb-base-default"][aria-pressed="true"]')
    expect((await s.api('/api/knowledge/bases/safety')).status).to.equal(404)
    expect((await s.api('/api/knowledge')).body.data).to.deep.equal([])
    expect(pageErrors).to.deep.equal([])
  })
})
