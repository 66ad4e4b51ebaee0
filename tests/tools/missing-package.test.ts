// Tools are offered only where their packages are installed (lib/core/packages.ts, lib/tools/README.md):
// while the loader reports chrono-node missing, the reminder tools are not offered in a QQ chat (and a
// model naming set_reminder gets "not available"); while linkedom is missing, fetch_url is not. When the
// report no longer names them they are offered again. Checked on the tools the fake model receives in a
// group chat through the standalone host; the loader's report is simulated (tests/support/missing-package.ts).
import { expect } from 'chai'
import type { Runtime } from '../../lib/runtime.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { pretendMissing } from '../support/missing-package.js'
import { startPluginHost, type PluginHost } from '../support/plugin-host.js'

const REMINDER_TOOLS = ['set_reminder', 'list_reminders', 'cancel_reminder']

describe('tools: not offered while a package they need is missing', function () {
  this.timeout(60_000)
  let fake: FakeOpenAI
  let p: PluginHost
  let rt: Runtime
  let restore: (() => void) | undefined
  let n = 0
  const group = '7200'
  const user = (): string => String(69000 + ++n)

  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    p = await startPluginHost('miao', 'lingxi-missing-package-')
    rt = p.run.rt
    await rt.config.update({
      channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk', model: 'gpt-test', models: ['gpt-test'] }],
      memory: { enabled: false }
    })
  })
  afterEach(() => { restore?.(); restore = undefined; fake.reset() })
  after(async () => {
    restore?.()
    await p?.stop()
    await fake?.close()
  })

  /** The tool names the model was offered for one group turn (the message names reminders and a page, so the selection keeps those tools). */
  const offered = async (): Promise<string[]> => {
    fake.reset()
    const res = await p.host.sendGroup(group, user(), '5分钟后提醒我喝水，再读一下 https://example.com 这个网页', { at: true })
    expect(res.stage).to.equal('handled')
    return fake.offeredTools()
  }

  it('the reminder tools: offered, not while chrono-node is missing, offered again once it is not', async () => {
    expect(await offered()).to.include.members(REMINDER_TOOLS)
    restore = pretendMissing('chrono-node')
    const without = await offered()
    for (const name of REMINDER_TOOLS) expect(without, `${name} without chrono-node`).to.not.include(name)
    expect(without, 'the other tools stay').to.include.members(['get_current_time', 'fetch_url'])
    restore()
    restore = undefined
    expect(await offered()).to.include.members(REMINDER_TOOLS)
  })

  it('a model naming set_reminder while chrono-node is missing gets "not available" and nothing is set', async () => {
    restore = pretendMissing('chrono-node')
    const who = user()
    fake.reset()
    fake.enqueue({ toolCalls: [{ name: 'set_reminder', arguments: { when: '5分钟后', message: '喝水' } }] }, { content: '设不了' })
    const res = await p.host.sendGroup(group, who, '5分钟后提醒我喝水', { at: true })
    expect(res.stage).to.equal('handled')
    const tool = (fake.chatRequests()[1]?.body.messages as Array<{ role: string; content: string }>).find((m) => m.role === 'tool')
    expect(tool?.content).to.match(/not available in this chat/)
    expect(rt.need('reminders').list({ userId: who })).to.deep.equal([])
  })

  it('fetch_url: not offered while linkedom is missing, offered again once it is not; the reminders stay', async () => {
    restore = pretendMissing('linkedom')
    const without = await offered()
    expect(without).to.not.include('fetch_url')
    expect(without).to.include.members(REMINDER_TOOLS)
    restore()
    restore = undefined
    expect(await offered()).to.include('fetch_url')
  })

  it('a package no feature of the tools needs (semver) changes nothing', async () => {
    const before = await offered()
    restore = pretendMissing('semver')
    expect(await offered()).to.deep.equal(before)
  })
})
