// End-to-end, on a 390x844 phone screen in Debian's chromium: the chat settings page (issue 18) edits a global
// delivery setting and a group's overrides, and each change is read back through the HTTP API; a value
// the served schema refuses is stopped in the browser and a server validation error is shown once beside the form; the channel form's vision switch. Screenshots: screenshots/.
import { expect } from 'chai'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { startTestServer, type TestServer } from '../support/server.js'
import { goTo, launch, openDashboard, prepare, SHOTS } from './browser.js'

const GROUP = '20250001'

describe('dashboard: chat settings (chromium e2e, phone screen)', function () {
  this.timeout(120_000)
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

  /** Clicks a save button and waits for the PUT it sends. */
  const saveAndWait = async (button: string, url: RegExp): Promise<number> => {
    const [res] = await Promise.all([page.waitForResponse((r) => url.test(r.url()) && r.request().method() === 'PUT'), page.click(button)])
    return res.status()
  }
  /** Saves a global card: its PUT, then the page's reload of the configuration, from which the card's
   * form is rebuilt (typing into the form before that could land in the form about to be replaced). */
  const saveGlobal = async (button: string): Promise<number> => {
    const reloaded = page.waitForResponse((r) => /\/api\/config$/.test(r.url()) && r.request().method() === 'GET')
    reloaded.catch(() => undefined) // no reload follows a refused save
    const status = await saveAndWait(button, /\/api\/config$/)
    if (status === 200) await (await reloaded).finished()
    // the answer read, the page renders the rebuilt form in the next frames
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
    return status
  }
  const delivery = '[data-testid="cs-delivery"]'
  const group = '[data-testid="gs-form"]'

  it('opens from the menu, in zh-CN, with a label and a help text for every setting and no raw keys', async () => {
    await goTo(page, 'chatSettings')
    await page.waitForSelector(`${delivery} select[name="delivery.longAnswer"]`)
    expect(await page.textContent('nav a[data-page="chatSettings"]')).to.equal('聊天设置')
    expect(await page.textContent('[data-testid="card-delivery"] h2')).to.equal('回复方式')
    const text = await page.textContent('main') ?? ''
    expect(text).to.include('长回答的发送方式')
    expect(text).to.not.match(/\bb[sv]\.|\bv_\w/)
    // the enum is a select of translated values
    const options = await page.$$eval(`${delivery} select[name="delivery.longAnswer"] option`, (os) => os.map((o) => [(o as HTMLOptionElement).value, o.textContent]))
    expect(options).to.deep.equal([['forward', '合并转发'], ['image', '渲染成图片'], ['off', '直接发送']])
    // every control has an accessible name (a label or aria-label) and every field a help text
    const unnamed = await page.$$eval('main input, main select, main textarea', (els) => els.filter((e) => {
      const el = e as HTMLInputElement
      return !(el.labels?.length && el.labels[0]!.textContent?.trim()) && !el.getAttribute('aria-label')
    }).map((e) => (e as HTMLInputElement).name || e.outerHTML.slice(0, 80)))
    expect(unnamed).to.deep.equal([])
    const helpless = await page.$$eval('main .field', (fs) => fs.filter((f) => !f.querySelector('small.help')?.textContent?.trim()).map((f) => f.textContent))
    expect(helpless).to.deep.equal([])
    // fits the phone: nothing scrolls sideways
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(390)
  })

  it('takes each control from the configuration schema: an enum\'s values, a number\'s range, a switch, a masked secret', async () => {
    type Node = { enum?: string[]; minimum?: number; maximum?: number; properties?: Record<string, Node> }
    const schema = (await s.api('/api/config/schema')).body.data as Node
    const at = (path: string): Node => path.split('.').reduce<Node>((n, k) => n.properties?.[k] as Node, schema)
    const values = await page.$$eval(`${delivery} select[name="delivery.markdown"] option`, (os) => os.map((o) => (o as HTMLOptionElement).value))
    expect(values).to.deep.equal(at('delivery.markdown').enum)
    const { minimum, maximum } = at('delivery.longAnswerChars')
    expect(minimum, 'the schema gives the field a range').to.be.a('number')
    const help = await page.textContent(`${delivery} #cs-delivery-delivery-longAnswerChars-help`)
    expect(help).to.include(`范围 ${String(minimum)} – ${String(maximum)}`)
    expect(await page.getAttribute(`${delivery} input[name="delivery.quote"]`, 'type')).to.equal('checkbox')
    expect(await page.getAttribute('input[name="input.transcription.apiKey"]', 'type')).to.equal('password')
  })

  it('edits global delivery settings and reads them back through the API', async () => {
    await page.selectOption(`${delivery} select[name="delivery.longAnswer"]`, 'image')
    await page.fill(`${delivery} input[name="delivery.longAnswerChars"]`, '800')
    await page.fill(`${delivery} input[name="delivery.sentenceDelayMs"]`, '1200')
    await page.uncheck(`${delivery} input[name="delivery.quote"]`)
    expect(await saveGlobal(`[data-testid="cs-delivery-save"]`)).to.equal(200)
    const d = (await s.api('/api/config/delivery')).body.data
    expect(d).to.include({ longAnswer: 'image', longAnswerChars: 800, sentenceDelayMs: 1200, quote: false, markdown: 'plain' })
    // the form shows what was saved once the page has reloaded the configuration
    await page.waitForFunction(() => (document.querySelector('[data-testid="cs-delivery"] input[name="delivery.sentenceDelayMs"]') as HTMLInputElement | null)?.value === '1200')
  })

  it('an emptied number goes back to its default instead of saving 0', async () => {
    await page.fill(`${delivery} input[name="delivery.sentenceDelayMs"]`, '')
    expect(await saveGlobal(`[data-testid="cs-delivery-save"]`)).to.equal(200)
    expect((await s.api('/api/config/delivery')).body.data.sentenceDelayMs).to.equal(800)
    await page.waitForFunction(() => (document.querySelector('[data-testid="cs-delivery"] input[name="delivery.sentenceDelayMs"]') as HTMLInputElement | null)?.value === '800')
  })

  it('checks a value with the schema\'s rules before sending it, and shows a server error once, beside the form, naming the field', async () => {
    // the browser's check (the served schema's range): nothing is sent
    let sent = 0
    const count = (r: { url: () => string, method: () => string }): void => { if (/\/api\/config$/.test(r.url()) && r.method() === 'PUT') sent++ }
    page.on('request', count)
    await page.fill(`${delivery} input[name="delivery.longAnswerChars"]`, '5')
    await page.click('[data-testid="cs-delivery-save"]')
    const box = '[data-testid="cs-delivery-errors"]'
    await page.waitForSelector(box)
    expect(await page.locator(box).count()).to.equal(1)
    const msg = await page.textContent(box) ?? ''
    expect(msg).to.equal('长回答字数：不能小于 50')
    expect(await page.getAttribute(`${delivery} input[name="delivery.longAnswerChars"]`, 'aria-invalid')).to.equal('true')
    expect(await page.locator('.toast.err').count()).to.equal(0) // not repeated in a toast
    // a value that is not a number never leaves the page either
    await page.fill(`${delivery} input[name="delivery.longAnswerChars"]`, 'abc')
    await page.click('[data-testid="cs-delivery-save"]')
    await page.waitForFunction(() => document.querySelector('[data-testid="cs-delivery-errors"]')?.textContent?.includes('请输入数字'))
    page.off('request', count)
    expect(sent).to.equal(0)
    expect((await s.api('/api/config/delivery')).body.data.longAnswerChars).to.equal(800)
    await page.fill(`${delivery} input[name="delivery.longAnswerChars"]`, '800')
    await page.screenshot({ path: join(SHOTS, 'chat-settings-error-phone.png') })
    // a rule only the server knows (a timezone Intl knows): its answer, at the field, once
    await page.fill('[data-testid="cs-reminders"] input[name="reminders.timezone"]', 'Mars/Olympus')
    expect(await saveGlobal('[data-testid="cs-reminders-save"]')).to.equal(400)
    const rbox = '[data-testid="cs-reminders-errors"]'
    await page.waitForSelector(rbox)
    const rmsg = await page.textContent(rbox) ?? ''
    expect(await page.locator(rbox).count()).to.equal(1)
    expect(rmsg).to.match(/^时区：不是有效的时区名/)
    expect(await page.getAttribute('[data-testid="cs-reminders"] input[name="reminders.timezone"]', 'aria-invalid')).to.equal('true')
  })

  it('sets a group\'s overrides, each field inheriting until set, and reads them back through the API', async () => {
    await page.fill('[data-testid="gs-id"]', GROUP)
    await page.click('[data-testid="gs-open"]')
    await page.waitForSelector(`${group} select[name="delivery.longAnswer"]`)
    // unset fields say what they inherit: the global values just saved
    expect(await page.$eval(`${group} select[name="delivery.longAnswer"]`, (el) => (el as HTMLSelectElement).selectedOptions[0]?.textContent)).to.equal('继承全局：渲染成图片')
    expect(await page.getAttribute(`${group} input[name="delivery.longAnswerChars"]`, 'placeholder')).to.equal('继承全局：800')
    expect(await page.isDisabled(`${group} input[name="trigger.keywords"]`)).to.equal(true)

    await page.selectOption(`${group} select[name="delivery.longAnswer"]`, 'off')
    await page.selectOption(`${group} select[name="delivery.quote"]`, 'true')
    await page.selectOption(`${group} select[name="conversation"]`, 'group')
    await page.fill(`${group} input[name="proactive.dailyCap"]`, '2')
    await page.check(`${group} input[name="trigger.keywords:set"]`)
    await page.fill(`${group} input[name="trigger.keywords"]`, '早安，晚安')
    await page.fill(`${group} input[name="events.poke"]`, '1')
    await page.fill(`${group} input[name="burstWindowMs"]`, '') // left empty: stays inherited, not 0
    expect(await saveAndWait('[data-testid="gs-form-save"]', new RegExp(`/api/config/groups/${GROUP}$`))).to.equal(200)

    const v = (await s.api(`/api/config/groups/${GROUP}`)).body.data
    expect(v.overrides.delivery).to.deep.equal({ longAnswer: 'off', quote: true })
    expect(v.overrides.conversation).to.equal('group')
    expect(v.overrides.proactive).to.deep.equal({ dailyCap: 2 })
    expect(v.overrides.trigger.keywords).to.deep.equal(['早安', '晚安'])
    expect(v.overrides.events).to.deep.equal({ poke: 1 })
    expect(v.overrides).to.not.have.any.keys('burstWindowMs', 'contextMessages')
    expect(v.effective.delivery).to.include({ longAnswer: 'off', quote: true, longAnswerChars: 800 })
    expect(v.effective.burstWindowMs).to.equal(0)
    await page.waitForSelector('[data-testid="gs-state"] >> text=这个群有单独设置')
    await page.locator('[data-testid="group-settings"]').scrollIntoViewIfNeeded()
    await page.evaluate(() => document.querySelector('[data-testid="group-settings"]')?.scrollIntoView())
    await page.screenshot({ path: join(SHOTS, 'chat-settings-group-phone.png') })
  })

  it('QQ group actions: the global card and a group\'s own, read back through the API', async () => {
    const qq = '[data-testid="cs-qqActions"]'
    await page.selectOption(`${qq} select[name="qqActions.approvalRisk"]`, 'medium')
    await page.fill(`${qq} input[name="qqActions.allowedUsers"]`, '123456, 234567')
    expect(await saveGlobal('[data-testid="cs-qqActions-save"]')).to.equal(200)
    expect((await s.api('/api/config/qqActions')).body.data).to.include({ approvalRisk: 'medium', adminsMayAsk: true })
    expect((await s.api('/api/config/qqActions')).body.data.allowedUsers).to.deep.equal(['123456', '234567'])
    // per group: only who may ask (the cap and the approval tier are not offered there)
    await page.waitForSelector(`${group} select[name="qqActions.adminsMayAsk"]`)
    expect(await page.$$(`${group} [name="qqActions.approvalRisk"]`)).to.have.length(0)
    await page.selectOption(`${group} select[name="qqActions.adminsMayAsk"]`, 'false')
    expect(await saveAndWait('[data-testid="gs-form-save"]', new RegExp(`/api/config/groups/${GROUP}$`))).to.equal(200)
    expect((await s.api(`/api/config/groups/${GROUP}`)).body.data.overrides.qqActions).to.deep.equal({ adminsMayAsk: false })
  })

  it('account risk guard: switched on globally, a group\'s own limit, read back through the API', async () => {
    const g = '[data-testid="cs-guard"]'
    await page.check(`${g} input[name="guard.enabled"]`)
    await page.fill(`${g} input[name="guard.slowDownMs"]`, '5000')
    expect(await saveGlobal('[data-testid="cs-guard-save"]')).to.equal(200)
    expect((await s.api('/api/config/guard')).body.data).to.include({ enabled: true, slowDownMs: 5000, maxPerMinute: 20 })
    await page.waitForSelector(`${group} input[name="guard.maxPerMinute"]`)
    await page.fill(`${group} input[name="guard.maxPerMinute"]`, '8')
    expect(await saveAndWait('[data-testid="gs-form-save"]', new RegExp(`/api/config/groups/${GROUP}$`))).to.equal(200)
    const v = (await s.api(`/api/config/groups/${GROUP}`)).body.data
    expect(v.overrides.guard).to.deep.equal({ maxPerMinute: 8 })
    expect(v.effective.guard).to.include({ enabled: true, maxPerMinute: 8, slowDownMs: 5000 })
    await s.api('/api/config', { method: 'PUT', json: { guard: { enabled: false } } })
  })

  it('the tool cap and the reminders\' limits (global only), read back through the API', async () => {
    await page.fill('[data-testid="cs-tools"] input[name="tools.maxToolsPerRequest"]', '32')
    expect(await saveGlobal('[data-testid="cs-tools-save"]')).to.equal(200)
    await page.fill('[data-testid="cs-reminders"] input[name="reminders.maxPerUser"]', '5')
    await page.fill('[data-testid="cs-reminders"] input[name="reminders.timezone"]', 'Asia/Shanghai')
    expect(await saveGlobal('[data-testid="cs-reminders-save"]')).to.equal(200)
    expect((await s.api('/api/config/tools')).body.data.maxToolsPerRequest).to.equal(32)
    expect((await s.api('/api/config/reminders')).body.data).to.include({ maxPerUser: 5, timezone: 'Asia/Shanghai', maxPerGroup: 50 })
    expect(await page.$$(`${group} [name="reminders.maxPerUser"]`), 'not per group').to.have.length(0)
  })

  it('puts a group setting back to inherit and the global value applies again', async () => {
    await page.selectOption(`${group} select[name="delivery.longAnswer"]`, '')
    await page.fill(`${group} input[name="proactive.dailyCap"]`, '')
    expect(await saveAndWait('[data-testid="gs-form-save"]', new RegExp(`/api/config/groups/${GROUP}$`))).to.equal(200)
    const v = (await s.api(`/api/config/groups/${GROUP}`)).body.data
    expect(v.overrides.delivery).to.deep.equal({ quote: true })
    expect(v.overrides.proactive ?? {}).to.deep.equal({})
    expect(v.effective.delivery.longAnswer).to.equal('image')
    expect(v.effective.proactive.dailyCap).to.equal(12)
  })

  it('reads in English too', async () => {
    await page.click('[data-testid="lang"]')
    expect(await page.textContent('[data-testid="card-delivery"] h2')).to.equal('How answers go out')
    const text = await page.textContent('main') ?? ''
    expect(text).to.include('Long answers')
    expect(text).to.include('Inherit: rendered image') // the group editor's inherited value, in English too
    expect(text).to.not.match(/\bb[sv]\.|\bv_\w/)
    await page.click('[data-testid="lang"]')
    expect(await page.textContent('[data-testid="card-delivery"] h2')).to.equal('回复方式')
    await page.evaluate(() => window.scrollTo(0, 0))
    await page.screenshot({ path: join(SHOTS, 'chat-settings-phone.png') })
    await page.screenshot({ path: join(SHOTS, 'chat-settings-phone-full.png'), fullPage: true })
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.screenshot({ path: join(SHOTS, 'chat-settings-desktop.png') })
    await page.setViewportSize({ width: 390, height: 844 })
  })

  it('the channel form switches off "the model can read images"', async () => {
    expect((await s.api('/api/config/channels', { method: 'POST', json: { name: 'textonly', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-textonly-0001', model: 'gpt-4o' } })).status).to.equal(200)
    await goTo(page, 'channels')
    await page.click('[data-testid="edit-textonly"]')
    const box = '[data-testid="channel-form"] input[name=vision]'
    expect(await page.isChecked(box)).to.equal(true)
    expect(await page.textContent('[data-testid="channel-form"]')).to.include('模型能看图')
    await page.uncheck(box)
    expect(await saveAndWait('[data-testid="channel-save"]', /\/api\/config\/channels\/textonly$/)).to.equal(200)
    expect((await s.api('/api/config/channels/textonly')).body.data.vision).to.equal(false)
    expect(pageErrors).to.deep.equal([])
  })
})
