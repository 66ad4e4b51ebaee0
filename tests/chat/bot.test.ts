// The chat handler (apps/chat.ts) in the standalone host: trigger rules in private and group chats,
// commands winning over chat, friendly error replies.
import { expect } from 'chai'
import sinon from 'sinon'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createHost, type Host } from '../../standalone/host.js'
import { stopHost } from '../support/plugin-host.js'
import type { Runtime } from '../../lib/runtime.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { MASTER, PROFILES } from '../host/helpers.js'

const PLUGIN_ROOT = fileURLToPath(new URL('../../', import.meta.url))

describe('chat: bot handler in the standalone host', function () {
  this.timeout(60_000)
  let fake: FakeOpenAI
  before(async () => { fake = await startFakeOpenAI({ models: ['gpt-test'] }) })
  after(async () => { await fake?.close() })

  for (const profile of PROFILES) {
    describe(`${profile} profile`, () => {
      let host: Host
      let dataDir: string
      let rt: Runtime
      before(async () => {
        dataDir = mkdtempSync(join(tmpdir(), 'lingxi-chat-'))
        host = createHost({ profile, pluginDir: PLUGIN_ROOT, masters: [MASTER], cooldowns: false, env: { LINGXI_DATA_DIR: dataDir, LINGXI_PORT: '0' } })
        await host.start()
        const mod = host.module as { lingxi: { start(): Promise<{ rt: Runtime }> } }
        rt = (await mod.lingxi.start()).rt
        await rt.config.update({ channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk', model: 'gpt-test', models: ['gpt-test'] }] })
      })
      after(async () => {
        await stopHost(host) // the plugin too: the host does not stop it
        rmSync(dataDir, { recursive: true, force: true })
      })
      beforeEach(async () => {
        fake.reset()
        await rt.config.update({ trigger: { private: 'always', group: 'at', prefix: '灵犀', randomRate: 0 }, groups: {} })
      })
      const last = (): string => host.transcript.at(-1)?.text ?? ''

      it('private always: answers a plain message in the private chat', async () => {
        const res = await host.sendPrivate('20001', '你好呀')
        expect(res).to.include({ stage: 'handled', plugin: 'lingxi-chat' })
        expect(host.transcript.at(-1)).to.include({ target: 'private', targetId: '20001', text: 'echo: 你好呀' })
        expect(rt.need('conversations').store.history('private:20001').map((m) => m.content)).to.deep.equal(['你好呀', 'echo: 你好呀'])
      })

      it('private prefix: passes plain messages on, answers prefixed ones without the prefix', async () => {
        await rt.config.update({ trigger: { private: 'prefix' } })
        const before = host.transcript.length
        const plain = await host.sendPrivate('20002', '你好')
        expect(plain.stage).to.not.equal('handled')
        expect(host.transcript.length).to.equal(before)
        const res = await host.sendPrivate('20002', '灵犀 讲个笑话')
        expect(res.stage).to.equal('handled')
        expect(last()).to.equal('echo: 讲个笑话')
      })

      it('group at: ignores unmentioned messages, answers an @ with a quote', async () => {
        const before = host.transcript.length
        expect((await host.sendGroup('30001', '20003', '大家好')).stage).to.not.equal('handled')
        expect(host.transcript.length).to.equal(before)
        const res = await host.sendGroup('30001', '20003', '你是谁', { at: true })
        expect(res).to.include({ stage: 'handled', plugin: 'lingxi-chat' })
        const sent = host.transcript.at(-1)
        expect(sent).to.include({ target: 'group', targetId: '30001' })
        expect(sent?.text).to.include('echo: 你是谁')
        expect(sent?.quote, 'quotes the asker').to.not.equal(undefined)
        expect(rt.need('conversations').store.get('group:30001:20003')).to.not.equal(undefined)
      })

      it('per-group trigger both and a disabled group', async () => {
        await rt.config.update({ groups: { 30002: { trigger: { type: 'both' } }, 30003: { enabled: false } } })
        expect((await host.sendGroup('30002', '20004', '灵犀 在吗')).stage).to.equal('handled')
        expect(last()).to.include('echo: 在吗')
        expect((await host.sendGroup('30001', '20004', '灵犀 在吗')).stage, 'other groups stay at-only').to.not.equal('handled')
        expect((await host.sendGroup('30003', '20004', 'hi', { at: true })).stage).to.not.equal('handled')
      })

      it('commands win over the catch-all chat handler', async () => {
        const res = await host.sendPrivate(MASTER, '#lx面板')
        expect(res.stage).to.equal('handled')
        expect(res.plugin).to.not.equal('lingxi-chat')
        expect(fake.chatRequests()).to.have.length(0)
      })

      it('a failing model gets a short friendly reply, never silence', async () => {
        fake.enqueue({ status: 400, errorMessage: 'upstream exploded' })
        const res = await host.sendPrivate('20005', '在吗')
        expect(res.stage).to.equal('handled')
        expect(last()).to.equal('模型暂时无法回答，请稍后再试。')
        expect(last()).to.not.include('upstream')
      })

      it('the answer goes out while the turn is written; the handler finishes once it is on disk', async () => {
        const store = rt.need('conversations').store
        const original = store.append.bind(store)
        let release!: () => void
        const gate = new Promise<void>((resolve) => { release = resolve })
        const stub = sinon.stub(store, 'append').callsFake(async (owner, messages) => { const written = original(owner, messages); await gate; await written })
        try {
          const before = host.transcript.length
          const answered = host.waitForSend((m) => m.targetId === '20007')
          const handled = host.sendPrivate('20007', '先回答')
          await answered // the reply is out while the journal write is still held back
          expect(host.transcript.length).to.equal(before + 1)
          let done = false
          void handled.then(() => { done = true })
          await Promise.resolve()
          expect(done).to.equal(false)
          release()
          expect((await handled).stage).to.equal('handled')
          expect(rt.need('conversations').store.history('private:20007').map((m) => m.content)).to.deep.equal(['先回答', 'echo: 先回答'])
        } finally { stub.restore() }
      })

      it('a turn answered but not saved is logged, and the user gets no second, error message', async () => {
        const stub = sinon.stub(rt.need('conversations').store, 'append').rejects(new Error('disk full'))
        try {
          const before = host.transcript.length
          expect((await host.sendPrivate('20008', '磁盘满了吗')).stage).to.equal('handled')
          expect(host.transcript.slice(before).map((m) => m.text)).to.deep.equal(['echo: 磁盘满了吗'])
          expect(rt.log.errors(5).map((e) => e.error)).to.include('Chat turn answered but not completed: disk full')
        } finally { stub.restore() }
      })

      it('rate limited users are told so', async () => {
        await rt.config.update({ chat: { userRateLimitPerMinute: 1 } })
        try {
          await host.sendPrivate('20006', 'one')
          await host.sendPrivate('20006', 'two')
          expect(last()).to.equal('你发消息太快了，请稍后再试。')
        } finally {
          await rt.config.update({ chat: { userRateLimitPerMinute: 20 } })
        }
      })
    })
  }
})
