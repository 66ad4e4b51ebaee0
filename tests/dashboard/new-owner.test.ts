// End-to-end in Debian's chromium: the journey of issue 21's "Done when", as a new owner walks it. From the
// login link on a fresh data folder with no channel: the overview's first-run guide; a channel added
// through the form against the fake model server, its default chosen from the model list fetched before
// saving, then tested from the guide; a streamed answer on the chat page that calls a tool; the "why"
// panel with the memory that was put into the prompt; a preset edited through the preset editor; a memory
// setting changed through the generated configuration form; the statistics pages with the recorded turn;
// the guide with every step done. Driven by clicks and typing through the menu, checked in the page and through the HTTP API. At
// 1440x900 in Chinese, then the key steps at 390x844 in English. Screenshots: screenshots/new-owner-*.png.
import { expect } from 'chai'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { seriousAxeViolations } from './axe.js'
import { goTo, launch, openDashboard, prepare, SHOTS } from './browser.js'

const KEY = 'sk-new-owner-0123456789'
const MODELS = ['journey-large', 'journey-mini']
const form = '[data-testid="channel-form"]'

interface Journey { s: TestServer, fake: FakeOpenAI, browser: Browser, page: Page, pageErrors: string[] }

/** A fresh plugin (empty data folder), the fake model server and a page logged in through a login link. */
async function start (owner: string, viewport: { width: number, height: number }): Promise<Journey> {
  const fake = await startFakeOpenAI({ models: MODELS, validKeys: [KEY] })
  const s = await startTestServer()
  const browser = await launch()
  const { page, pageErrors } = await openDashboard(browser, s, { viewport, bypassCSP: true, userId: owner }) // axe is injected inline
  return { s, fake, browser, page, pageErrors }
}

async function stop (j: Journey | undefined): Promise<void> {
  await j?.browser.close()
  await j?.s.close()
  await j?.fake.close()
}

/** Adds the channel through the form: the model list fetched with the typed key, the default picked from it. */
async function addChannel (j: Journey, name: string, model: string): Promise<void> {
  const { page, fake } = j
  await page.click('[data-testid="channel-add"]')
  await page.fill(`${form} input[name=name]`, name)
  await page.fill(`${form} input[name=baseUrl]`, fake.url)
  await page.fill(`${form} input[name=apiKey]`, KEY)
  const before = fake.requests.length
  await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/config/channels/models') && r.request().method() === 'POST' && r.status() === 200),
    page.click('[data-testid="channel-fetch-models"]')
  ])
  expect(fake.requests.slice(before).some((r) => r.path.endsWith('/models')), 'the model list was asked of the provider').to.equal(true)
  await page.waitForSelector(`[data-testid="channel-fetched"] button[data-model="${model}"]`)
  await page.click('[data-testid="channel-use-fetched"]')
  await page.click(`[data-testid="channel-fetched"] button[data-model="${model}"]`)
  expect(await page.inputValue(`${form} input[name=model]`)).to.equal(model)
}

async function saveChannel (page: Page): Promise<void> {
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/config/channels') && r.request().method() === 'POST'),
    page.click('[data-testid="channel-save"]')
  ])
  expect(res.status(), await res.text()).to.equal(200)
}

/** Sends a message on the chat page; the fake model first calls get_current_time, then streams the answer. */
async function chatWithTool (page: Page, fake: FakeOpenAI, message: string, answer: string): Promise<void> {
  fake.enqueue({ toolCalls: [{ name: 'get_current_time', arguments: { timezone: 'Asia/Shanghai' } }], usage: { prompt_tokens: 50, completion_tokens: 6 } },
    { content: answer, chunkDelayMs: 60, usage: { prompt_tokens: 70, completion_tokens: 14 } })
  // every text the live message shows, recorded as the DOM changes (not sampled per frame)
  await page.evaluate(() => {
    const seen: string[] = []
    ;(window as unknown as { liveTexts: string[] }).liveTexts = seen
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="chat-live-text"]')?.textContent
      if (text && seen.at(-1) !== text) seen.push(text)
    }).observe(document.body, { subtree: true, childList: true, characterData: true })
  })
  await page.fill('[data-testid="chat-input"]', message)
  await page.click('[data-testid="chat-send"]')
  const tool = page.locator('[data-testid="chat-tool-get_current_time"]').first()
  await tool.waitFor()
  expect(await tool.locator('[data-testid="chat-tool-args"]').textContent()).to.include('Asia/Shanghai')
  const done = page.locator('[data-testid="chat-msg"][data-role="assistant"] [data-testid="chat-text"]').last()
  await done.waitFor()
  expect(await done.textContent()).to.equal(answer)
  // streamed: the live message held parts of the answer before the whole of it
  const live = await page.evaluate(() => (window as unknown as { liveTexts: string[] }).liveTexts)
  expect(live.filter((x) => x.length < answer.length && answer.startsWith(x)).length, live.join(' | ')).to.be.at.least(2)
  await page.waitForSelector('[data-testid="chat-tool-get_current_time"][data-state="done"]')
}

describe('dashboard: a new owner\'s journey (chromium e2e)', function () {
  this.timeout(240_000)

  describe('at 1440x900 in Chinese', () => {
    const OWNER = '20260021'
    const ANSWER = '现在是下午三点，正适合来一杯茉莉花茶，记得水温别太高。'
    let j: Journey
    let page: Page
    let memoryId = 0
    const shot = (name: string): Promise<Buffer> => page.screenshot({ path: join(SHOTS, `new-owner-${name}.png`), fullPage: true })

    before(async function () {
      await prepare(this)
      j = await start(OWNER, { width: 1440, height: 900 })
      page = j.page
    })

    after(() => stop(j))

    it('1. logged in through the link, the overview shows the first-run guide: no channel yet', async () => {
      expect((await j.s.api('/api/config/channels')).body.data).to.deep.equal([])
      await page.waitForSelector('[data-testid="first-run"]')
      expect(await page.getAttribute('[data-testid="fr-step-channel"]', 'data-done')).to.equal('false')
      expect(await page.getAttribute('[data-testid="fr-step-test"]', 'data-done')).to.equal('false')
      expect(await page.getAttribute('[data-testid="fr-step-chat"]', 'data-done')).to.equal('false')
      expect(await page.textContent('h1')).to.equal('概览')
      await shot('1-guide')
    })

    it('2. adds a channel through the form, the default model chosen from the list fetched before saving', async () => {
      await page.click('[data-testid="fr-add-channel"]')
      await page.waitForURL('**/channels')
      await addChannel(j, 'first', 'journey-mini')
      expect((await j.s.api('/api/config/channels')).body.data, 'fetching saved nothing').to.deep.equal([])
      await shot('2-channel-form')
      await saveChannel(page)
      await page.waitForSelector('[data-testid="channel-status-first"]')
      const [ch] = (await j.s.api('/api/config/channels')).body.data
      expect(ch).to.include({ name: 'first', baseUrl: j.fake.url, model: 'journey-mini', status: 'active' })
      expect(ch.models).to.have.members(MODELS)
      expect(ch.apiKey).to.not.equal(KEY) // answered masked
      // the guide sees the channel
      await goTo(page, 'overview')
      await page.waitForSelector('[data-testid="fr-step-channel"][data-done="true"]')
      expect(await page.textContent('[data-testid="fr-step-test"]')).to.include('first')
      // its next step: test the channel, which asks the fake model with the chosen default
      const before = j.fake.chatRequests().length
      await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/api/config/channels/first/test') && r.status() === 200),
        page.click('[data-testid="fr-test"]')
      ])
      await page.waitForSelector('[data-testid="fr-step-test"][data-done="true"]')
      expect(j.fake.chatRequests().slice(before).map((r) => r.body.model)).to.deep.equal(['journey-mini'])
      expect(await page.getAttribute('[data-testid="fr-step-chat"]', 'data-done')).to.equal('false')
      await page.waitForSelector('[data-testid="fr-open-chat"]')
    })

    it('3. chats on the chat page: a streamed answer that calls a tool, with the channel\'s default model', async () => {
      // the chat page chats as the logged-in owner (it asks GET /api/auth/verify who that is)
      const [verify] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/api/auth/verify')),
        goTo(page, 'chat')
      ])
      expect((await verify.json()).data.userId).to.equal(OWNER)
      // the memory the answer will use, seeded for that user through the API
      const mem = await j.s.api(`/api/memories/user/${OWNER}`, { method: 'POST', json: { content: '喜欢在下午喝茉莉花茶', category: 'preferences' } })
      expect(mem.status, mem.text).to.be.oneOf([200, 201])
      memoryId = mem.body.data.id
      await page.waitForFunction(() => (document.querySelector('[data-testid="chat-model"] option') as HTMLOptionElement | null)?.textContent?.includes('journey-mini'))
      expect(await page.locator('[data-testid="chat-channel"] option').first().textContent()).to.include('first')
      const sent = j.fake.chatRequests().length
      await chatWithTool(page, j.fake, '现在适合喝点什么？', ANSWER)
      const calls = j.fake.chatRequests().slice(sent)
      expect(calls.map((r) => r.body.model)).to.deep.equal(['journey-mini', 'journey-mini'])
      expect(calls[0]!.body.stream, 'the answer is streamed from the model').to.equal(true)
      expect(JSON.stringify(calls[0]!.body.tools ?? [])).to.include('get_current_time')
      // kept in the bot's conversation store under the owner
      const convs = (await j.s.api(`/api/conversations?userId=${OWNER}`)).body.data.conversations as Array<{ id: string }>
      expect(convs.map((c) => c.id).some((id) => id.startsWith(`web:${OWNER}:`))).to.equal(true)
      await shot('3-chat')
    })

    it('4. the "why" panel shows the memory that was used, the tool, the model and the tokens', async () => {
      await page.click('[data-testid="chat-why-button"]')
      const panel = page.locator('[data-testid="chat-why-panel"]')
      await panel.waitFor()
      expect(await panel.locator(`[data-testid="why-memory-${memoryId}"]`).textContent()).to.include('喜欢在下午喝茉莉花茶')
      expect(await panel.locator('[data-testid="why-model"]').textContent()).to.include('first').and.include('journey-mini')
      expect(await panel.locator('[data-testid="why-tools"]').textContent()).to.include('get_current_time')
      expect(await panel.locator('[data-testid="why-tokens"]').textContent()).to.include('120').and.include('20')
      // the memory really was in the prompt the model received
      expect(JSON.stringify(j.fake.chatRequests().at(-1)!.body.messages)).to.include('喜欢在下午喝茉莉花茶')
      expect(await seriousAxeViolations(page)).to.deep.equal([])
      await shot('4-why')
    })

    it('5. edits a preset through the preset editor: a built-in one copied, its prompt and temperature changed', async () => {
      await goTo(page, 'presets')
      await page.click('[data-testid="preset-copy-default"]')
      await page.waitForSelector('[data-testid="preset-save"]')
      const copy = (await j.s.api('/api/presets/default-copy')).body.data
      expect(copy).to.include({ isBuiltin: false, createdFrom: 'default' })
      await page.fill('[data-testid="pe-name"]', '茶馆助手')
      await page.fill('[data-testid="pe-prompt"]', '你是茶馆里的助手，和{{nickname}}聊茶。')
      await page.waitForFunction(() => document.querySelector('[data-testid="pe-preview"]')?.textContent === '你是茶馆里的助手，和小明聊茶。')
      await page.fill('[data-testid="pe-temperature"]', '0.4')
      await shot('5-preset-editor')
      const [res] = await Promise.all([
        page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/api/presets/default-copy') && r.request().method() === 'PUT'),
        page.click('[data-testid="preset-save"]')
      ])
      expect(res.status(), await res.text()).to.equal(200)
      await page.waitForSelector('[data-testid="preset-editor"]', { state: 'detached' })
      const saved = (await j.s.api('/api/presets/default-copy')).body.data
      expect(saved).to.include({ name: '茶馆助手', systemPrompt: '你是茶馆里的助手，和{{nickname}}聊茶。', temperature: 0.4 })
      await page.waitForSelector('[data-testid="preset-edit-default-copy"]')
    })

    it('6. changes a memory setting through the generated form and reads it back through GET /api/config', async () => {
      await goTo(page, 'config')
      await page.click('[data-testid="section-link-memory"]')
      await page.waitForSelector('[data-testid="section-form-memory"]')
      const was = (await j.s.api('/api/config')).body.data.memory.maxMemoriesInPrompt
      const want = was === 6 ? 7 : 6
      await page.fill('[data-testid="cfg-memory.maxMemoriesInPrompt"]', String(want))
      const [res] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/api/config/memory') && r.request().method() === 'PUT'),
        page.click('[data-testid="section-save-memory"]')
      ])
      expect(res.status(), await res.text()).to.equal(200)
      expect((await j.s.api('/api/config')).body.data.memory).to.include({ maxMemoriesInPrompt: want, enabled: true })
      await page.waitForSelector('[data-testid="section-dirty-memory"]', { state: 'detached' })
      expect(await page.inputValue('[data-testid="cfg-memory.maxMemoriesInPrompt"]')).to.equal(String(want))
      await shot('6-memory-setting')
    })

    it('7. the statistics pages show the recorded turn: its model, channel, user and tool', async () => {
      await goTo(page, 'stats')
      await page.waitForSelector('[data-testid="sx-chart"] .cx-plot > svg')
      const tab = async (name: string, row: string): Promise<void> => {
        await page.click(`[data-testid="sx-tab-${name}"]`)
        await page.waitForSelector(`[data-testid="${row}"]`)
      }
      await tab('models', 'sx-model-journey-mini')
      await tab('channels', 'sx-channel-first')
      await tab('users', `sx-user-${OWNER}`)
      await shot('7-stats-users')
      await tab('tools', 'sx-tool-get_current_time')
      // the same turn through the API: one answer, by the owner, on the channel's default model
      const users = (await j.s.api('/api/stats/users?limit=100')).body.data.users as Array<{ userId: string, messages: number }>
      expect(users.find((u) => u.userId === OWNER)?.messages).to.equal(1)
      const models = (await j.s.api('/api/stats/models')).body.data.models as Array<{ model: string, requests: number }>
      expect(models.map((m) => m.model)).to.deep.equal(['journey-mini'])
      expect((await j.s.api('/api/stats?period=all')).body.data.summary.aiResponses).to.equal(1)
    })

    it('8. back on the overview, the guide shows every step done', async () => {
      await goTo(page, 'overview')
      await page.waitForSelector('[data-testid="fr-done"]')
      for (const step of ['channel', 'test', 'chat']) expect(await page.getAttribute(`[data-testid="fr-step-${step}"]`, 'data-done'), step).to.equal('true')
      expect(await seriousAxeViolations(page)).to.deep.equal([])
      await shot('8-guide-done')
      expect(j.pageErrors).to.deep.equal([])
    })
  })

  describe('at 390x844 in English: the key steps', () => {
    const OWNER = '20260390'
    const ANSWER = 'It is three in the afternoon: a good time for jasmine tea.'
    let j: Journey
    let page: Page
    const shot = (name: string): Promise<Buffer> => page.screenshot({ path: join(SHOTS, `new-owner-${name}.png`), fullPage: true })
    const noOverflow = async (): Promise<void> => {
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 'no horizontal scrolling').to.be.at.most(0)
    }

    before(async function () {
      await prepare(this)
      j = await start(OWNER, { width: 390, height: 844 })
      page = j.page
      await page.click('[data-testid="lang"]')
      await page.waitForFunction(() => document.documentElement.lang === 'en')
    })

    after(() => stop(j))

    it('guide, channel from the fetched list, a streamed answer with a tool and the memory in "why", the guide done', async () => {
      await page.waitForSelector('[data-testid="first-run"]')
      expect(await page.textContent('h1')).to.equal('Overview')
      await noOverflow()
      await shot('390-en-1-guide')
      await goTo(page, 'channels')
      await addChannel(j, 'phone', 'journey-large')
      await noOverflow()
      await shot('390-en-2-channel-form')
      await saveChannel(page)
      expect((await j.s.api('/api/config/channels')).body.data[0]).to.include({ name: 'phone', model: 'journey-large' })

      const mem = await j.s.api(`/api/memories/user/${OWNER}`, { method: 'POST', json: { content: 'likes jasmine tea in the afternoon', category: 'preferences' } })
      expect(mem.status, mem.text).to.be.oneOf([200, 201])
      await goTo(page, 'chat')
      await page.waitForFunction(() => (document.querySelector('[data-testid="chat-model"] option') as HTMLOptionElement | null)?.textContent?.includes('journey-large'))
      await chatWithTool(page, j.fake, 'What should I drink now?', ANSWER)
      await page.click('[data-testid="chat-why-button"]')
      await page.waitForSelector(`[data-testid="why-memory-${mem.body.data.id}"]`)
      expect(await page.textContent(`[data-testid="why-memory-${mem.body.data.id}"]`)).to.include('likes jasmine tea')
      await noOverflow()
      expect(await seriousAxeViolations(page)).to.deep.equal([])
      await shot('390-en-3-chat-why')

      await goTo(page, 'overview')
      await page.waitForSelector('[data-testid="fr-done"]')
      expect(await page.textContent('[data-testid="first-run"]')).to.not.match(/[\u3400-\u9fff]/)
      expect(await seriousAxeViolations(page)).to.deep.equal([])
      await shot('390-en-4-guide-done')
      expect(j.pageErrors).to.deep.equal([])
    })
  })
})
