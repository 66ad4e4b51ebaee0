// With `language: en` every bot command answers in English: each command of apps/ is driven through
// the standalone host with the real plugin, and no reply holds CJK characters once the user data in it
// (preset and character names, drawing keywords, nicknames) is taken out. The zh-CN default is
// covered by the other bot tests (they look for the Chinese texts).
import { expect } from 'chai'
import type { ToolResult } from '../../lib/chat/contracts.js'
import { BUILTIN_IMAGE_PRESETS } from '../../lib/drawing/builtin.js'
import { t, TEXT_KEYS } from '../../lib/i18n.js'
import type { Running } from '../../lib/lifecycle.js'
import type { Host } from '../../standalone/host.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { MASTER, startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { fakeSource, fakeTool } from '../tools/helpers.js'

// Han ideographs, CJK punctuation, full-width forms and the Japanese kana
const CJK = /[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]/u
const USER = '20001'
const GROUP = '30001'

describe('i18n: every bot reply in English with language en', function () {
  this.timeout(60_000)
  let ph: PluginHost
  let host: Host
  let run: Running
  let fake: FakeOpenAI

  /** Strings of user data that may appear in a reply (the built-in presets and characters are Chinese). */
  const userData = (): string[] => [
    ...run.rt.need('presets').list().flatMap((p) => [p.name, p.description ?? '']),
    ...run.rt.need('game').list().flatMap((c) => [c.name, c.description ?? '']),
    ...BUILTIN_IMAGE_PRESETS.flatMap((p) => p.keywords)
  ].filter(Boolean).sort((a, b) => b.length - a.length)

  /** Sends, then returns the texts the bot sent for it (at least one). */
  async function replies (send: () => Promise<unknown>): Promise<string[]> {
    const since = host.transcript.length
    await send()
    const out = host.transcript.slice(since).map((e) => e.text).filter((x) => x !== '')
    expect(out, 'the bot answered').to.not.have.length(0)
    return out
  }

  function expectEnglish (texts: string[]): void {
    const data = userData()
    for (const text of texts) {
      let rest = text
      for (const d of data) rest = rest.split(d).join('')
      expect(rest, `CJK in the reply: ${text}`).to.not.match(CJK)
    }
  }

  const priv = (text: string, user = USER): Promise<string[]> => replies(() => host.sendPrivate(user, text))
  const group = (text: string, user = USER, opts: { at?: boolean; role?: 'owner' | 'admin' | 'member' } = {}): Promise<string[]> =>
    replies(() => host.sendGroup(GROUP, user, text, opts))

  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    ph = await startPluginHost('trss', 'lingxi-i18n-')
    host = ph.host
    run = ph.run
    await run.rt.config.update({ language: 'en', trigger: { private: 'always', group: 'at', prefix: 'lx', randomRate: 0 } })
  })
  after(async () => {
    await ph?.stop()
    await fake?.close()
  })

  it('every text of the table exists in both languages, the English ones without CJK', () => {
    for (const key of TEXT_KEYS) {
      expect(t('zh-CN', key), key).to.be.a('string').and.not.equal('')
      expect(t('en', key), key).to.not.match(CJK)
    }
    // the Chinese texts are Chinese (a few are only punctuation and placeholders)
    const zh = TEXT_KEYS.filter((k) => CJK.test(t('zh-CN', k)))
    expect(zh.length).to.be.greaterThan(TEXT_KEYS.length - 3)
  })

  it('chat: no channel, then an answer, an empty answer and a model error', async () => {
    expectEnglish(await priv('hello'))
    expect(host.transcript.at(-1)?.text).to.equal(t('en', 'chat.noChannel'))
    await run.rt.config.update({ channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk', model: 'gpt-test', models: ['gpt-test'] }] })
    expect(await priv('hello')).to.deep.equal(['echo: hello'])
    fake.enqueue({ content: '' })
    expect(await priv('say nothing')).to.deep.equal([t('en', 'chat.empty')])
    fake.enqueue({ status: 500 })
    expectEnglish(await group('are you there', USER, { at: true }))
  })

  it('poke: the model is told in English who poked', async () => {
    await run.rt.config.update({ tools: { eventProbability: 1 } })
    await replies(() => host.poke({ userId: USER }))
    const body = fake.requests.filter((r) => r.path.endsWith('/chat/completions')).at(-1)?.body as { messages: Array<{ role: string; content: unknown }> }
    expect(JSON.stringify(body.messages.at(-1)?.content)).to.match(/poked you/).and.not.match(CJK)
  })

  it('help and a mistyped command', async () => {
    const help = await priv('#lx help', MASTER)
    expectEnglish(help)
    expect(help[0]).to.include('#lxpresets').and.include('#lxapprovals').and.include('"lx"')
    expectEnglish(await group('#lxnonsense'))
  })

  it('presets: list, current, usage, unknown, switch for the user, the group and the default', async () => {
    expectEnglish(await priv('#lx presets'))
    expectEnglish(await priv('#lx preset'))
    expectEnglish(await priv('#lx use'))
    expectEnglish(await priv('#lx use no-such-preset'))
    const id = run.rt.need('presets').list()[0]!.id
    await run.rt.config.update({ presets: { perUserPreset: true, allowUserSwitch: true } })
    expectEnglish(await priv(`#lx use ${id}`))
    await run.rt.config.update({ presets: { perUserPreset: false, perGroupPreset: true } })
    expectEnglish(await group(`#lx use ${id}`, USER, { role: 'member' }))
    expect(host.transcript.at(-1)?.text).to.equal(t('en', 'preset.groupOnlyAdmins'))
    expectEnglish(await group(`#lx use ${id}`, '20009', { role: 'admin' }))
    await run.rt.config.update({ presets: { perGroupPreset: false } })
    expectEnglish(await priv(`#lx use ${id}`))
    expect(host.transcript.at(-1)?.text).to.equal(t('en', 'preset.defaultOnlyMaster'))
    expectEnglish(await priv(`#lx use ${id}`, MASTER))
    await run.rt.config.update({ presets: { allowUserSwitch: false } })
    expectEnglish(await priv(`#lx use ${id}`))
    expect(host.transcript.at(-1)?.text).to.equal(t('en', 'preset.switchOff'))
    await run.rt.config.update({ presets: { allowUserSwitch: true, perUserPreset: true } })
  })

  it('memory: empty, the list in private, the count in a group, forget', async () => {
    expectEnglish(await priv('#lx my memories'))
    await run.rt.need('memory').add({ userId: USER, content: 'likes green tea', category: 'preference' })
    const list = await priv('#lx my memories')
    expectEnglish(list)
    expect(list[0]).to.include('likes green tea')
    expectEnglish(await group('#lx my memories'))
    expectEnglish(await priv('#lx forget me'))
    expectEnglish(await priv('#lx forget me'))
    expect(host.transcript.at(-1)?.text).to.equal(t('en', 'memory.nothingToForget'))
  })

  it('game: list, unknown, start, status, a turn, a failed turn, stop', async () => {
    expectEnglish(await priv('#lx game list'))
    expectEnglish(await priv('#lx game start nobody'))
    const c = run.rt.need('game').list()[0]!
    expectEnglish(await priv(`#lx game start ${c.id}`))
    expectEnglish(await priv('#lx game status'))
    expect(await priv('hi there')).to.deep.equal(['echo: hi there'])
    fake.enqueue({ status: 500 })
    expectEnglish(await priv('and now?'))
    expect(host.transcript.at(-1)?.text).to.equal(t('en', 'game.silent'))
    expectEnglish(await priv('#lx game stop'))
    expectEnglish(await priv('#lx game status'))
  })

  it('drawing: an image is needed, a failure', async () => {
    await run.rt.config.update({ image: { enabled: true } })
    const needImage = BUILTIN_IMAGE_PRESETS.find((p) => p.needImage)!
    expectEnglish(await priv(needImage.keywords[0]!))
    const draw = BUILTIN_IMAGE_PRESETS.find((p) => !p.needImage)!
    fake.enqueue({ status: 500 })
    expectEnglish(await priv(`${draw.keywords[0]!} a cat`))
    expect(host.transcript.at(-1)?.text).to.equal(t('en', 'draw.failed'))
    await run.rt.config.update({ image: { enabled: false } })
  })

  it('panel: the link in private, the notice in a group', async () => {
    const links = await priv('#lx panel', MASTER)
    expectEnglish(links)
    expect(links[0]).to.include('/login#token=')
    expectEnglish(await group('#lx panel', MASTER))
  })

  it('back to zh-CN (the default): the same commands answer in Chinese', async () => {
    await run.rt.config.update({ language: 'zh-CN' })
    try {
      expect((await priv('#lx presets')).join('\n')).to.include('可用人设')
      expect((await priv('#lx game status')).join('\n')).to.include('没有进行中的游戏')
      expect((await priv('#lx my memories', '20077')).join('\n')).to.include('我还没有记住')
      expect((await group('#lxnonsense')).join('\n')).to.include('没有这个命令')
      expect((await priv('#lx help')).join('\n')).to.include('灵犀命令').and.include('#lx人设列表 / #lxpresets')
    } finally {
      await run.rt.config.update({ language: 'en' })
    }
  })

  it('tool approval: the request, the list, approve and an unknown id', async () => {
    run.rt.need('tools').registry.addSource(fakeSource('i18n-test', [
      fakeTool('wipe_disk', { dangerous: true, risk: 'high', execute: async () => ({ content: [{ type: 'text', text: 'wiped' }], isError: false }) })
    ]))
    expectEnglish(await priv('#lx approvals', MASTER))
    const since = host.transcript.length
    const call: Promise<ToolResult> = run.rt.need('tools').registry.call('wipe_disk', {}, {
      scope: { userId: USER, groupId: GROUP, nickname: 'Bob', isMaster: false, via: 'bot', conversationId: `group:${GROUP}:${USER}` },
      userPermission: 'member',
      isMaster: false
    })
    const ask = await host.waitForSend((e) => e.text.includes('wipe_disk'), since)
    expectEnglish([ask.text])
    const id = /approve (\S+)/.exec(ask.text)?.[1]
    expect(id, ask.text).to.be.a('string')
    expectEnglish(await priv('#lx approvals', MASTER))
    expectEnglish(await group(`#lx approve ${id!}`, MASTER))
    expect((await call).isError).to.equal(false)
    expectEnglish(await group('#lx deny nope', MASTER))
  })
})
