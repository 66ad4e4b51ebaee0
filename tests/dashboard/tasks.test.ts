// End-to-end in Debian's chromium, the real plugin in the standalone host (a run's answer is delivered to a
// group there) and the fake model: the tasks page makes a task through its form (a bad schedule first: the
// server's message at the field), lists it with its next time and in the week's runs, runs it now (a spinner,
// then the fake model's answer with tokens and cost in its history, and in the group), pauses and resumes it,
// edits it, fits a 390x844 phone (axe-core clean in light and dark, the form and the history open), and deletes it after a confirmation. Screenshots: screenshots/tasks-*.png.
import { expect } from 'chai'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { formatWall } from '../../lib/reminders/zoned.js'
import type { Runtime } from '../../lib/runtime.js'
import type { Task } from '../../lib/tasks/types.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { seriousAxeViolations as axeProblems } from './axe.js'
import { goTo, launch, newDashboardPage, prepare, SHOTS } from './browser.js'

const GROUP = '7300'
const ANSWER = '今日摘要：\n一、灯塔每十秒转一圈。\n二、潮水八点涨。\n三、风从东边来。'

describe('dashboard: scheduled tasks (chromium e2e, standalone host, fake model)', function () {
  this.timeout(120_000)
  let fake: FakeOpenAI
  let p: PluginHost
  let rt: Runtime
  let browser: Browser
  let page: Page
  let pageErrors: string[] = []
  let task: Task

  /** A page of `browser` logged in as the master through a login link. */
  const open = async (phone = false): Promise<{ page: Page, pageErrors: string[] }> => {
    const opened = await newDashboardPage(browser, { phone, bypassCSP: true }) // axe is injected inline
    const { token } = rt.loginTokens.issue({ userId: '10001', isMaster: true })
    await opened.page.goto(`${p.run.localUrl}/login#token=${token}`)
    await opened.page.waitForURL('**/overview')
    return opened
  }
  const row = (sel: string): string => `[data-testid="${sel}-${task.id}"]`

  before(async function () {
    await prepare(this)
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    p = await startPluginHost('miao', 'lingxi-tasks-page-')
    rt = p.run.rt
    await rt.config.update({
      channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-tasks-page', model: 'gpt-test', models: ['gpt-test'] }],
      pricing: { ...rt.config.get().pricing, currency: 'CNY', models: [{ model: 'gpt-test', input: 2.5, output: 10 }] },
      reminders: { ...rt.config.get().reminders, timezone: 'Asia/Shanghai' }
    })
    browser = await launch()
    ;({ page, pageErrors } = await open())
  })

  after(async () => {
    await browser?.close()
    await p?.stop()
    await fake?.close()
  })

  it('opens from the menu (next to reminders) with an empty list that says what to do', async () => {
    await goTo(page, 'tasks')
    expect(await page.textContent('nav a[data-page="tasks"]')).to.equal('定时任务')
    const menu = await page.$$eval('nav a[data-page]', (as) => as.map((a) => (a as HTMLElement).dataset.page))
    expect(menu.indexOf('tasks')).to.equal(menu.indexOf('reminders') + 1)
    await page.waitForSelector('[data-testid="tk-list"] [data-testid="empty-state"]')
    await page.waitForSelector('[data-testid="tk-no-upcoming"]')
    expect(await page.textContent('[data-testid="tk-spent"]')).to.include('CNY')
  })

  it('a schedule the server cannot read: its message at the schedule field, nothing made', async () => {
    await page.click('[data-testid="tk-new"]')
    await page.waitForSelector('[data-testid="tk-form"]')
    // the choices come from the bot: channels, their models, tools
    await page.waitForFunction(() => [...(document.querySelector<HTMLSelectElement>('[data-testid="tk-channel"]')?.options ?? [])].some((o) => o.value === 'fake'))
    await page.fill('[data-testid="tk-name"]', '晨间摘要')
    await page.fill('[data-testid="tk-prompt"]', '搜索灯塔的新闻，写三行摘要。')
    await page.fill('[data-testid="tk-schedule"]', '等我有空的时候')
    await page.fill('[data-testid="tk-chat"]', GROUP)
    const [res] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/tasks') && r.request().method() === 'POST'),
      page.click('[data-testid="tk-save"]')
    ])
    expect(res.status()).to.equal(400)
    const message = ((await res.json()) as { message: string }).message
    expect(message).to.match(/\S/)
    await page.waitForSelector('[data-testid="tk-schedule-error"]')
    expect(await page.textContent('[data-testid="tk-schedule-error"]')).to.equal(message)
    expect(await page.getAttribute('#tk-schedule', 'aria-invalid')).to.equal('true')
    expect(await page.getAttribute('#tk-schedule', 'aria-describedby')).to.include('tk-schedule-err')
    expect(await page.evaluate(() => document.activeElement?.id)).to.equal('tk-schedule')
    expect(await page.locator('[data-testid="tk-form-error"]').count(), 'not a form-level error').to.equal(0)
    expect(await axeProblems(page), 'the form with its error').to.deep.equal([])
    await page.screenshot({ path: join(SHOTS, 'tasks-form.png'), fullPage: true })
    expect(rt.need('tasks').list()).to.deep.equal([])
  })

  it('creates a task through the form: listed with its next time, schedule in words and in the week\'s runs', async () => {
    await page.fill('[data-testid="tk-schedule"]', '每天早上8点')
    await page.selectOption('[data-testid="tk-channel"]', 'fake')
    await page.selectOption('[data-testid="tk-model"]', 'gpt-test')
    await page.selectOption('[data-testid="tk-missed"]', 'late')
    await page.fill('[data-testid="tk-budget"]', '5')
    await page.check('[data-testid="tk-keep"]')
    const tool = (await page.getAttribute('[data-testid="tk-tools"] input[type="checkbox"] >> nth=0', 'data-testid'))?.replace(/^tk-tool-/, '')
    expect(tool, 'the tools API offers a tool').to.be.a('string')
    await page.check(`[data-testid="tk-tool-${tool}"]`)
    const [res] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/tasks') && r.request().method() === 'POST'),
      page.click('[data-testid="tk-save"]')
    ])
    expect(res.status()).to.equal(201)
    await page.waitForSelector('[data-testid="tk-form"]', { state: 'detached' })
    const list = rt.need('tasks').list()
    expect(list).to.have.length(1)
    task = list[0] as Task
    expect(task).to.deep.include({ name: '晨间摘要', prompt: '搜索灯塔的新闻，写三行摘要。', scheduleText: '每天早上8点', channel: 'fake', model: 'gpt-test', missed: 'late', monthlyBudget: 5, keepHistory: true, tools: [tool] })
    expect(task.target).to.deep.equal({ groupId: GROUP })
    const next = formatWall('Asia/Shanghai', task.nextAt as number)
    expect(next.slice(11)).to.equal('08:00')
    await page.waitForSelector(row('tk-next'))
    expect(await page.textContent(row('tk-next'))).to.equal(next)
    expect(await page.textContent(row('tk-name'))).to.equal('晨间摘要')
    expect(await page.textContent(row('tk-state'))).to.equal('启用')
    expect(await page.textContent(row('tk-row'))).to.include(`群 ${GROUP}`)
    expect(await page.textContent(row('tk-words'))).to.match(/\S/)
    // the week's runs, by day: seven mornings, the first under today or tomorrow
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="tk-upcoming-run"]').length === 7)
    const days = await page.$$eval('.tk-day h3', (hs) => hs.map((h) => h.textContent))
    expect(days[0]).to.be.oneOf(['今天', '明天'])
    expect(await page.textContent('[data-testid="tk-upcoming-run"] >> nth=0')).to.equal('08:00 晨间摘要')
  })

  it('runs it now: a spinner while it runs, then the fake model\'s answer with tokens and cost in its history, and in the group', async () => {
    fake.enqueue({ content: ANSWER, delayMs: 1500, usage: { prompt_tokens: 1200, completion_tokens: 300, prompt_tokens_details: { cached_tokens: 200 } } })
    const since = p.host.transcript.length
    await page.click(row('tk-runnow'))
    await page.waitForSelector(`${row('tk-runnow')}[aria-busy="true"]`)
    await page.waitForSelector('[data-testid="tk-runs"] .tk-fresh', { timeout: 15_000 })
    const [run] = rt.need('tasks').runsOf(task.id)
    expect(run?.status).to.equal('ok')
    expect(run?.trigger).to.equal('manual')
    const item = `[data-testid="tk-r-${run!.id}"]`
    expect(await page.textContent(`${item} [data-testid="tk-r-answer-${run!.id}"]`)).to.equal(ANSWER)
    // the line breaks are kept
    expect(await page.$eval(`[data-testid="tk-r-answer-${run!.id}"]`, (e) => (e as HTMLElement).innerText.split('\n').length)).to.equal(4)
    expect(await page.textContent(`[data-testid="tk-r-tokens-${run!.id}"]`)).to.equal(`输入 ${run!.tokens.input} · 输出 ${run!.tokens.output} · 缓存 ${run!.tokens.cached}`)
    expect(run!.tokens).to.deep.equal({ input: 1200, output: 300, cached: 200 })
    expect(run!.cost).to.be.a('number').and.above(0)
    expect(await page.textContent(`[data-testid="tk-r-cost-${run!.id}"]`)).to.include('CNY')
    expect(await page.textContent(item)).to.include('手动')
    expect(await page.getAttribute(row('tk-runnow'), 'aria-busy')).to.equal(null)
    const sent = p.host.transcript.slice(since).filter((e) => e.target === 'group' && e.targetId === GROUP)
    expect(sent.map((e) => e.text).join('\n')).to.include('灯塔每十秒转一圈')
    // the list shows the last run and its cost
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent?.includes('CNY'), row('tk-last'))
    expect(await page.textContent(row('tk-last'))).to.include('成功')
    await page.screenshot({ path: join(SHOTS, 'tasks-desktop.png'), fullPage: true })
    expect(await axeProblems(page), 'the history open').to.deep.equal([])
    await page.emulateMedia({ colorScheme: 'dark' })
    expect(await axeProblems(page), 'the history open, dark').to.deep.equal([])
    await page.emulateMedia({ colorScheme: 'light' })
  })

  it('pauses (state says by hand, no next time) and resumes', async () => {
    await Promise.all([page.waitForResponse((r) => r.url().endsWith(`/api/tasks/${task.id}/pause`) && r.status() === 200), page.click(row('tk-pause'))])
    await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('data-state') === 'manual', row('tk-state'))
    expect(await page.textContent(row('tk-state'))).to.equal('已暂停（手动）')
    expect(await page.textContent(row('tk-next'))).to.equal('无')
    expect(rt.need('tasks').get(task.id)?.paused).to.equal('manual')
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="tk-upcoming-run"]').length === 0)
    await Promise.all([page.waitForResponse((r) => r.url().endsWith(`/api/tasks/${task.id}/resume`) && r.status() === 200), page.click(row('tk-resume'))])
    await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('data-state') === 'active', row('tk-state'))
    expect(rt.need('tasks').get(task.id)?.paused).to.equal(undefined)
    expect(await page.textContent(row('tk-next'))).to.match(/^\d{4}-\d\d-\d\d 08:00$/)
  })

  it('edits it: the form holds its values, the new name is saved', async () => {
    await page.click(row('tk-edit'))
    await page.waitForSelector('[data-testid="tk-form"]')
    expect(await page.inputValue('[data-testid="tk-schedule"]')).to.equal('每天早上8点')
    expect(await page.inputValue('[data-testid="tk-channel"]')).to.equal('fake')
    expect(await page.inputValue('[data-testid="tk-budget"]')).to.equal('5')
    await page.fill('[data-testid="tk-name"]', '灯塔晨报')
    await Promise.all([page.waitForResponse((r) => r.url().endsWith(`/api/tasks/${task.id}`) && r.request().method() === 'PUT' && r.status() === 200), page.click('[data-testid="tk-save"]')])
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent === '灯塔晨报', row('tk-name'))
    expect(rt.need('tasks').get(task.id)?.name).to.equal('灯塔晨报')
  })

  it('fits a 390x844 phone in dark mode: no sideways scrolling, the history readable, axe clean', async () => {
    const phone = await open(true)
    await goTo(phone.page, 'tasks')
    await phone.page.waitForSelector(row('tk-row'))
    await phone.page.click(row('tk-history'))
    await phone.page.waitForSelector('[data-testid="tk-runs"] .tk-run')
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(390)
    await phone.page.emulateMedia({ colorScheme: 'dark' })
    await phone.page.screenshot({ path: join(SHOTS, 'tasks-phone.png'), fullPage: true })
    expect(await axeProblems(phone.page), 'phone, dark, the history open').to.deep.equal([])
    expect(phone.pageErrors).to.deep.equal([])
    await phone.page.close()
  })

  it('deletes it after a confirmation that names it: gone from the page and from the service', async () => {
    await page.click(row('tk-delete'))
    await page.waitForSelector('[data-testid="confirm-dialog"][open]')
    expect(await page.textContent('[data-testid="confirm-text"]')).to.include('灯塔晨报')
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/api/tasks/${task.id}`) && r.request().method() === 'DELETE' && r.status() === 200),
      page.click('[data-testid="confirm-ok"]')
    ])
    await page.waitForSelector(row('tk-row'), { state: 'detached' })
    await page.waitForSelector('[data-testid="tk-runs"]', { state: 'detached' })
    expect(rt.need('tasks').list()).to.deep.equal([])
    expect(pageErrors).to.deep.equal([])
  })
})
