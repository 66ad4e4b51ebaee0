// The rule that keeps the chat off other plugins' commands (lib/chat/trigger.ts, README "Bot
// commands"): command-looking messages are not chat unless the bot is called by the prefix.
import { expect } from 'chai'
import { decideTrigger, looksLikeCommand } from '../../lib/chat/trigger.js'
import type { Config } from '../../lib/config/schema.js'

type Cfg = Pick<Config, 'trigger' | 'groups'>
const cfg = (trigger: Partial<Config['trigger']> = {}): Cfg => ({ trigger: { private: 'always', group: 'both', prefix: '灵犀', randomRate: 0, keywords: [], ...trigger }, groups: {} })

describe('chat trigger: commands are not chat', () => {
  it('recognises the hosts\' command starts, full-width too, and the plugin\'s own prefix', () => {
    for (const t of ['#添加测试', ' #原神公告', '＃帮助', '*星铁面板', '＊面板', '※面板', '%绝区零', '％体力', '/help', 'lx面板']) {
      expect(looksLikeCommand(t, 'lx'), t).to.equal(true)
    }
    for (const t of ['你好', '原神公告', '100% 确定', 'a/b', '灵犀 #帮助']) expect(looksLikeCommand(t, '#lx'), t).to.equal(false)
  })

  it('private always: a command passes on, the prefix makes it chat', () => {
    expect(decideTrigger(cfg(), { isGroup: false, atBot: false, text: '#添加测试' }).triggered).to.equal(false)
    expect(decideTrigger(cfg(), { isGroup: false, atBot: false, text: '灵犀 #添加是什么' })).to.include({ triggered: true, text: '#添加是什么', reason: 'prefix' })
    expect(decideTrigger(cfg(), { isGroup: false, atBot: false, text: 'LX帮助', commandPrefix: 'lx' }).triggered).to.equal(false)
  })

  it('groups: an @bot command passes on; random joins never answer commands', () => {
    expect(decideTrigger(cfg(), { isGroup: true, groupId: '1', atBot: true, text: '#原神公告' }).triggered).to.equal(false)
    expect(decideTrigger(cfg({ randomRate: 1 }), { isGroup: true, groupId: '1', atBot: false, text: '*星铁面板' }, () => 0).triggered).to.equal(false)
    expect(decideTrigger(cfg(), { isGroup: true, groupId: '1', atBot: true, text: '你好' })).to.include({ triggered: true, reason: 'at' })
  })

  it('groups, default both: the prefix alone calls the bot', () => {
    expect(decideTrigger(cfg(), { isGroup: true, groupId: '1', atBot: false, text: '灵犀 你好' }, () => 0.99)).to.include({ triggered: true, text: '你好', reason: 'prefix' })
    expect(decideTrigger(cfg(), { isGroup: true, groupId: '1', atBot: false, text: '你好' }, () => 0.99).triggered).to.equal(false)
  })
})
