// End-to-end in chromium: the memory page's review queue and timeline (pages/memory-review.tsx,
// pages/memory-timeline.tsx). The pending memories come through the real path: a chat turn answered by the
// fake model, then an extraction round whose scripted answer holds low-confidence guesses (memory.reviewBelow).
// Confirm by a click (gone from the queue, the history says the master confirmed it), an inline correction
// (the old text in the timeline's history, found by the timeline's search), a bulk delete after a confirmation.
import { expect } from 'chai'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import type { MemoryRecord } from '../../lib/memory/types.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { goTo, launch, openDashboard, prepare, SHOTS } from './browser.js'

describe('dashboard: memory review queue and timeline (chromium e2e)', function () {
  this.timeout(120_000)
  let s: TestServer
  let fake: FakeOpenAI
  let browser: Browser
  let page: Page
  let pageErrors: string[] = []
  const USER = '70001'
  const byText = new Map<string, MemoryRecord>()

  before(async function () {
    await prepare(this)
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    s = await startTestServer()
    await s.lx.rt.config.update({
      channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-test', model: 'gpt-test', models: ['gpt-test'] }],
      memory: { reviewBelow: 0.7 }
    })
    // a chat turn, then one extraction round: three guesses below reviewBelow wait, the stated fact is used
    fake.enqueue({ content: '听起来不错～' })
    const chat = await s.api('/api/chat', { method: 'POST', json: { message: '周末我去宠物店看了看，然后去图书馆复习', userId: USER } })
    expect(chat.status, chat.text).to.equal(200)
    fake.enqueue({ content: JSON.stringify([
      { content: '可能喜欢猫', category: 'preference', confidence: 0.5, kind: 'inferred' },
      { content: '可能是学生', category: 'profile', confidence: 0.4, kind: 'inferred' },
      { content: '可能想养宠物', category: 'preference', confidence: 0.45, kind: 'inferred' },
      { content: '周末去了图书馆', category: 'event', confidence: 0.95, kind: 'stated' }
    ]) })
    await s.lx.rt.need('memoryExtractor').runOnce()
    for (const m of s.lx.rt.need('memory').list({ userId: USER })) byText.set(m.content, m)
    expect([...byText.values()].filter((m) => m.status === 'pending')).to.have.length(3)
    browser = await launch()
    ;({ page, pageErrors } = await openDashboard(browser, s))
  })

  after(async () => {
    await browser?.close()
    await s?.close()
    await fake?.close()
  })

  const id = (content: string): number => byText.get(content)!.id
  const item = (content: string): string => `[data-testid="memory-review-item-${id(content)}"]`
  const history = async (content: string): Promise<any> => (await s.api(`/api/memory/${id(content)}/history`)).body.data

  it('shows each pending memory with "我推测", the chat and time it came from and its confidence; the stated fact is not queued', async () => {
    await goTo(page, 'memory')
    await page.waitForSelector(item('可能喜欢猫'))
    const text = await page.textContent(item('可能喜欢猫')) ?? ''
    expect(text).to.include('我推测：').and.include('可能喜欢猫').and.include('私聊').and.include('置信度 0.50').and.include(`private:${USER}`)
    expect(await page.textContent('[data-testid="memory-review"]')).to.not.include('周末去了图书馆')
    expect(await page.textContent('[data-testid="memory-review-pending"]')).to.equal('3')
  })

  it('confirms a memory by a click: gone from the queue, used, its history says the master confirmed it (API and timeline)', async () => {
    await page.click(`[data-testid="memory-review-confirm-${id('可能喜欢猫')}"]`)
    await page.waitForSelector(item('可能喜欢猫'), { state: 'detached' })
    await page.waitForFunction(() => document.querySelector('[data-testid="memory-review-pending"]')?.textContent === '2')
    const h = await history('可能喜欢猫')
    expect(h.status).to.equal(undefined)
    expect(h.history.at(-1)).to.include({ what: 'confirmed', by: 'master', status: 'pending' })
    await page.click(`[data-testid="memory-user-${USER}"]`)
    const state = `[data-testid="memory-timeline-state-${id('可能喜欢猫')}"]`
    await page.waitForSelector(state)
    expect(await page.textContent(state)).to.equal('使用中')
    await page.click(`[data-testid="memory-history-${id('可能喜欢猫')}"]`)
    const list = `[data-testid="memory-history-list-${id('可能喜欢猫')}"]`
    await page.waitForSelector(list)
    expect(await page.textContent(list)).to.include('可能喜欢猫').and.include('被确认').and.include('主人')
  })

  it('corrects a memory inline: used as written, the old text in its history, found by the timeline\'s search', async () => {
    await page.click(`[data-testid="memory-review-correct-${id('可能是学生')}"]`)
    const input = `[data-testid="memory-review-correct-input-${id('可能是学生')}"]`
    await page.fill(input, '是大三学生')
    await page.click(`[data-testid="memory-review-correct-save-${id('可能是学生')}"]`)
    await page.waitForSelector(item('可能是学生'), { state: 'detached' })
    const h = await history('可能是学生')
    expect(h).to.include({ content: '是大三学生', confidence: 1 })
    expect(h.status).to.equal(undefined)
    expect(h.history.at(-1)).to.include({ what: 'corrected', by: 'master', content: '可能是学生' })
    // the timeline reloaded: searching the old text finds the corrected memory through its history
    await page.fill('[data-testid="memory-timeline-filter"]', '可能是学生')
    const entry = `[data-testid="memory-timeline-item-${id('可能是学生')}"]`
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent?.includes('是大三学生'), entry)
    expect(await page.locator('[data-testid^="memory-timeline-item-"]').count()).to.equal(1)
    await page.click(`[data-testid="memory-history-${id('可能是学生')}"]`)
    await page.waitForSelector(`[data-testid="memory-history-list-${id('可能是学生')}"]`)
    expect(await page.textContent(`[data-testid="memory-history-list-${id('可能是学生')}"]`)).to.include('可能是学生').and.include('被更正')
    await page.fill('[data-testid="memory-timeline-filter"]', '')
  })

  it('bulk: selects the rest and deletes them after a confirmation; the queue is empty', async () => {
    // a fourth guess, from a second round, so that the bulk delete takes two
    fake.enqueue({ content: '好呀' })
    await s.api('/api/chat', { method: 'POST', json: { message: '我最近在学做饭', userId: USER } })
    fake.enqueue({ content: JSON.stringify([{ content: '可能一个人住', category: 'profile', confidence: 0.3, kind: 'inferred' }]) })
    await s.lx.rt.need('memoryExtractor').runOnce()
    for (const m of s.lx.rt.need('memory').list({ userId: USER })) byText.set(m.content, m)
    await page.click('[data-testid="memory-review"] header button') // refresh
    await page.waitForSelector(item('可能一个人住'))
    await page.check('[data-testid="memory-review-select-all"]')
    expect(await page.textContent('[data-testid="memory-review-selected"]')).to.equal('已选 2 条')
    await page.click('[data-testid="memory-review-bulk-delete"]')
    await page.waitForSelector('[data-testid="confirm-dialog"][open]')
    expect(await page.textContent('[data-testid="confirm-text"]')).to.include('2')
    await page.click('[data-testid="confirm-ok"]')
    await page.waitForSelector('[data-testid="memory-review-empty"]')
    for (const c of ['可能想养宠物', '可能一个人住']) expect((await s.api(`/api/memory/${id(c)}`)).status, c).to.equal(404)
    expect((await s.api(`/api/memory/${id('周末去了图书馆')}`)).status).to.equal(200)
    expect(await page.textContent('[data-testid="memory-review-pending"]')).to.equal('0')
    // the page's other parts follow: the statistics count the three left
    await page.waitForFunction(() => document.querySelector('[data-testid="memory-stats-total"]')?.textContent === '3')
    await page.screenshot({ path: join(SHOTS, 'memory-review.png'), fullPage: true })
    expect(pageErrors).to.deep.equal([])
  })
})
