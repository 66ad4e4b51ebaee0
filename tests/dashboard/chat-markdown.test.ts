// End-to-end in Debian's chromium: the chat page follows the newest message (the list itself scrolls, at
// 1440x900 and 390x844) and stops following when the owner scrolls up to read, with a button back down;
// answers are markdown rendered safely (resources/src/markdown.tsx: raw HTML off, links http(s)/mailto only,
// images as links, code blocks with a copy button), streamed answers too, and as QQ shows them on request
// (lib/delivery/markdown.ts); the conversation viewer keeps line breaks and renders the answers' markdown.
// The context bypasses the CSP (axe is injected inline), so the XSS check does not lean on the CSP either.
import { expect } from 'chai'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { seriousAxeViolations } from './axe.js'
import { goTo, launch, openDashboard, prepare, SHOTS } from './browser.js'

const LIST = '[data-testid="chat-messages"]'
const ANSWERS = '[data-testid="chat-msg"][data-role="assistant"] [data-testid="chat-text"]'

/** The list's distance from its bottom (px): 0 when its last message is in view. */
const fromBottom = (page: Page): Promise<number> => page.$eval(LIST, (el) => el.scrollHeight - el.scrollTop - el.clientHeight)

/** Sends `text` and waits for the `n`th finished answer. */
async function exchange (page: Page, text: string, n: number): Promise<void> {
  await page.fill('[data-testid="chat-input"]', text)
  await page.click('[data-testid="chat-send"]')
  await page.waitForFunction(([sel, count]) => document.querySelectorAll(sel as string).length === count, [ANSWERS, n] as const)
}

/** A long answer in 40 streamed lines. */
const longLines = (tag: string): string[] => Array.from({ length: 40 }, (_, i) => `${tag} line ${i + 1}: the answer goes on and on so that the list must scroll.\n\n`)

describe('dashboard: chat markdown and following the newest message (chromium e2e)', function () {
  this.timeout(180_000)
  let s: TestServer
  let fake: FakeOpenAI
  let browser: Browser

  before(async function () {
    await prepare(this)
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    s = await startTestServer()
    await s.lx.rt.config.update({ channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-test', model: 'gpt-test', models: ['gpt-test'] }] })
    browser = await launch()
  })

  after(async () => {
    await browser?.close()
    await s?.close()
    await fake?.close()
  })

  for (const phone of [false, true]) {
    it(`follows a long streamed answer after 4 exchanges and stops when the owner scrolls up (${phone ? '390x844' : '1440x900'})`, async () => {
      const { page, pageErrors } = await openDashboard(browser, s, { phone })
      await goTo(page, 'chat')
      for (let i = 1; i <= 3; i++) {
        fake.enqueue({ chunks: longLines(`short ${i}`).slice(0, 6) })
        await exchange(page, `question ${i}`, i)
      }
      // the 4th answer streams for a while: the list keeps its last line in view while it grows
      fake.enqueue({ chunks: longLines('long'), chunkDelayMs: 30 })
      await page.fill('[data-testid="chat-input"]', 'question 4')
      await page.click('[data-testid="chat-send"]')
      await page.waitForFunction(() => (document.querySelector('[data-testid="chat-live-text"]')?.textContent ?? '').includes('long line 20'))
      const list = await page.$eval(LIST, (el) => ({ top: el.scrollTop, height: el.scrollHeight, client: el.clientHeight }))
      expect(list.height, 'the list scrolls').to.be.greaterThan(list.client)
      expect(list.top, 'scrolled down to the streaming answer').to.be.greaterThan(0)
      expect(await fromBottom(page), 'while streaming').to.be.at.most(30)
      await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 4, ANSWERS)
      expect(await fromBottom(page), 'after the answer').to.be.at.most(2)
      expect(await page.locator('[data-testid="chat-new-below"]').count(), 'no button at the bottom').to.equal(0)
      await page.screenshot({ path: join(SHOTS, `chat-follow-${phone ? 390 : 1440}.png`) })

      // the owner scrolls up to read while the 5th answer streams: the list stays where it is
      fake.enqueue({ chunks: longLines('fifth'), chunkDelayMs: 30 })
      await page.fill('[data-testid="chat-input"]', 'question 5')
      await page.click('[data-testid="chat-send"]')
      await page.waitForFunction(() => (document.querySelector('[data-testid="chat-live-text"]')?.textContent ?? '').includes('fifth line 3'))
      if (phone) await page.$eval(LIST, (el) => el.scrollBy(0, -600))
      else { await page.hover(LIST); await page.mouse.wheel(0, -600) }
      const below = page.locator('[data-testid="chat-new-below"]')
      await below.waitFor()
      const readingAt = await page.$eval(LIST, (el) => el.scrollTop)
      await page.waitForFunction(() => (document.querySelector('[data-testid="chat-live-text"]')?.textContent ?? '').includes('fifth line 30'))
      expect(await page.$eval(LIST, (el) => el.scrollTop), 'not pulled down while reading').to.be.closeTo(readingAt, 2)
      expect(await fromBottom(page)).to.be.greaterThan(100)
      expect(await below.textContent()).to.match(/新消息/)
      // the button goes back down and the list follows again
      await below.click()
      expect(await fromBottom(page)).to.be.at.most(30)
      await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 5, ANSWERS)
      expect(await fromBottom(page), 'following again to the end').to.be.at.most(2)
      expect(await below.count()).to.equal(0)
      expect(pageErrors).to.deep.equal([])
      await page.close()
    })
  }

  it('renders an answer\'s markdown as elements, while it streams too; the copy button copies; QQ view shows the bot\'s plain text', async () => {
    const { page, pageErrors } = await openDashboard(browser, s, { bypassCSP: true })
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.base })
    await goTo(page, 'chat')
    const answer = ['Here is **the plan**:\n\n', '- first step\n- second step\n\n', '| name | cost |\n|---|--:|\n| tea | 3 |\n| cake | 5 |\n\n',
      '```js\nconst total = 3 + 5\nconsole.log(total)\n```\n\n', 'See [the docs](https://example.com/docs) or ![a cat](https://example.com/cat.png).']
    fake.enqueue({ chunks: answer, chunkDelayMs: 150 })
    await page.fill('[data-testid="chat-input"]', 'plan?')
    await page.click('[data-testid="chat-send"]')
    // streamed: the bold text is an element before the answer is complete
    await page.waitForSelector('[data-testid="chat-live-text"] strong')
    const msg = page.locator('[data-testid="chat-msg"][data-role="assistant"]').last()
    await msg.locator('[data-testid="chat-text"]').waitFor()
    const text = msg.locator('[data-testid="chat-text"]')
    expect(await text.locator('strong').textContent()).to.equal('the plan')
    expect(await text.locator('li').allTextContents()).to.deep.equal(['first step', 'second step'])
    expect(await text.locator('table th').allTextContents()).to.deep.equal(['name', 'cost'])
    expect(await text.locator('table td').allTextContents()).to.deep.equal(['tea', '3', 'cake', '5'])
    expect(await text.locator('pre > code').textContent()).to.equal('const total = 3 + 5\nconsole.log(total)')
    expect(await text.textContent(), 'no markdown syntax left').not.to.match(/\*\*|```|\|---/)
    const link = text.locator('a', { hasText: 'the docs' })
    expect(await link.getAttribute('href')).to.equal('https://example.com/docs')
    expect(await link.getAttribute('target')).to.equal('_blank')
    expect(await link.getAttribute('rel')).to.equal('noopener noreferrer')
    // the picture is a link to it, not loaded
    expect(await text.locator('img').count()).to.equal(0)
    expect(await text.locator('[data-testid="md-image"]').getAttribute('href')).to.equal('https://example.com/cat.png')
    await text.locator('[data-testid="md-copy"]').click()
    await page.waitForFunction(() => document.querySelector('[data-testid="md-copy"]')?.textContent === '已复制')
    expect(await page.evaluate(() => navigator.clipboard.readText())).to.equal('const total = 3 + 5\nconsole.log(total)')
    // without the Clipboard API the fallback copies through a selected text area
    await page.evaluate(() => navigator.clipboard.writeText('something else'))
    await page.evaluate(() => { Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true }) })
    await page.waitForFunction(() => document.querySelector('[data-testid="md-copy"]')?.textContent === '复制')
    await text.locator('[data-testid="md-copy"]').click()
    await page.waitForFunction(() => document.querySelector('[data-testid="md-copy"]')?.textContent !== '复制')
    expect(await text.locator('[data-testid="md-copy"]').textContent()).to.equal('已复制')
    expect(await page.locator('.md-copy-buffer').count(), 'the text area is gone').to.equal(0)
    expect(await seriousAxeViolations(page)).to.deep.equal([])
    await page.screenshot({ path: join(SHOTS, 'chat-markdown-1440.png'), fullPage: true })

    // as QQ shows it: the delivery's plain text (delivery.markdown is plain by default)
    await page.check('[data-testid="chat-qq-view"]')
    const plain = await msg.locator('[data-testid="chat-text"]').textContent() ?? ''
    expect(plain).to.include('Here is the plan:').and.include('• first step').and.include('name | cost').and.include('the docs (https://example.com/docs)')
    expect(plain).not.to.match(/\*\*|```/)
    expect(await msg.locator('strong, table').count()).to.equal(0)
    expect(await page.locator('[data-testid="chat-qq-hint"]').textContent()).to.include('QQ')
    await page.uncheck('[data-testid="chat-qq-view"]')
    await msg.locator('[data-testid="chat-text"] strong').waitFor()

    // with delivery.markdown: keep the bot sends the text as written, and the QQ view says so
    await s.lx.rt.config.update({ delivery: { markdown: 'keep' } })
    try {
      await goTo(page, 'overview')
      await goTo(page, 'chat')
      await page.locator('[data-testid^="chat-conv-"]', { hasText: 'Here is the plan' }).click()
      await page.locator(`${ANSWERS} strong`).waitFor()
      await page.check('[data-testid="chat-qq-view"]')
      expect(await page.locator(ANSWERS).last().textContent()).to.include('Here is **the plan**:').and.include('```js')
      expect(await page.locator('[data-testid="chat-qq-hint"]').textContent()).to.include('按原样发送')
    } finally {
      await s.lx.rt.config.update({ delivery: { markdown: 'plain' } })
    }
    expect(pageErrors).to.deep.equal([])
    await page.close()
  })

  it('renders raw HTML, scripts and javascript: links in an answer as inert text', async () => {
    const { page, pageErrors } = await openDashboard(browser, s, { bypassCSP: true })
    const dialogs: string[] = []
    page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss() })
    await goTo(page, 'chat')
    const evil = 'Look <img src=x onerror="alert(1)"> here.\n\n<script>alert(2)</script>\n\n[click me](javascript:alert(3)) ' +
      '[data](data:text/html;base64,PHNjcmlwdD5hbGVydCg0KTwvc2NyaXB0Pg==) ![pic](javascript:alert(5)) <a href="javascript:alert(6)">a</a> <https://example.com/ok>'
    fake.enqueue({ chunks: [evil.slice(0, 40), evil.slice(40)], chunkDelayMs: 100 })
    await exchange(page, 'be naughty', 1)
    const text = page.locator(ANSWERS).last()
    const found = await page.$eval(LIST, (el) => ({
      handlers: el.querySelectorAll('[onerror], [onclick], [onload]').length,
      scripts: el.querySelectorAll('script, img, iframe').length,
      hrefs: Array.from(el.querySelectorAll('a')).map((a) => a.getAttribute('href'))
    }))
    expect(found.handlers, 'no element with a handler').to.equal(0)
    expect(found.scripts, 'no script, image or frame').to.equal(0)
    expect(found.hrefs).to.deep.equal(['https://example.com/ok'])
    const shown = await text.textContent() ?? ''
    expect(shown, 'the HTML is shown as text').to.include('<img src=x onerror="alert(1)">').and.include('<script>alert(2)</script>')
    expect(shown).to.include('[click me](javascript:alert(3))')
    expect(dialogs, 'no dialog fired').to.deep.equal([])
    expect(pageErrors).to.deep.equal([])
    await page.close()
  })

  it('the conversation viewer keeps the line breaks of a message and renders an answer\'s markdown', async () => {
    const { page, pageErrors } = await openDashboard(browser, s, { phone: true })
    await goTo(page, 'chat')
    fake.enqueue({ content: 'A **bold** answer:\n\n1. one\n2. two\n\n```\ncode here\n```' })
    await exchange(page, 'first line\nsecond line\n  third, indented', 1)
    const list = await s.api('/api/conversations?userId=10001&limit=100')
    const ids = (list.body.data.conversations as Array<{ id: string, lastMessage: string }>).filter((c) => c.id.startsWith('web:'))
    const id = ids.find((c) => c.lastMessage.includes('bold'))?.id ?? ids[0]?.id
    expect(id, 'the chat page\'s conversation').to.be.a('string')
    await goTo(page, 'conversations')
    await page.click(`[data-testid="conv-${id}"]`)
    const user = page.locator('[data-testid="conv-msg"][data-role="user"] [data-testid="conv-text"]').first()
    await user.waitFor()
    expect(await user.innerText()).to.equal('first line\nsecond line\n  third, indented')
    const bot = page.locator('[data-testid="conv-msg"][data-role="assistant"] [data-testid="conv-text"]').first()
    expect(await bot.locator('strong').textContent()).to.equal('bold')
    expect(await bot.locator('ol > li').allTextContents()).to.deep.equal(['one', 'two'])
    expect(await bot.locator('pre > code').textContent()).to.equal('code here')
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow, 'no horizontal scrolling').to.be.at.most(0)
    await page.screenshot({ path: join(SHOTS, 'conversation-markdown-390.png'), fullPage: true })
    expect(pageErrors).to.deep.equal([])
    await page.close()
  })
})
