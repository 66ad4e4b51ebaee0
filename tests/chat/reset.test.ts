// `#lx结束对话` / `#lx reset` in the standalone host (both profiles) with the real plugin and the fake
// model: the next turn carries none of the earlier conversation, memories stay, the conversation is
// gone from disk too; a group's shared conversation only its owner, admins or the master may reset.
import { expect } from 'chai'
import { waitFor } from '../channels/helpers.js'
import { spokenMessages } from './helpers.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { MASTER, startPluginHost, type PluginHost } from '../support/plugin-host.js'

for (const profile of ['miao', 'trss'] as const) {
  describe(`chat: #lx结束对话 (${profile} profile)`, function () {
    this.timeout(60_000)
    let p: PluginHost
    let fake: FakeOpenAI
    before(async () => {
      fake = await startFakeOpenAI({ models: ['gpt-test'] })
      p = await startPluginHost(profile, 'lingxi-reset-')
      await p.run.rt.config.update({ channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk', model: 'gpt-test' }], chat: { burstWindowMs: 0 } })
    })
    after(async () => {
      await p?.stop()
      await fake?.close()
    })
    const lastAsked = (): string[] => spokenMessages(fake.chatRequests().at(-1)?.body).filter((m) => m.role !== 'system').map((m) => m.content)
    const said = (): string => p.host.transcript.at(-1)?.text ?? ''
    const stored = (id: string) => p.run.rt.need('conversations').store.get(id)

    it('a private chat starts afresh: the next request has no earlier turn, the memory stays', async () => {
      const user = '40001'
      await p.run.rt.need('memory').add({ userId: user, content: '喜欢猫', category: 'preference' })
      await p.host.sendPrivate(user, '第一句话')
      await p.host.sendPrivate(user, '第二句话')
      expect(lastAsked()).to.include('第一句话')
      expect((await p.host.sendPrivate(user, '#lx结束对话')).stage).to.equal('handled')
      expect(said()).to.include('重新开始')
      expect(stored(`private:${user}`)).to.equal(undefined)
      const asked = fake.chatRequests().length
      await p.host.sendPrivate(user, '新的开始')
      expect(fake.chatRequests()).to.have.length(asked + 1)
      expect(lastAsked()).to.deep.equal(['新的开始'])
      expect(p.run.rt.need('memory').list({ userId: user }).map((m) => m.content)).to.include('喜欢猫')
      await p.host.sendPrivate(user, '#lx reset')
      await p.host.sendPrivate(user, '#lx reset')
      expect(said()).to.include('还没有进行中的对话')
    })

    it('a reset sent while an answer is on its way waits for it and forgets it too', async () => {
      const user = '40007'
      fake.enqueue({ delayMs: 300, content: '慢慢的回答' })
      const asked = fake.chatRequests().length
      const slow = p.host.sendPrivate(user, '慢一点的问题')
      await waitFor(() => fake.chatRequests().length > asked) // the question is with the model
      await p.host.sendPrivate(user, '#lx结束对话')
      await slow
      expect(p.host.transcript.map((m) => m.text)).to.include('慢慢的回答')
      expect(said()).to.include('重新开始') // after the answer, not before it
      expect(stored(`private:${user}`)).to.equal(undefined)
      await p.host.sendPrivate(user, '之后')
      expect(lastAsked()).to.deep.equal(['之后'])
    })

    it('in a group, a member resets only their own conversation there', async () => {
      await p.run.rt.config.update({ chat: { groupConversation: 'user' } })
      await p.host.sendGroup('777', '40002', '甲的话', { at: true })
      await p.host.sendGroup('777', '40003', '乙的话', { at: true })
      await p.host.sendGroup('777', '40002', '#lx重置对话')
      expect(said()).to.include('重新开始')
      await p.host.sendGroup('777', '40003', '乙又说', { at: true })
      expect(lastAsked()).to.include('乙的话')
      await p.host.sendGroup('777', '40002', '甲又说', { at: true })
      expect(lastAsked()).to.deep.equal(['甲又说'])
    })

    it('a shared group conversation: a member is refused, an admin and the master may reset it', async () => {
      await p.run.rt.config.update({ chat: { groupConversation: 'group' } })
      try {
        await p.host.sendGroup('888', '40004', '大家好', { at: true, nickname: '丙' })
        await p.host.sendGroup('888', '40004', '#lx结束对话', { role: 'member' })
        expect(said()).to.include('只有群主、管理员或主人')
        expect(stored('group:888')).to.not.equal(undefined)
        await p.host.sendGroup('888', '40005', '#lx结束对话', { role: 'admin' })
        expect(said()).to.include('共同对话已重新开始')
        expect(stored('group:888')).to.equal(undefined)
        await p.host.sendGroup('888', '40004', '又来了', { at: true, nickname: '丙' })
        await p.host.sendGroup('888', MASTER, '#lx new chat', { role: 'member' })
        expect(said()).to.include('共同对话已重新开始')
      } finally { await p.run.rt.config.update({ chat: { groupConversation: 'user' } }) }
    })

    it('is listed in #lx帮助', async () => {
      await p.host.sendPrivate('40006', '#lx帮助')
      expect(said()).to.include('#lx结束对话 / #lxreset')
    })
  })
}
