// End-to-end: the built dashboard in Debian's chromium (playwright-core), logged in through a login link.
// Every page gets a real action whose effect is read back through the HTTP API. Screenshots: screenshots/.
import { expect } from 'chai'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { defaultBehavior, startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { EVERYTHING } from '../mcp/helpers.js'
import { goTo, launch, newDashboardPage, prepare, SHOTS } from './browser.js'



/** Runs `action` and waits for a toast shown after it (toasts of earlier steps stay a few seconds). */
async function newToast (page: Page, action: () => Promise<unknown>, text?: RegExp): Promise<string> {
  const last = await page.evaluate(() => Math.max(0, ...[...document.querySelectorAll<HTMLElement>('.toast')].map((t) => Number(t.dataset.toast))))
  await action()
  const handle = await page.waitForFunction(([n, src]) => [...document.querySelectorAll<HTMLElement>('.toast')]
    .find((t) => Number(t.dataset.toast) > (n as number) && (src === null || new RegExp(src as string).test(t.textContent ?? '')))?.textContent ?? false,
  [last, text ? text.source : null] as const)
  return String(await handle.jsonValue())
}

describe('dashboard (chromium e2e)', function () {
  this.timeout(120_000)
  let s: TestServer
  let fake: FakeOpenAI
  let browser: Browser
  let page: Page
  let pageErrors: string[] = []

  before(async function () {
    await prepare(this)
    fake = await startFakeOpenAI({ models: ['gpt-4o', 'gpt-4o-mini', 'deepseek-chat'] })
    s = await startTestServer()
    browser = await launch()
    ;({ page, pageErrors } = await newDashboardPage(browser, { viewport: { width: 1280, height: 900 } })) // logged in by the first test
  })

  after(async () => {
    await browser?.close()
    await s?.close()
    await fake?.close()
  })

  const shot = (name: string): Promise<Buffer> => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true })
  /** Confirms the delete dialog (resources/src/ui.tsx confirmDanger) after checking that it names `what`. */
  const confirmNamed = async (what: string): Promise<void> => {
    await page.waitForSelector('[data-testid="confirm-dialog"][open]')
    expect(await page.textContent('[data-testid="confirm-text"]')).to.include(what)
    await page.click('[data-testid="confirm-ok"]')
  }
  /** The session token the page holds, for API read-backs as the same session. */
  const pageToken = (): Promise<string | null> => page.evaluate(() => localStorage.getItem('lingxi.token'))

  it('logs in through a link with #token= and keeps the session', async () => {
    const { token } = s.lx.rt.loginTokens.issue({ userId: '10001', isMaster: true })
    await page.goto(`${s.base}/login#token=${token}`)
    await page.waitForURL('**/overview')
    expect(page.url()).to.not.include('token=')
    const session = await pageToken()
    expect(session).to.be.a('string')
    const v = await s.api('/api/auth/verify', { headers: { Authorization: `Bearer ${session}` } })
    expect(v.body.data).to.include({ valid: true, userId: '10001' })
    // the same token is single use: a second visit shows the server's error message
    const p2 = await browser.newPage()
    await p2.goto(`${s.base}/login#token=${token}`)
    await p2.waitForSelector('.error')
    expect((await p2.textContent('.error'))?.length).to.be.greaterThan(0)
    await p2.close()
  })

  it('overview shows status, health and the live event stream', async () => {
    await page.waitForSelector('[data-testid="status"]')
    await page.waitForSelector('[data-testid="sse-state"].ok')
    expect(await page.textContent('[data-testid="status"]')).to.match(/\d+ 分钟/) // zh-CN by default
    await page.waitForSelector('[data-testid="metric"]')
    expect(await page.textContent('[data-testid="metric"]')).to.match(/常驻内存\d+ MB/) // figures in words, not raw JSON
    await shot('overview')
  })

  it('switches language zh-CN <-> en', async () => {
    expect(await page.textContent('nav a[data-page="channels"]')).to.equal('渠道')
    await page.click('[data-testid="lang"]')
    expect(await page.textContent('nav a[data-page="channels"]')).to.equal('Channels')
    await page.click('[data-testid="lang"]')
    expect(await page.textContent('nav a[data-page="channels"]')).to.equal('渠道')
  })

  it('channels: adds a channel with a masked key and batch-tests it to 100%', async () => {
    await goTo(page, 'channels')
    await page.click('[data-testid="channel-add"]')
    const form = '[data-testid="channel-form"]'
    await page.fill(`${form} input[name=name]`, 'e2e')
    await page.selectOption(`${form} select[name=type]`, 'openai-compatible')
    await page.fill(`${form} input[name=baseUrl]`, fake.url)
    await page.fill(`${form} input[name=apiKey]`, 'sk-e2e-secret-1234')
    await page.fill(`${form} input[name=model]`, 'gpt-4o')
    await page.fill(`${form} input[name=models]`, 'gpt-4o, gpt-4o-mini, deepseek-chat')
    await page.click('[data-testid="channel-save"]')
    await page.waitForSelector('td >> text=e2e')
    const list = await s.api('/api/config/channels')
    const ch = list.body.data.find((c: { name: string }) => c.name === 'e2e')
    expect(ch).to.include({ baseUrl: fake.url, model: 'gpt-4o', type: 'openai-compatible' })
    expect(ch.models).to.deep.equal(['gpt-4o', 'gpt-4o-mini', 'deepseek-chat'])
    expect(ch.apiKey).to.not.equal('sk-e2e-secret-1234')
    expect(await page.content()).to.not.include('sk-e2e-secret-1234')

    await page.click('[data-testid="batch-e2e"]')
    await page.click('[data-testid="batch-start"]')
    await page.waitForSelector('[data-testid="batch-progress"][data-pct="100"]')
    await page.waitForFunction(() => document.querySelectorAll('.card table tbody tr').length >= 4)
    const chats = fake.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => (r.body as { model: string }).model)
    expect(chats).to.include.members(['gpt-4o', 'gpt-4o-mini', 'deepseek-chat'])
    await shot('channels')
  })

  it('channels: edits a channel (a second key, the default model), tests it and lists its models', async () => {
    await page.click('[data-testid="edit-e2e"]')
    const form = '[data-testid="channel-form"]'
    expect(await page.inputValue(`${form} input[name=apiKey]`)).to.equal('sk-****1234') // masked, never the key
    await page.fill(`${form} input[name=model]`, 'gpt-4o-mini')
    await page.click('[data-testid="channel-key-add"]')
    await page.fill(`${form} input[name=key-name-0]`, 'backup')
    await page.fill(`${form} input[name=key-value-0]`, 'sk-e2e-backup-5678')
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/config/channels/e2e') && r.request().method() === 'PUT'), page.click('[data-testid="channel-save"]')])
    const ch = (await s.api('/api/config/channels/e2e')).body.data
    expect(ch.model).to.equal('gpt-4o-mini')
    expect(ch.apiKey).to.equal('sk-****1234')
    expect(ch.apiKeys.map((k: { name: string; key: string }) => [k.name, k.key])).to.deep.equal([['backup', 'sk-****5678']])
    const yaml = readFileSync(join(s.dataDir, 'config.yaml'), 'utf8')
    expect(yaml).to.include('sk-e2e-secret-1234').and.include('sk-e2e-backup-5678') // the masked value sent back kept the stored key
    expect(await page.content()).to.not.include('sk-e2e-backup-5678')

    const before = fake.requests.length
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/config/channels/e2e/test')), page.click('[data-testid="test-e2e"]')])
    await page.waitForSelector('.toast >> text=/gpt-4o-mini · \\d+ ms/')
    expect(fake.requests.slice(before).some((r) => r.path.endsWith('/chat/completions'))).to.equal(true)
    await page.click('[data-testid="models-e2e"]')
    await page.waitForSelector('[data-testid="channel-models"] >> text=deepseek-chat')
  })

  it('channels: takes the provider model list, batch-tests it and keeps only the working models', async () => {
    expect((await s.api('/api/config/channels', { method: 'POST', json: { name: 'pick', baseUrl: fake.url, apiKey: 'sk-pick-0001', model: 'gpt-4o' } })).status).to.equal(200)
    await page.click('[data-testid="channels-refresh"]') // added through the API: reload the list
    await page.click('[data-testid="models-pick"]')
    await page.waitForSelector('[data-testid="channel-models"] >> text=deepseek-chat')
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/config/channels/pick') && r.request().method() === 'PUT'), page.click('[data-testid="models-use"]')])
    const models = async (): Promise<string[]> => (await s.api('/api/config/channels/pick')).body.data.models
    expect(await models()).to.deep.equal(['deepseek-chat', 'gpt-4o', 'gpt-4o-mini'])
    fake.respond = (body) => body?.model === 'deepseek-chat' ? { status: 500 } : defaultBehavior(body)
    try {
      await page.click('[data-testid="batch-pick"]')
      await page.click('[data-testid="batch-start"]')
      await page.waitForSelector('[data-testid="batch-progress"][data-pct="100"]')
      await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/config/channels/pick') && r.request().method() === 'PUT'), page.click('[data-testid="batch-keep"]')])
      expect(await models()).to.deep.equal(['gpt-4o', 'gpt-4o-mini'])
    } finally {
      fake.respond = defaultBehavior
      await s.api('/api/config/channels/pick', { method: 'DELETE' })
    }
  })

  it('channels: a server validation error is shown with its message', async () => {
    await page.click('[data-testid="channel-add"]')
    await page.fill('[data-testid="channel-form"] input[name=name]', 'bad')
    await page.fill('[data-testid="channel-form"] input[name=baseUrl]', 'not a url')
    await page.click('[data-testid="channel-save"]')
    await page.waitForSelector('[data-testid="channel-form"] ~ .error, .card .error')
    expect(await page.textContent('.card .error')).to.match(/url/i)
    expect((await s.api('/api/config/channels')).body.data.map((c: { name: string }) => c.name)).to.not.include('bad')
  })

  it('configuration: edits context.maxMessages and exports YAML', async () => {
    await goTo(page, 'config')
    await page.click('[data-testid="section-link-context"]')
    const input = '[data-testid="cfg-context.maxMessages"]'
    await page.waitForSelector(input)
    const before = (await s.api('/api/config')).body.data.context.maxMessages as number
    const next = before + 7
    await page.fill(input, String(next))
    await newToast(page, () => page.click('[data-testid="section-save-context"]'))
    expect((await s.api('/api/config')).body.data.context.maxMessages).to.equal(next)
    await page.click('[data-testid="yaml-export"]')
    await page.waitForFunction(() => (document.querySelector('[data-testid="yaml-text"]') as HTMLTextAreaElement).value.includes('commandPrefix'))
    await shot('config')
  })

  it('configuration: trigger modes are chosen from their allowed values, with translated labels', async () => {
    await page.click('[data-testid="section-link-trigger"]')
    const select = '[data-testid="cfg-trigger.group"]'
    await page.waitForSelector(select)
    const options = await page.$$eval(`${select} option`, (os) => os.map((o) => (o as HTMLOptionElement).value))
    expect(options).to.deep.equal(['at', 'prefix', 'both', 'off'])
    expect(await page.textContent('[data-testid="section-trigger"]')).to.include('群聊').and.include('@机器人或前缀')
    await page.selectOption(select, 'prefix')
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/config/trigger') && r.request().method() === 'PUT'), page.click('[data-testid="section-save-trigger"]')])
    expect((await s.api('/api/config/trigger')).body.data.group).to.equal('prefix')
    await s.api('/api/config/trigger', { method: 'PUT', json: { group: 'at' } })
  })

  it('configuration: per-group settings and a YAML import', async () => {
    await page.click('[data-testid="section-link-groups"]')
    await page.fill('[data-testid="group-id"]', '777000')
    await page.click('[data-testid="group-open"]')
    await page.waitForSelector('[data-testid="group-form"] input[name=enabled]')
    await page.uncheck('[data-testid="group-form"] input[name=enabled]')
    // the group's trigger is a form of the schema's groups.<id>.trigger, its mode a select of the allowed values
    await page.selectOption('[data-testid="group-form"] select[name="trigger.type"]', 'prefix')
    await newToast(page, () => page.click('[data-testid="group-form-save"]'))
    const g = (await s.api('/api/config/groups/777000')).body.data
    expect(g).to.include({ enabled: false })
    expect(g.trigger).to.deep.include({ type: 'prefix' })
    // YAML: export, change one value in the text, import, read back
    await page.click('[data-testid="yaml-export"]')
    await page.waitForFunction(() => (document.querySelector('[data-testid="yaml-text"]') as HTMLTextAreaElement).value.includes('maxMessages'))
    const text = await page.inputValue('[data-testid="yaml-text"]')
    const changed = text.replace(/(\n\s+maxMessages:\s*)\d+/, '$1' + '33')
    expect(changed).to.not.equal(text)
    await page.fill('[data-testid="yaml-text"]', changed)
    await newToast(page, () => page.click('[data-testid="yaml-import"]'), /已导入/)
    expect((await s.api('/api/config')).body.data.context.maxMessages).to.equal(33)
    // a broken YAML text shows the server's message and changes nothing
    await page.fill('[data-testid="yaml-text"]', 'context: [unclosed')
    await page.click('[data-testid="yaml-import"]')
    await page.waitForSelector('.card .error')
    expect((await s.api('/api/config')).body.data.context.maxMessages).to.equal(33)
  })

  it('tools & skills: toggles a category', async function () {
    await goTo(page, 'tools')
    const cats = (await s.api('/api/skills/categories')).body.data as Array<{ key: string, enabled: boolean }>
    expect(cats, 'tool categories').to.be.an('array').that.is.not.empty
    const c = cats[0]!
    // The checkbox flips at once; wait for the server's answer before reading the API.
    await Promise.all([page.waitForResponse((r) => r.url().includes('/toggle')), page.click(`[data-testid="cat-${c.key}"]`)])
    await page.waitForFunction(([sel, want]) => (document.querySelector(sel as string) as HTMLInputElement)?.checked === want, [`[data-testid="cat-${c.key}"]`, !c.enabled] as const)
    const after = (await s.api('/api/skills/categories')).body.data.find((x: { key: string }) => x.key === c.key)
    expect(after.enabled).to.equal(!c.enabled)
    await shot('tools')
    // and back, so the next test sees the category as it was
    await Promise.all([page.waitForResponse((r) => r.url().includes('/toggle')), page.click(`[data-testid="cat-${c.key}"]`)])
    await page.waitForFunction(([sel, want]) => (document.querySelector(sel as string) as HTMLInputElement)?.checked === want, [`[data-testid="cat-${c.key}"]`, c.enabled] as const)
    expect((await s.api('/api/skills/categories')).body.data.find((x: { key: string }) => x.key === c.key).enabled).to.equal(c.enabled)
  })

  it('tools & skills: toggles a tool and runs a tool test with live output', async () => {
    const tool = 'get_current_time'
    const box = `[data-testid="tool-${tool}"]`
    await page.waitForSelector(box)
    const before = await page.isChecked(box)
    // the box flips at the click, the toggle request answers a moment later: wait for that answer
    const toggled = page.waitForResponse((r) => r.url().includes(`/api/skills/tools/${tool}/toggle`))
    await page.click(box)
    await toggled
    await page.waitForFunction(([sel, want]) => (document.querySelector(sel as string) as HTMLInputElement)?.checked === want, [box, !before] as const)
    const listed = (await s.api('/api/tools/list')).body.data.find((x: { name: string }) => x.name === tool)
    expect(listed.enabled).to.equal(!before)
    if (!before === false) await page.click(box) // enable it again for the test run
    await page.waitForFunction((sel) => (document.querySelector(sel) as HTMLInputElement)?.checked === true, box)
    await page.click('[data-testid="tab-test"]')
    await page.fill('[data-testid="test-tool"]', tool)
    await page.fill('[data-testid="test-args"]', '{"timezone":"UTC"}')
    await page.click('[data-testid="test-run"]')
    await page.waitForSelector('[data-testid="test-output"]')
    await page.waitForFunction(() => /result/.test(document.querySelector('[data-testid="test-output"]')?.textContent ?? ''))
    expect(await page.textContent('[data-testid="test-output"]')).to.match(/20\d\d/)
    await page.click('[data-testid="tab-skills"]')
    await page.waitForSelector('td >> text=translator')
    await shot('tools-test')
  })

  it('tools & skills: loads a skill document and unloads it again', async () => {
    const loaded = async (): Promise<string[]> => (await s.api('/api/skills/loaded')).body.data.loaded
    expect(await loaded()).to.not.include('translator')
    await page.click('[data-testid="skill-load-translator"]')
    await page.waitForSelector('[data-testid="skill-unload-translator"]')
    expect(await loaded()).to.include('translator')
    await page.click('[data-testid="skill-unload-translator"]')
    await page.waitForSelector('[data-testid="skill-load-translator"]')
    expect(await loaded()).to.not.include('translator')
  })

  it('tools & skills: writes a script tool from the template and runs it', async () => {
    await page.click('[data-testid="tab-scripts"]')
    await page.click('[data-testid="script-new"]')
    await page.fill('[data-testid="script-name"]', 'e2e_script')
    const source = await page.inputValue('[data-testid="script-source"]')
    await page.fill('[data-testid="script-source"]', source.replace("'hello '", "'e2e hello '"))
    // Risk defaults to high; a new script is saved off (not offered to chat) until the master enables it.
    expect(await page.inputValue('[data-testid="script-risk"]')).to.equal('high')
    expect(await page.isChecked('[data-testid="script-enabled"]')).to.equal(false)
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/tools/js') && r.request().method() === 'POST'), page.click('[data-testid="script-save"]')])
    expect((await s.api('/api/tools/list')).body.data.map((t: { name: string }) => t.name)).to.include('e2e_script')
    expect(s.lx.rt.need('tools').registry.isEnabled('e2e_script'), 'saved off').to.equal(false)
    await page.check('[data-testid="script-enabled"]')
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/tools/js/e2e_script') && r.request().method() === 'PUT'), page.click('[data-testid="script-save"]')])
    expect((await s.api('/api/tools/js/e2e_script')).body.data).to.include({ enabled: true, risk: 'high' })
    expect(s.lx.rt.need('tools').registry.isEnabled('e2e_script'), 'enabled by the master').to.equal(true)
    await page.click('[data-testid="tab-test"]')
    await page.fill('[data-testid="test-tool"]', 'e2e_script')
    await page.fill('[data-testid="test-args"]', '{"who":"lingxi"}')
    await page.click('[data-testid="test-run"]')
    await page.waitForFunction(() => /e2e hello lingxi/.test(document.querySelector('[data-testid="test-output"]')?.textContent ?? ''))
  })

  it('presets: creates a preset from the editor form; an invalid id is reported at its field', async function () {
    await goTo(page, 'presets')
    await page.click('[data-testid="preset-add"]')
    await page.fill('[data-testid="pe-id"]', 'e2e-preset')
    await page.fill('[data-testid="pe-name"]', 'E2E preset')
    await page.fill('[data-testid="pe-prompt"]', 'You are terse.')
    await page.fill('[data-testid="pe-temperature"]', '0.5')
    await page.click('[data-testid="preset-save"]')
    await page.waitForSelector('td >> text=e2e-preset')
    const got = await s.api('/api/presets/e2e-preset')
    expect(got.status).to.equal(200)
    expect(got.body.data).to.include({ name: 'E2E preset', systemPrompt: 'You are terse.', temperature: 0.5 })
    // an id the server would refuse is reported in the editor, nothing is sent
    await page.click('[data-testid="preset-add"]')
    await page.fill('[data-testid="pe-id"]', 'x y')
    await page.fill('[data-testid="pe-name"]', 'Bad id')
    await page.click('[data-testid="preset-save"]')
    await page.waitForSelector('[data-testid="pe-id-error"]')
    await shot('presets')
  })

  it('presets: copies, sets the default, exports and imports a preset', async () => {
    await page.click('[data-testid="preset-close"]') // close the editor left open by the previous test
    // a copy gets a free id of its own and opens in the editor
    await page.click('[data-testid="preset-copy-e2e-preset"]')
    await page.waitForSelector('td >> text=e2e-preset-copy')
    await page.waitForSelector('[data-testid="preset-editor"]')
    expect((await s.api('/api/presets/e2e-preset-copy')).body.data).to.include({ systemPrompt: 'You are terse.' })
    await Promise.all([page.waitForResponse((r) => r.url().includes('/set-default')), page.click('[data-testid="preset-default-e2e-preset-copy"]')])
    expect((await s.api('/api/presets/e2e-preset-copy')).body.data.isDefault).to.equal(true)
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="preset-export-e2e-preset"]')])
    const yaml = readFileSync(await download.path(), 'utf8')
    expect(yaml).to.include('e2e-preset').and.include('You are terse.')
    const file = join(mkdtempSync(join(tmpdir(), 'lingxi-e2e-')), 'imported.yaml')
    writeFileSync(file, yaml.replace(/e2e-preset/g, 'e2e-imported'))
    await page.setInputFiles('[data-testid="preset-file"]', file)
    await page.click('[data-testid="preset-import"]')
    await page.waitForSelector('td >> text=e2e-imported')
    expect((await s.api('/api/presets/e2e-imported')).body.data).to.include({ systemPrompt: 'You are terse.' })
  })

  it('MCP servers: lists servers and shows the server error for an invalid add', async () => {
    await goTo(page, 'mcp')
    await page.waitForSelector('[data-testid="mcp-form"]')
    // a reload stays on the page (at /mcp it reached the MCP endpoint and showed its JSON-RPC error)
    await page.reload()
    await page.waitForSelector('[data-testid="mcp-form"]')
    await page.click('[data-testid="mcp-save"]') // no name
    await page.waitForSelector('.card .error')
    expect(await page.textContent('.card .error')).to.match(/name/i)
    await shot('mcp')
  })

  it('MCP servers: adds a stdio server, lists its tools, reconnects it and imports a desktop config', async function () {
    this.timeout(60_000)
    const status = async (name: string): Promise<string | undefined> =>
      (await s.api('/api/mcp/servers')).body.data.find((x: { name: string }) => x.name === name)?.status
    const connected = async (name: string): Promise<void> => {
      for (let i = 0; i < 300 && await status(name) !== 'connected'; i++) await new Promise((r) => setTimeout(r, 100))
      expect(await status(name), name).to.equal('connected')
    }
    await page.fill('[data-testid="mcp-form"] input[name=name]', 'everything')
    await page.selectOption('[data-testid="mcp-form"] select[name=type]', 'stdio')
    await page.fill('[data-testid="mcp-form"] input[name=command]', process.execPath)
    await page.fill('[data-testid="mcp-form"] input[name=args]', `${EVERYTHING} stdio`)
    await page.click('[data-testid="mcp-save"]')
    await connected('everything')
    await page.click('[data-testid="mcp-refresh"]')
    await page.waitForSelector('[data-testid="mcp-status-everything"][data-status="connected"]')
    expect(await page.textContent('[data-testid="mcp-status-everything"]')).to.equal('已连接')
    await page.click('[data-testid="mcp-tools-everything"]')
    await page.waitForSelector('[data-testid="mcp-tool-list"] >> text=echo')
    // Untrusted by default (its tools are dangerous); the labelled toggle trusts it at once.
    expect(await page.isChecked('[data-testid="mcp-trust-everything"]')).to.equal(false)
    expect(s.lx.rt.need('tools').registry.get('mcp:everything:echo')?.dangerous).to.equal(true)
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/mcp/servers/everything') && r.request().method() === 'PUT'), page.click('[data-testid="mcp-trust-everything"]')])
    expect((await s.api('/api/mcp/servers/everything')).body.data.trusted).to.equal(true)
    expect(s.lx.rt.need('tools').registry.get('mcp:everything:echo')?.dangerous).to.equal(false)
    await page.waitForSelector('[data-testid="mcp-trust-everything"]:checked')
    await Promise.all([page.waitForResponse((r) => r.url().includes('/reconnect')), page.click('[data-testid="mcp-reconnect-everything"]')])
    await connected('everything')
    const desktop = { mcpServers: { 'desk-import': { command: process.execPath, args: [EVERYTHING, 'stdio'] } } }
    await page.fill('[data-testid="mcp-import-text"]', JSON.stringify(desktop))
    await page.click('[data-testid="mcp-import"]')
    await page.waitForSelector('td >> text=desk-import')
    expect(await page.textContent('[data-testid="mcp-import-result"]')).to.include('成功 1')
    await connected('desk-import')
    await shot('mcp')
    for (const name of ['everything', 'desk-import']) expect((await s.api(`/api/mcp/servers/${name}`, { method: 'DELETE' })).status).to.equal(200)
  })

  it('logs: live tail with a level filter', async () => {
    s.lx.rt.log.warn('e2e-warning-line')
    await goTo(page, 'logs')
    await page.waitForSelector('[data-testid="log-lines"] >> text=e2e-warning-line')
    await page.selectOption('[data-testid="log-level"]', 'error')
    await page.waitForFunction(() => !document.querySelector('[data-testid="log-lines"]')?.textContent?.includes('e2e-warning-line'))
    await shot('logs')
  })

  it('knowledge: adds a document and finds it with a highlight', async function () {
    await goTo(page, 'knowledge')
    await page.click('[data-testid="kb-add"]')
    await page.fill('[data-testid="kb-title"]', 'Lighthouse manual')
    await page.fill('[data-testid="kb-content"]', 'The lighthouse lamp is cleaned every Tuesday with zirconium cloth.')
    await page.click('[data-testid="kb-save"]')
    await page.waitForSelector('td >> text=Lighthouse manual')
    expect((await s.api('/api/knowledge')).text).to.include('Lighthouse manual')
    await page.fill('[data-testid="kb-query"]', 'zirconium')
    await page.click('[data-testid="kb-search"]')
    await page.waitForSelector('[data-testid="kb-hits"] mark')
    await shot('knowledge')
    // edit: new content, bound to the default preset
    await page.click('[data-testid="kb-edit-Lighthouse manual"]')
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="kb-preset"] option')].some((o) => (o as HTMLOptionElement).value === 'default'))
    await page.fill('[data-testid="kb-content"]', 'The lighthouse lamp is polished on Fridays.')
    await page.selectOption('[data-testid="kb-preset"]', 'default')
    await Promise.all([page.waitForResponse((r) => r.url().includes('/api/knowledge/') && r.request().method() === 'PUT'), page.click('[data-testid="kb-save"]')])
    const doc = (await s.api('/api/knowledge')).body.data.find((d: { title: string }) => d.title === 'Lighthouse manual')
    expect(doc).to.include({ content: 'The lighthouse lamp is polished on Fridays.', presetId: 'default' })
  })

  it('memory: adds a memory for a user', async function () {
    await goTo(page, 'memory')
    await page.fill('[data-testid="memory-user"]', '20002')
    await page.fill('[data-testid="memory-content"]', 'likes green tea')
    await page.click('[data-testid="memory-add"]')
    await page.waitForSelector('td >> text=likes green tea')
    expect((await s.api('/api/memory/user/20002?format=list')).text).to.include('likes green tea')
    await shot('memory')
  })

  it('memory: searches, edits a memory, cleans up and summarizes with the model', async () => {
    const rt = s.lx.rt
    const kept = await rt.need('memory').add({ userId: '20003', content: '周末喜欢去西湖骑车', category: 'preference' })
    await rt.need('memory').add({ userId: '20003', content: 'maybe likes opera', confidence: 0.1 })
    await page.reload()
    await page.fill('[data-testid="memory-query"]', '西湖')
    await page.click('[data-testid="memory-search"]')
    await page.waitForSelector('[data-testid="memory-hits"] >> text=周末喜欢去西湖骑车')
    await page.click('button >> text=20003')
    await page.click(`[data-testid="memory-edit-${kept.id}"]`)
    await page.fill('[data-testid="memory-edit-input"]', '周末喜欢去西湖骑自行车')
    await page.click('[data-testid="memory-edit-save"]')
    await page.waitForSelector('td >> text=周末喜欢去西湖骑自行车')
    expect(rt.need('memory').get(kept.id)?.content).to.equal('周末喜欢去西湖骑自行车')
    await page.click('[data-testid="memory-cleanup"]')
    await page.waitForFunction(() => !document.body.textContent?.includes('maybe likes opera'))
    expect(rt.need('memory').list({ userId: '20003' }).map((m) => m.content)).to.deep.equal(['周末喜欢去西湖骑自行车'])
    fake.enqueue({ content: '[preference] 周末喜欢在西湖骑自行车\n[topic] 骑行' })
    await page.click('[data-testid="memory-summarize"]')
    await page.waitForSelector('td >> text=周末喜欢在西湖骑自行车')
    expect(rt.need('memory').list({ userId: '20003' }).map((m) => m.content).sort()).to.deep.equal(['周末喜欢在西湖骑自行车', '骑行'])
  })

  it('conversations: opens the messages of a conversation and deletes it', async () => {
    const store = s.lx.rt.need('conversations').store
    await store.append({ id: 'private:20004', userId: '20004' }, [{ role: 'user', content: 'e2e question', timestamp: Date.now() }, { role: 'assistant', content: 'e2e answer', timestamp: Date.now() }])
    await goTo(page, 'conversations')
    await page.click('[data-testid="conv-private:20004"]')
    await page.waitForSelector('[data-testid="conv-messages"] >> text=e2e answer')
    await page.click('[data-testid="conv-delete-private:20004"]')
    await confirmNamed('private:20004')
    await page.waitForFunction(() => !document.querySelector('[data-testid="conv-private:20004"]'))
    expect((await s.api('/api/conversations/list')).body.data.map((c: { id: string }) => c.id)).to.not.include('private:20004')
    expect(store.get('private:20004')).to.equal(undefined)
    await shot('conversations')
  })

  it('conversations: asks for pages of 50 and moves to the next page', async () => {
    const store = s.lx.rt.need('conversations').store
    const ids = Array.from({ length: 57 }, (_, i) => `private:pg${i}`)
    for (const [i, id] of ids.entries()) await store.append({ id, userId: id.slice(8) }, [{ role: 'user', content: `page ${i}`, timestamp: Date.now() }])
    const asked: string[] = []
    const seen = (r: { url(): string }): void => { if (r.url().includes('/api/conversations/list')) asked.push(r.url()) }
    page.on('request', seen)
    await goTo(page, 'overview')
    await goTo(page, 'conversations')
    await page.waitForSelector('[data-testid="conv-private:pg56"]')
    expect(await page.textContent('[data-testid="conv-pager-total"]')).to.match(/1-50\D+57/)
    expect(await page.locator('[data-testid^="conv-delete-"]').count()).to.equal(50)
    await page.click('[data-testid="conv-pager-next"]')
    await page.waitForSelector('[data-testid="conv-private:pg0"]')
    expect(await page.textContent('[data-testid="conv-pager-total"]')).to.match(/51-57\D+57/)
    expect(await page.locator('[data-testid^="conv-delete-"]').count()).to.equal(7)
    page.off('request', seen)
    expect(asked.some((u) => /limit=50&offset=0/.test(u)) && asked.some((u) => /limit=50&offset=50/.test(u)), asked.join(' ')).to.equal(true)
    expect(asked.every((u) => /limit=50/.test(u)), asked.join(' ')).to.equal(true)
    for (const id of ids) await store.delete(id)
  })

  it('game: adds a character preset', async function () {
    await goTo(page, 'game')
    await page.fill('[data-testid="game-name"]', 'E2E Heroine')
    await page.click('[data-testid="game-add"]') // without a system prompt: the server's message shows
    await page.waitForSelector('.toast.err')
    expect(await page.textContent('.toast.err')).to.match(/systemPrompt/)
    await page.fill('[data-testid="game-prompt"]', 'You are the heroine of a school story.')
    await page.click('[data-testid="game-add"]')
    await page.waitForSelector('td >> text=E2E Heroine')
    expect((await s.api('/api/game/presets')).text).to.include('E2E Heroine')
    await shot('game')
  })

  it('drawing: edits the drawing config', async function () {
    await goTo(page, 'drawing')
    const input = '[data-testid="image-config"] input[name=maxImages]'
    await page.waitForSelector(input)
    const before = (await s.api('/api/image/config')).body.data.maxImages as number
    await page.fill(input, String(before + 1))
    await newToast(page, () => page.click('[data-testid="image-config-save"]'))
    expect((await s.api('/api/image/config')).body.data.maxImages).to.equal(before + 1)
    // a custom drawing preset: added, listed, deleted
    const custom = async (): Promise<Array<{ uid: string; keywords: string[]; prompt: string }>> => (await s.api('/api/image/presets')).body.data.custom
    await page.fill('[data-testid="draw-keywords"]', 'e2e水彩, e2e-watercolor')
    await page.fill('[data-testid="draw-prompt"]', 'soft watercolor, {prompt}')
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/presets/custom')), page.click('[data-testid="draw-add"]')])
    expect((await custom()).find((p) => p.keywords.includes('e2e水彩'))).to.deep.include({ keywords: ['e2e水彩', 'e2e-watercolor'], prompt: 'soft watercolor, {prompt}' })
    await page.waitForSelector('td >> text=soft watercolor, {prompt}')
    await shot('drawing')
    await page.click('[data-testid="draw-delete-e2e水彩"]')
    await Promise.all([page.waitForResponse((r) => r.url().includes('/presets/custom/')), confirmNamed('e2e水彩')])
    expect((await custom()).some((p) => p.keywords.includes('e2e水彩'))).to.equal(false)
    // an image API entry from the form: stored with its key masked on read, then deleted
    const form = '[data-testid="image-api-form"]'
    await page.fill(`${form} input[name=name]`, 'e2e images')
    await page.fill(`${form} input[name=baseUrl]`, fake.url)
    await page.fill(`${form} input[name=apiKey]`, 'sk-e2e-image-9012')
    await page.fill(`${form} input[name=models]`, 'gpt-image-1')
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/image/apis') && r.request().method() === 'POST'), page.click('[data-testid="image-api-add"]')])
    const apis = (await s.api('/api/image/apis')).body.data as Array<{ name: string; baseUrl: string; apiKey: string; models: string[]; enabled: boolean }>
    expect(apis).to.have.length(1)
    expect(apis[0]).to.deep.include({ name: 'e2e images', baseUrl: fake.url, models: ['gpt-image-1'], enabled: true })
    expect(apis[0]?.apiKey).to.not.include('e2e-image')
    await page.waitForSelector('td >> text=gpt-image-1')
    expect(await page.content()).to.not.include('sk-e2e-image-9012')
    await page.click('[data-testid="image-api-delete-0"]')
    await Promise.all([page.waitForResponse((r) => r.url().includes('/api/image/apis/')), confirmNamed('e2e images')])
    expect((await s.api('/api/image/apis')).body.data).to.deep.equal([])
  })

  it('every other page renders without a script error', async () => {
    for (const name of ['conversations', 'drawing', 'game', 'memory', 'knowledge', 'overview']) {
      await goTo(page, name)
      await page.waitForSelector('main .card')
      await page.waitForFunction(() => !document.querySelector('main .loading'))
      await shot(name)
    }
    expect(pageErrors).to.deep.equal([])
  })

  it('works on a phone-sized screen', async () => {
    await page.setViewportSize({ width: 390, height: 800 })
    await goTo(page, 'channels') // through the menu button
    await page.waitForSelector('td >> text=e2e')
    // rows are cards: nothing wider than the screen, the row's actions reachable without scrolling sideways
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(390)
    const box = await page.locator('td button', { hasText: '批量测试' }).first().boundingBox()
    expect(box, 'batch test button').to.not.equal(null)
    expect(box!.x + box!.width).to.be.at.most(390)
    await shot('phone-channels')
    await page.setViewportSize({ width: 1280, height: 900 })
  })

  it('refreshes the session token before it expires', async () => {
    const old = await pageToken()
    // Pretend the session ends in 6 s: the page schedules the refresh 5 s ahead of time at the latest.
    await page.evaluate(() => localStorage.setItem('lingxi.expiresAt', String(Date.now() + 6000)))
    await page.reload()
    await page.waitForFunction((t) => localStorage.getItem('lingxi.token') !== t, old, { timeout: 15_000 })
    const fresh = await pageToken()
    expect((await s.api('/api/auth/verify', { headers: { Authorization: `Bearer ${fresh}` } })).status).to.equal(200)
    expect((await s.api('/api/auth/verify', { headers: { Authorization: `Bearer ${old}` } })).status).to.equal(401)
  })

  it('logout revokes the session and returns to login', async () => {
    const token = await pageToken()
    await page.click('[data-testid="logout"]')
    await page.waitForURL('**/login')
    await page.waitForSelector('[data-testid="login-hint"]')
    const v = await s.api('/api/auth/verify', { headers: { Authorization: `Bearer ${token}` } })
    expect(v.status).to.equal(401)
    await page.goto(`${s.base}/channels`)
    await page.waitForURL('**/login')
  })
})
