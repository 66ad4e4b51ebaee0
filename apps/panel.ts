// `#lx面板` / `#lx panel`: the master asks for a dashboard login link; it is always sent privately.
import { ensureStarted } from '../lib/lifecycle.js'
import { pluginBase, sendPrivate, type HostEvent } from '../lib/host/port.js'
import { commandPattern } from './command.js'
import { contextOf } from './context.js'

export class LingxiPanel extends pluginBase() {
  constructor () {
    super({
      name: 'lingxi-panel',
      dsc: '灵犀管理面板登录',
      event: 'message',
      priority: 50,
      rule: [{ reg: commandPattern('(面板|panel|登录|login)'), fnc: 'panel', permission: 'master' }]
    })
  }

  async init (): Promise<void> {
    await ensureStarted()
  }

  async panel (e: HostEvent): Promise<boolean> {
    const { rt, run, s, tr, say } = await contextOf(e)
    if (!s.isMaster) return false
    if (run.webError !== undefined) {
      await say('panel.webDown', { error: run.webError })
      return true
    }
    const { token } = rt.loginTokens.issue({ userId: s.userId, isMaster: true })
    const links = run.baseUrls().map((b) => `${b}/login#token=${token}`)
    const text = `${tr('panel.links')}\n${links.join('\n')}`
    if (s.isGroup) {
      // the host's own id values (icqq wants numbers), not the session's strings
      const sent = await sendPrivate(e.user_id, text, e.self_id).catch(() => undefined)
      await say(sent && !sent.error ? 'panel.sentPrivately' : 'panel.privateFailed', {}, true)
    } else {
      await s.reply(text)
    }
    rt.log.info('Issued a dashboard login link', { userId: s.userId, group: s.isGroup })
    return true
  }
}
