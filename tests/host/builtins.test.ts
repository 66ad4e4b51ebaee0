// The chat handler beside the hosts' own command plugins (stand-ins in fixtures/plugins/builtins):
// commands reach them instead of the model, in private chats and with an @ in groups, in both
// profiles (README, "Bot commands").
import { expect } from 'chai'
import type { Runtime } from '../../lib/runtime.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { BUILTINS, startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { PROFILES } from './helpers.js'

describe('standalone host: chat beside the hosts\' built-in commands', function () {
  this.timeout(60_000)
  let fake: FakeOpenAI
  before(async () => { fake = await startFakeOpenAI({ models: ['gpt-test'] }) })
  after(async () => { await fake?.close() })

  for (const profile of PROFILES) {
    describe(`${profile} profile`, () => {
      let p: PluginHost
      let rt: Runtime
      before(async () => {
        p = await startPluginHost(profile, 'lingxi-builtins-', { plugins: { system: BUILTINS } })
        rt = p.run.rt
        await rt.config.update({ channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk', model: 'gpt-test', models: ['gpt-test'] }] })
      })
      after(async () => { await p?.stop() })
      beforeEach(async () => {
        fake.reset()
        await rt.config.update({ trigger: { private: 'always', prefix: '灵犀', randomRate: 0 } })
      })
      const last = (): string => p.host.transcript.at(-1)?.text ?? ''
      const modelCalls = (): number => fake.chatRequests().length

      it('loads the built-ins beside the plugin, the chat handler last but for priority Infinity', () => {
        expect(p.host.loadErrors).to.deep.equal([])
        const order = p.host.plugins.map((e) => `${e.name}@${e.priority}`)
        const chat = order.indexOf(`lingxi-chat@${Number.MAX_SAFE_INTEGER}`) // apps/chat.ts
        expect(chat, order.join(' ')).to.be.greaterThan(order.indexOf('builtin-announce@7000'))
        if (profile === 'miao') expect(chat).to.be.greaterThan(order.indexOf('builtin-add@50000'))
        else expect(chat).to.be.lessThan(order.indexOf('builtin-add@Infinity'))
      })

      it('private #添加 / #删除 reach the host\'s plugin, not the model', async () => {
        const res = await p.host.sendPrivate('20001', '#添加测试')
        expect(res).to.include({ stage: 'handled', plugin: 'builtin-add' })
        expect(last()).to.equal('builtin 添加成功：测试')
        expect((await p.host.sendPrivate('20001', '＃删除测试')).plugin).to.equal('builtin-add')
        expect(last()).to.equal('builtin 删除成功：测试')
        expect(modelCalls()).to.equal(0)
      })

      it('#原神公告 and the #-less 原神公告 (priority 7000) reach the game plugin', async () => {
        expect(await p.host.sendPrivate('20001', '#原神公告')).to.include({ stage: 'handled', plugin: 'builtin-announce' })
        expect(last()).to.equal('builtin 公告：#原神公告')
        expect(await p.host.sendPrivate('20001', '原神公告')).to.include({ stage: 'handled', plugin: 'builtin-announce' })
        expect(modelCalls()).to.equal(0)
      })

      it('commands nobody handles (*, %, /, #) are not chat either', async () => {
        const before = p.host.transcript.length
        for (const text of ['*星铁角色面板', '%绝区零体力', '/不存在的命令', '#不存在的命令']) {
          expect((await p.host.sendPrivate('20001', text)).stage, text).to.not.equal('handled')
        }
        expect(p.host.transcript.length).to.equal(before)
        expect(modelCalls()).to.equal(0)
      })

      it('plain messages and the prefix before a command are chat', async () => {
        expect(await p.host.sendPrivate('20001', '你好')).to.include({ stage: 'handled', plugin: 'lingxi-chat' })
        expect(last()).to.equal('echo: 你好')
        expect(await p.host.sendPrivate('20001', '灵犀 #添加是什么意思')).to.include({ stage: 'handled', plugin: 'lingxi-chat' })
        expect(last()).to.equal('echo: #添加是什么意思')
        expect(modelCalls()).to.equal(2)
      })

      it('groups: an @bot command goes to its plugin, an @bot question to the model', async () => {
        expect(await p.host.sendGroup('30001', '20002', '#添加早安', { at: true })).to.include({ stage: 'handled', plugin: 'builtin-add' })
        expect(modelCalls()).to.equal(0)
        expect(await p.host.sendGroup('30001', '20002', '在吗', { at: true })).to.include({ stage: 'handled', plugin: 'lingxi-chat' })
        expect(modelCalls()).to.equal(1)
      })

      it('groups, default trigger: the prefix 灵犀 calls the bot without an @ (as the README says)', async () => {
        expect(rt.config.get().trigger.group).to.equal('both')
        expect(await p.host.sendGroup('30003', '20004', '灵犀 讲个笑话')).to.include({ stage: 'handled', plugin: 'lingxi-chat' })
        expect(last()).to.include('echo: 讲个笑话')
        expect((await p.host.sendGroup('30003', '20004', '大家好')).stage).to.not.equal('handled')
        expect(modelCalls()).to.equal(1)
      })

      it('keyword replies: Miao\'s (50000) answer before the chat; TRSS\'s (Infinity) after it', async () => {
        const res = await p.host.sendPrivate('20001', '早安')
        if (profile === 'miao') {
          expect(res.plugin).to.equal('builtin-add')
          expect(modelCalls()).to.equal(0)
        } else {
          expect(res.plugin, 'documented in the README').to.equal('lingxi-chat')
        }
      })
    })
  }
})
