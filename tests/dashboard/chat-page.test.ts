// End-to-end in Debian's chromium: the chat page (issue 21). A memory is seeded for the master through the
// API; the page starts with the preset, channel and model the bot would choose; a message gets a streamed
// answer that first calls a tool (shown with its arguments and result as it happens); the "why" panel shows
// the memory put into the prompt, the tool, the model and the tokens; the conversation is on the
// Conversations page and can be continued from the chat page's list. Both sizes, both languages.
// Screenshots: screenshots/.
import { expect } from 'chai'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { seriousAxeViolations as axeProblems } from './axe.js'
import { goTo, launch, openDashboard, prepare, SHOTS } from './browser.js'


describe('dashboard: chat page (chromium e2e)', function () {
  this.timeout(180_000)
  let s: TestServer
  let fake: FakeOpenAI
  let browser: Browser
  let page: Page
  let memoryId = 0
  let pageErrors: string[] = []

  before(async function () {
    await prepare(this)
    fake = await startFakeOpenAI({ models: ['gpt-test', 'gpt-other'] })
    s = await startTestServer()
    await s.lx.rt.config.update({ channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-test', model: 'gpt-test', models: ['gpt-test', 'gpt-other'] }] })
    const mem = await s.api('/api/memories/user/10001', { method: 'POST', json: { content: 'prefers jasmine tea in the afternoon', category: 'preferences' } })
    expect(mem.status, mem.text).to.be.oneOf([200, 201])
    memoryId = mem.body.data.id
    browser = await launch()
    ;({ page, pageErrors } = await openDashboard(browser, s, { bypassCSP: true })) // axe is injected inline
  })

  after(async () => {
    await browser?.close()
    await s?.close()
    await fake?.close()
  })


  it('starts with the bot\'s own preset, channel and model', async () => {
    await goTo(page, 'chat')
    await expect(page.locator('h1')).to.be.ok
    expect(await page.locator('h1').count()).to.equal(1)
    await page.waitForFunction(() => (document.querySelector('[data-testid="chat-channel"] option') as HTMLOptionElement | null)?.textContent?.includes('fake'))
    expect(await page.locator('[data-testid="chat-channel"] option').first().textContent()).to.include('fake')
    expect(await page.locator('[data-testid="chat-model"] option').first().textContent()).to.include('gpt-test')
    expect(await page.locator('[data-testid="chat-preset"] option').first().textContent()).to.match(/与机器人相同（.+）/)
    expect(await page.locator('[data-testid="chat-model"] option').allTextContents()).to.include.members(['gpt-test', 'gpt-other'])
  })

  it('streams an answer that calls a tool, shows the call and its result, and the why panel with the memory used', async () => {
    fake.enqueue({ toolCalls: [{ name: 'get_current_time', arguments: { timezone: 'Asia/Shanghai' } }], usage: { prompt_tokens: 40, completion_tokens: 5 } },
      { content: 'It is the afternoon: time for a cup of jasmine tea, as you like it.', chunkDelayMs: 40, usage: { prompt_tokens: 60, completion_tokens: 15 } })
    await page.fill('[data-testid="chat-input"]', 'What should I drink now?')
    await page.click('[data-testid="chat-send"]')
    // the tool call is shown with its arguments and then its result while the answer is still coming
    const tool = page.locator('[data-testid="chat-tool-get_current_time"]').first()
    await tool.waitFor()
    expect(await tool.locator('[data-testid="chat-tool-args"]').textContent()).to.include('Asia/Shanghai')
    await page.waitForSelector('[data-testid="chat-tool-get_current_time"][data-state="done"]')
    // streamed: part of the text is in the live message before the answer is complete
    const partial = await page.waitForFunction(() => {
      const el = document.querySelector('[data-testid="chat-live-text"]')
      const text = el?.textContent ?? ''
      return text.length > 0 && text.length < 68 ? text : false
    })
    expect(String(await partial.jsonValue())).to.match(/^It is/)
    const answer = page.locator('[data-testid="chat-msg"][data-role="assistant"] [data-testid="chat-text"]')
    await answer.waitFor()
    expect(await answer.textContent()).to.equal('It is the afternoon: time for a cup of jasmine tea, as you like it.')
    expect(await tool.locator('[data-testid="chat-tool-result"]').textContent()).to.be.a('string').and.not.equal('')
    await page.click('[data-testid="chat-why-button"]')
    const panel = page.locator('[data-testid="chat-why-panel"]')
    await panel.waitFor()
    expect(await panel.locator(`[data-testid="why-memory-${memoryId}"]`).textContent()).to.include('prefers jasmine tea in the afternoon').and.include('10001')
    expect(await panel.locator('[data-testid="why-model"]').textContent()).to.include('fake').and.include('gpt-test')
    expect(await panel.locator('[data-testid="why-tools"]').textContent()).to.include('get_current_time')
    expect(await panel.locator('[data-testid="why-tokens"]').textContent()).to.include('100').and.include('20')
    expect(await page.getAttribute('[data-testid="chat-why-button"]', 'aria-expanded')).to.equal('true')
    await page.screenshot({ path: join(SHOTS, 'chat-page-why-1440.png'), fullPage: true })
    expect(await axeProblems(page)).to.deep.equal([])
  })

  it('keeps the conversation in the bot\'s store: on the Conversations page, and continued from the chat page', async () => {
    const list = await s.api('/api/conversations?userId=10001')
    const id = list.body.data.conversations.map((c: { id: string }) => c.id).find((x: string) => x.startsWith('web:10001:'))
    expect(id, 'a conversation of the chat page').to.be.a('string')
    await goTo(page, 'conversations')
    await page.locator(`[data-testid="conv-${id}"]`).waitFor()
    await goTo(page, 'chat')
    await page.click(`[data-testid="chat-conv-${id}"]`)
    await page.waitForSelector('[data-testid="chat-msg"][data-role="assistant"] [data-testid="chat-text"]')
    expect(await page.locator('[data-testid="chat-msg"]').count()).to.equal(2)
    await page.click('[data-testid="chat-why-button"]')
    expect(await page.locator(`[data-testid="why-memory-${memoryId}"]`).textContent()).to.include('prefers jasmine tea')
    // continue it with another model: the turn goes into the same conversation
    await page.selectOption('[data-testid="chat-model"]', 'gpt-other')
    fake.enqueue({ content: 'Another cup, then.' })
    await page.fill('[data-testid="chat-input"]', 'And after that?')
    await page.keyboard.press('Enter')
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="chat-msg"][data-role="assistant"] [data-testid="chat-text"]').length === 2)
    expect(fake.chatRequests().at(-1)?.body.model).to.equal('gpt-other')
    const conv = await s.api(`/api/conversations/${encodeURIComponent(String(id))}`)
    expect(conv.body.data.messages).to.have.length(4)
    // its why panel says how much of the previous request this one started with (lib/chat/prefix.ts)
    await page.locator('[data-testid="chat-why-button"]').last().click()
    const prefix = page.locator('[data-testid="why-prefix"]').last()
    await prefix.waitFor()
    expect(await prefix.textContent()).to.match(/\d+\D+\d+(\.\d)?%/)
  })

  it('text streamed before a tool call stays in the live message while the call is shown', async () => {
    fake.enqueue({ content: 'Checking the clock. ', toolCalls: [{ name: 'get_current_time', arguments: {} }] }, { content: 'It is late now.', chunkDelayMs: 150 })
    await page.fill('[data-testid="chat-input"]', 'Is it late?')
    await page.click('[data-testid="chat-send"]')
    // the tool's events re-render the live message: the text already streamed into its DOM node must stay
    await page.waitForFunction(() => {
      const live = document.querySelector('[data-testid="chat-msg"][data-live="true"]')
      return live?.querySelector('[data-testid="chat-tool-get_current_time"][data-state="done"]') &&
        live.querySelector('[data-testid="chat-live-text"]')?.textContent?.startsWith('Checking the clock. ')
    })
    // then the answer as the bot stores and sends it: the final round's text
    await page.waitForFunction(() => document.querySelector('[data-testid="chat-msg"]:last-child [data-testid="chat-text"]')?.textContent === 'It is late now.')
  })

  it('a failing model is said in the page language, beside the message', async () => {
    fake.enqueue({ status: 400, errorMessage: 'upstream says no' })
    await page.fill('[data-testid="chat-input"]', 'Will this fail?')
    await page.click('[data-testid="chat-send"]')
    const err = page.locator('[data-testid="chat-msg"][data-role="assistant"] [role="alert"]')
    await err.waitFor()
    expect(await err.textContent()).to.include('模型接口返回错误')
    expect(await page.isEnabled('[data-testid="chat-input"]')).to.equal(true)
  })

  it('works on a phone screen in English', async () => {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.click('[data-testid="lang"]')
    await page.waitForFunction(() => document.documentElement.lang === 'en')
    expect(await page.locator('[data-testid="chat-preset"] option').first().textContent()).to.match(/^As the bot would/)
    expect(await page.locator('label[for="chat-input"]').textContent()).to.equal('Message')
    expect(await page.locator('[data-testid="chat-msg"] .chat-who').first().textContent(), 'the history follows the language too').to.equal('You')
    expect(await page.locator('[data-testid="chat-why-button"]').first().textContent()).to.match(/why/i)
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow, 'no horizontal scrolling').to.be.at.most(0)
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.screenshot({ path: join(SHOTS, 'chat-page-390-en.png'), fullPage: true })
    expect(await axeProblems(page), 'dark mode, the why panel open').to.deep.equal([])
    await page.emulateMedia({ colorScheme: 'light' })
    await page.click('[data-testid="lang"]')
  })

  it('without a usable channel, an empty chat says so and leads to the channels page', async () => {
    await page.setViewportSize({ width: 1440, height: 900 })
    await s.lx.rt.config.update({ channels: [] })
    await goTo(page, 'overview')
    await goTo(page, 'chat')
    await page.click('[data-testid="chat-to-channels"]')
    await page.waitForURL('**/channels')
    expect(pageErrors).to.deep.equal([])
  })
})
