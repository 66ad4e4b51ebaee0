// Accessibility, in Debian's chromium: axe-core on every page of the dashboard (the `pages` map of
// resources/src/main.tsx, read at test time so a new page is never missed) and on the login page, in both
// languages and at both sizes (1440x900 and 390x844, each size once light and once dark), with data present
// (a channel, a preset, a memory, a knowledge document, a character, a conversation). Any serious or
// critical violation fails, listed readably; each page has exactly one h1 and <html lang> follows the language.
// Then a keyboard-only walk: skip link, menu, a page, a switch and a button, without the mouse.
import { expect } from 'chai'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { seriousAxeViolations as axeProblems } from './axe.js'
import { launch, logIn, PLUGIN_DIR, prepare, SHOTS } from './browser.js'


/** The page names of main.tsx's lazily loaded `pages` map, in menu order. */
function pagesOfMain (): string[] {
  const src = readFileSync(join(PLUGIN_DIR, 'resources', 'src', 'main.tsx'), 'utf8')
  const block = src.match(/const pages\b[^\n]*\{\n([\s\S]*?)\n\}/)
  if (!block) throw new Error('resources/src/main.tsx: the `pages` map was not found')
  return [...block[1]!.matchAll(/^\s*(\w+):\s*\(\)\s*=>\s*import\(/gm)].map((m) => m[1]!)
}

/**
 * What an untranslated i18n key looks like on screen (t() falls back to the key): the prefixes of the
 * dictionaries' keys (`bs.`, `er.`, `st_`...), read from resources/src/i18n*.ts.
 */
function rawKeyPattern (): RegExp {
  const dir = join(PLUGIN_DIR, 'resources', 'src')
  const src = readdirSync(dir).filter((f) => /^i18n.*\.ts$/.test(f)).map((f) => readFileSync(join(dir, f), 'utf8')).join('\n')
  const dotted = new Set([...src.matchAll(/'([a-zA-Z]{2,})\.[\w.-]+'\s*:/g)].map((m) => m[1]!))
  const under = new Set([...src.matchAll(/(?:^|[\s{,'])([a-z]+)_[\w-]+'?\s*:/gm)].map((m) => m[1]!))
  return new RegExp(`\\b(?:(?:${[...dotted].join('|')})\\.[a-zA-Z][\\w.-]*|(?:${[...under].join('|')})_[a-zA-Z][\\w-]*)`, 'g')
}

/** Raw keys in the visible text, the options and the names (aria-label, placeholder, title) of the page. */
async function rawKeys (page: Page, re: RegExp): Promise<string[]> {
  const text = await page.evaluate(() => {
    const parts = [document.body.innerText, document.title]
    for (const el of document.querySelectorAll('option, [aria-label], [placeholder], [title]')) {
      parts.push(el.tagName === 'OPTION' ? el.textContent ?? '' : '', el.getAttribute('aria-label') ?? '', el.getAttribute('placeholder') ?? '', el.getAttribute('title') ?? '')
    }
    return parts.join('\n')
  })
  return [...new Set(text.match(re) ?? [])]
}

interface Combo { lang: 'zh' | 'en', width: number, height: number, scheme: 'light' | 'dark' }
const COMBOS: Combo[] = [
  { lang: 'zh', width: 1440, height: 900, scheme: 'light' },
  { lang: 'en', width: 1440, height: 900, scheme: 'dark' },
  { lang: 'zh', width: 390, height: 844, scheme: 'dark' },
  { lang: 'en', width: 390, height: 844, scheme: 'light' }
]

/** Waits until the page has rendered its data: its h1, no loading placeholder, two frames. */
async function settled (page: Page): Promise<void> {
  await page.waitForSelector('main h1')
  await page.waitForFunction(() => !document.querySelector('main .loading'), undefined, { timeout: 15_000 })
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
}

describe('dashboard: accessibility (axe-core on every page, both languages, both sizes; keyboard only)', function () {
  this.timeout(180_000)
  let s: TestServer
  let fake: FakeOpenAI
  let browser: Browser
  const pages = pagesOfMain()
  const keyRe = rawKeyPattern()

  before(async function () {
    await prepare(this)
    fake = await startFakeOpenAI({ models: ['gpt-4o', 'gpt-4o-mini'] })
    s = await startTestServer()
    // some data on the pages: a channel, a preset, a memory, a knowledge document, a character, a conversation, a task
    const seeds: Array<[string, object]> = [
      ['/api/config/channels', { name: 'main', baseUrl: fake.url, apiKey: 'sk-a11y-0001', model: 'gpt-4o', models: ['gpt-4o', 'gpt-4o-mini'] }],
      ['/api/preset', { id: 'a11y-preset', name: 'A11y preset', systemPrompt: 'You are brief.' }],
      ['/api/memory/user/20002', { content: 'likes green tea' }],
      ['/api/knowledge', { title: 'Lighthouse manual', content: 'The lamp turns every ten seconds.' }],
      ['/api/game/presets', { name: 'Heroine', systemPrompt: 'You are the heroine of a school story.' }],
      ['/api/chat', { message: 'hello', userId: '20002' }],
      ['/api/tasks', { name: 'A11y digest', prompt: 'Summarize the day.', schedule: '0 8 * * *', target: { groupId: '555' } }]
    ]
    for (const [path, json] of seeds) {
      const r = await s.api(path, { method: 'POST', json })
      expect(r.status, `${path}: ${r.text}`).to.be.within(200, 201)
    }
    browser = await launch()
  })

  after(async () => {
    await browser?.close()
    await s?.close()
    await fake?.close()
  })

  it('reads the page list from main.tsx, and the menu shows every page of it', async () => {
    expect(pages.length).to.be.greaterThan(10)
    expect(pages).to.include.members(['overview', 'channels', 'logs'])
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } })
    const page = await ctx.newPage()
    await logIn(page, s)
    const inMenu = await page.$$eval('nav a[data-page]', (as) => as.map((a) => (a as HTMLElement).dataset.page))
    expect(inMenu).to.deep.equal(pages)
    await ctx.close()
  })

  for (const combo of COMBOS) {
    const name = `${combo.lang} ${combo.width}x${combo.height} ${combo.scheme}`
    describe(name, () => {
      let ctx: BrowserContext
      let page: Page
      const errors: string[] = []

      before(async () => {
        ctx = await browser.newContext({ viewport: { width: combo.width, height: combo.height }, colorScheme: combo.scheme, bypassCSP: true, // axe is injected inline
          ...(combo.width < 720 ? { isMobile: true, hasTouch: true } : {}) })
        await ctx.addInitScript((l) => { localStorage.setItem('lingxi.lang', l) }, combo.lang)
        page = await ctx.newPage()
        page.on('pageerror', (e) => errors.push(e.message))
      })
      after(async () => { await ctx?.close() })

      it('login page', async () => {
        await page.goto(`${s.base}/login`)
        await page.waitForSelector('[data-testid="login-hint"]')
        expect(await page.getAttribute('html', 'lang')).to.equal(combo.lang === 'zh' ? 'zh-CN' : 'en')
        expect(await page.locator('h1').count()).to.equal(1)
        expect(await axeProblems(page)).to.deep.equal([])
        // the favicon is served (an SVG bundled with the page)
        const icon = await page.$eval('link[rel="icon"]', (l) => (l as HTMLLinkElement).href)
        const res = await page.request.get(icon)
        expect(res.status()).to.equal(200)
        expect(res.headers()['content-type']).to.match(/svg/)
        await logIn(page, s) // the login link, on the page just checked
      })

      for (const p of pages) {
        it(`page ${p}`, async () => {
          await page.evaluate((n) => { document.querySelector<HTMLElement>(`nav a[data-page="${n}"]`)!.click() }, p)
          await page.waitForFunction((n) => document.querySelector('nav a[aria-current="page"]')?.getAttribute('data-page') === n, p)
          await settled(page)
          expect(await page.getAttribute('html', 'lang')).to.equal(combo.lang === 'zh' ? 'zh-CN' : 'en')
          expect(await page.locator('h1').count(), 'one h1 per page').to.equal(1)
          expect(await rawKeys(page, keyRe), `untranslated keys on ${p}`).to.deep.equal([])
          const problems = await axeProblems(page)
          if (problems.length) await page.screenshot({ path: join(SHOTS, `a11y-${p}-${combo.lang}-${combo.width}-${combo.scheme}.png`), fullPage: true })
          expect(problems, `axe on ${p} (${name})`).to.deep.equal([])
        })
      }

      it('no script error on any page', () => { expect(errors).to.deep.equal([]) })
    })
  }

  describe('keyboard only', () => {
    let ctx: BrowserContext
    let page: Page
    before(async () => {
      ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true })
      page = await ctx.newPage()
      await logIn(page, s)
      await settled(page)
    })
    after(async () => { await ctx?.close() })

    const focused = (): Promise<string> => page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null
      return el ? `${el.tagName.toLowerCase()}${el.dataset.testid ? `[${el.dataset.testid}]` : ''}${el.dataset.page ? `{${el.dataset.page}}` : ''}` : ''
    })
    /** Presses Tab until `want` has the focus (at most `max` times). */
    const tabTo = async (want: (f: string) => boolean, max = 80): Promise<string> => {
      for (let i = 0; i < max; i++) {
        await page.keyboard.press('Tab')
        const f = await focused()
        if (want(f)) return f
      }
      throw new Error(`Tab never reached the element (last: ${await focused()})`)
    }

    it('the first Tab reaches the skip link, which moves the focus to the content', async () => {
      await page.keyboard.press('Tab')
      expect(await focused()).to.equal('a[skip-link]')
      await page.keyboard.press('Enter')
      expect(await page.evaluate(() => document.activeElement?.id)).to.equal('main')
    })

    it('opens a page from the menu, then operates a switch and a button without the mouse', async () => {
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
      await tabTo((f) => f === 'a{tools}')
      await page.keyboard.press('Enter')
      await page.waitForURL('**/tools')
      await settled(page)
      // the focus moved on to the page chosen: the next Tab goes into its content, not through the menu
      expect(await page.evaluate(() => document.activeElement?.id)).to.equal('main')
      expect(await page.getAttribute('nav a[data-page="tools"]', 'aria-current')).to.equal('page')
      expect(await page.textContent('main h1')).to.equal('工具与技能')
      // Tab to the first tool's switch; Space toggles it and the change reaches the server
      const sw = await tabTo((f) => /^input\[tool-/.test(f))
      const tool = sw.slice('input[tool-'.length, -1)
      const before = (await s.api('/api/tools/list')).body.data.find((x: { name: string }) => x.name === tool).enabled as boolean
      const [res] = await Promise.all([page.waitForResponse((r) => r.url().includes(`/tools/${tool}/toggle`)), page.keyboard.press('Space')])
      expect(res.status()).to.equal(200)
      expect((await s.api('/api/tools/list')).body.data.find((x: { name: string }) => x.name === tool).enabled).to.equal(!before)
      // Tab on to the tool's Test button; Enter opens the test form with the tool filled in
      await tabTo((f) => f === `button[tool-test-${tool}]`)
      await page.keyboard.press('Enter')
      await page.waitForSelector('[data-testid="test-tool"]')
      expect(await page.inputValue('[data-testid="test-tool"]')).to.equal(tool)
      await s.api(`/api/skills/tools/${tool}/toggle`, { method: 'POST', json: { enabled: before } })
    })

    it('the confirm dialog passes axe and names what it deletes', async () => {
      await page.evaluate(() => { document.querySelector<HTMLElement>('nav a[data-page="game"]')!.click() })
      const del = page.locator('tr', { hasText: 'Heroine' }).locator('[data-testid^="game-delete-"]')
      await del.click()
      await page.waitForSelector('[data-testid="confirm-dialog"][open]')
      expect(await page.textContent('[data-testid="confirm-text"]')).to.include('Heroine')
      expect(await axeProblems(page)).to.deep.equal([])
      await page.keyboard.press('Escape')
      await page.waitForSelector('[data-testid="confirm-dialog"]', { state: 'detached' })
    })

    it('the phone menu opens from its button by keys, closes on Esc and gives the focus back', async () => {
      await page.setViewportSize({ width: 390, height: 844 })
      await page.waitForSelector('[data-testid="menu-button"]')
      await page.focus('[data-testid="menu-button"]')
      expect(await focused()).to.equal('button[menu-button]')
      expect(await page.getAttribute('[data-testid="menu-button"]', 'aria-expanded')).to.equal('false')
      expect(await page.getAttribute('[data-testid="menu-button"]', 'aria-label')).to.equal('打开菜单')
      await page.keyboard.press('Enter')
      await page.waitForSelector('#side-nav.open')
      expect(await page.getAttribute('[data-testid="menu-button"]', 'aria-expanded')).to.equal('true')
      expect(await focused()).to.equal('a{game}') // the current page's link
      await page.keyboard.press('Escape')
      await page.waitForSelector('#side-nav:not(.open)', { state: 'attached' })
      expect(await focused()).to.equal('button[menu-button]')
      // an outside tap closes it too
      await page.keyboard.press('Enter')
      await page.waitForSelector('#side-nav.open')
      await page.mouse.click(370, 600)
      await page.waitForSelector('#side-nav:not(.open)', { state: 'attached' })
      await page.screenshot({ path: join(SHOTS, 'a11y-phone-menu-closed.png') })
      await page.setViewportSize({ width: 1440, height: 900 })
    })
  })
})
