// Banned words however they are spelt, through the standalone host (both profiles): every spelling of
// SPELLINGS (spellings.ts) is refused on input before the model is called (`refuse`), and masked
// in the answer (`mask`) over its whole obfuscated span; ordinary text with the letters apart passes.
import { expect } from 'chai'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { PROFILES } from '../host/helpers.js'
import { saidTo } from './helpers.js'
import { SPELLINGS } from './spellings.js'

const REFUSED = '这条消息包含不允许的内容，无法回答。'

for (const profile of PROFILES) describe(`governance: banned words in any spelling, ${profile} profile`, function () {
  this.timeout(120_000)
  let fake: FakeOpenAI
  let p: PluginHost

  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    p = await startPluginHost(profile, 'lingxi-spelling-')
    await p.run.rt.config.update({
      channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-spelling-test', model: 'gpt-test' }],
      moderation: { strictness: 'refuse', checkInput: true, checkOutput: true, useDefaultList: true, keywords: ['违禁词', 'spam'], regexes: [], notice: '' }
    })
  })
  after(async () => {
    await p?.stop()
    await fake?.close()
  })
  beforeEach(() => { fake.reset(); fake.respond = () => ({ content: '好的，收到' }) })

  const dm = async (userId: string, text: string): Promise<string[]> => {
    const since = p.host.transcript.length
    await p.host.sendPrivate(userId, text)
    return saidTo(p, 'private', userId, since)
  }

  it('every spelling is refused on input before the model is called (refuse)', async () => {
    await p.run.rt.config.update({ moderation: { strictness: 'refuse' } })
    let user = 31000
    for (const [what, spelt] of SPELLINGS) {
      expect(await dm(String(user++), `我想聊聊 ${spelt} 这件事`), what).to.deep.equal([REFUSED])
    }
    expect(fake.chatRequests(), 'no model call').to.have.length(0)
  })

  it('every spelling is masked in the answer over its whole span (mask); ordinary text passes', async () => {
    await p.run.rt.config.update({ moderation: { strictness: 'mask' } })
    let user = 32000
    for (const [what, spelt] of SPELLINGS) {
      fake.respond = () => ({ content: `前面 ${spelt} 后面` })
      expect(await dm(String(user++), '说点什么'), what).to.deep.equal(['前面 ＊＊＊ 后面'])
    }
    const plain = ['他买了冰，毒死了老鼠', 'the spa. Many people came', 'that was a bad. Word']
    for (const text of plain) {
      fake.respond = () => ({ content: text })
      expect(await dm(String(user++), '说点什么'), text).to.deep.equal([text])
    }
  })
})
