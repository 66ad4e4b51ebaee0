// `#lx帮助` and mistyped `#lx…` commands through the standalone host with the real plugin.
import { expect } from 'chai'
import { MASTER, startPluginHost, type PluginHost } from '../support/plugin-host.js'

describe('bot: help and unknown commands', function () {
  this.timeout(60_000)
  let p: PluginHost
  before(async () => { p = await startPluginHost('miao', 'lingxi-help-') })
  after(async () => { await p?.stop() })
  const last = (): string => p.host.transcript.at(-1)?.text ?? ''

  it('#lx帮助 lists the commands with the prefix; master commands only for the master', async () => {
    expect((await p.host.sendPrivate('40001', '#lx帮助')).stage).to.equal('handled')
    const user = last()
    expect(user).to.include('#lx人设列表').and.include('#lx忘记我').and.include('#lx开始游戏')
    expect(user).to.not.include('#lx面板')
    expect(user).to.include('灵犀') // how to chat in a group: the trigger prefix
    await p.host.sendPrivate(MASTER, '#lx help')
    expect(last()).to.include('#lx面板').and.include('#lx待批准')
  })

  it('answers in English when the language is en', async () => {
    await p.run.rt.config.update({ language: 'en' })
    try {
      await p.host.sendGroup('777', '40001', '#lx help')
      expect(last()).to.include('Lingxi commands').and.include('#lxforget me')
    } finally {
      await p.run.rt.config.update({ language: 'zh-CN' })
    }
  })

  it('a mistyped #lx command points to the help instead of going to the model', async () => {
    const before = p.host.transcript.length
    const res = await p.host.sendPrivate('40001', '#lx人设列')
    expect(res.stage).to.equal('handled')
    // one reply, the pointer (without a channel the chat would have answered "no channel")
    expect(p.host.transcript.length).to.equal(before + 1)
    expect(last()).to.include('没有这个命令').and.include('#lx帮助')
  })

  it('the command prefix is the running config\'s: a change applies to the next message', async () => {
    await p.run.rt.config.update({ commandPrefix: '#zz' })
    try {
      expect((await p.host.sendPrivate('40001', '#zz帮助')).stage).to.equal('handled')
      expect(last()).to.include('#zz人设列表')
    } finally {
      await p.run.rt.config.update({ commandPrefix: null })
    }
    await p.host.sendPrivate('40001', '#lx帮助')
    expect(last()).to.include('#lx人设列表')
  })

  it('real commands still win over the unknown-command reply', async () => {
    await p.host.sendPrivate('40001', '#lx我的记忆')
    expect(last()).to.include('我还没有记住')
  })
})
