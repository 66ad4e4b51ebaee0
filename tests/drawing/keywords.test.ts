// Image preset keywords match the normalised message (lib/drawing/service.ts match, through the one
// text normaliser lib/core/text-normalize.ts, as moderation words and trigger keywords do): full-width,
// traditional, zero-width and separated spellings of a keyword still pick the preset, and the rest of
// the message (the prompt) stays as the user wrote it. Through the standalone host with the real plugin
// and the fake model server's images API.
import { expect } from 'chai'
import type { Running } from '../../lib/lifecycle.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startPluginHost, type PluginHost } from '../support/plugin-host.js'

const prompts = (fake: FakeOpenAI): string[] =>
  fake.requests.filter((r) => r.path.endsWith('/images/generations')).map((r) => (r.body as { prompt: string }).prompt)

describe('drawing: preset keywords through the text normaliser', function () {
  this.timeout(60_000)
  let fake: FakeOpenAI
  let ph: PluginHost
  let run: Running

  before(async () => {
    fake = await startFakeOpenAI()
    ph = await startPluginHost('miao', 'lingxi-draw-keywords-')
    run = ph.run
    await run.rt.need('channels').service.create({ name: 'img', baseUrl: fake.url, apiKey: 'sk-test-1234', model: 'gpt-4o-mini', image: { enabled: true, model: 'dall-e-3' } })
    await run.rt.config.update({ image: { enabled: true, maxImages: 1, sendMode: 'direct' } })
    await run.rt.need('drawing').addCustom({ keywords: ['Cat Art'], needImage: false, prompt: 'cat style: {{input}}' })
  })
  after(async () => {
    await ph?.stop()
    await fake?.close()
  })

  const match = (text: string) => {
    const m = run.rt.need('drawing').match(text)
    return m && { uid: m.preset.uid, input: m.input }
  }

  it('plain keywords as before; the keyword must start the message', () => {
    expect(match('画图 一只橘猫')).to.deep.equal({ uid: 'builtin-draw', input: '一只橘猫' })
    expect(match('#画一张 海边')).to.deep.equal({ uid: 'builtin-draw', input: '海边' })
    expect(match('手办化')).to.deep.equal({ uid: 'builtin-figure', input: '' })
    expect(match('我想画图 一只橘猫')).to.equal(undefined)
    expect(match('你好')).to.equal(undefined)
  })

  it('traditional, zero-width, separated and full-width spellings pick the preset; the prompt stays as written', () => {
    expect(match('畫圖 一隻橘貓'), 'traditional').to.deep.equal({ uid: 'builtin-draw', input: '一隻橘貓' })
    expect(match('＃繪圖 貓'), 'full-width # and traditional').to.deep.equal({ uid: 'builtin-draw', input: '貓' })
    expect(match('\u200b画\u200c图 一只ＣＡＴ'), 'zero-width characters').to.deep.equal({ uid: 'builtin-draw', input: '一只ＣＡＴ' })
    expect(match('画 . 图 一只猫'), 'separated').to.deep.equal({ uid: 'builtin-draw', input: '一只猫' })
    expect(match('二次元畫 少女'), 'the longest keyword still wins').to.deep.equal({ uid: 'builtin-anime', input: '少女' })
    const custom = run.rt.need('drawing').all().custom[0]?.uid
    expect(match('ＣＡＴ　ＡＲＴ 我的猫'), 'full-width Latin and space, any case').to.deep.equal({ uid: custom, input: '我的猫' })
    expect(match('cat art'), 'lower case').to.deep.equal({ uid: custom, input: '' })
    expect(match('catart 猫'), 'words are never joined').to.equal(undefined)
  })

  it('a traditional spelling draws, with the prompt as the user wrote it', async () => {
    const since = ph.host.transcript.length
    const r = await ph.host.sendPrivate('20002', '畫圖 一隻橘貓')
    expect(r.stage).to.equal('handled')
    await ph.host.waitForSend((e) => e.message.some((s) => s.type === 'image'), since)
    expect(prompts(fake).at(-1)).to.equal('一隻橘貓')
  })
})
