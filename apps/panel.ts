// `#lx面板` / `#lx panel`: the master asks for a dashboard login link; it is always sent privately.
import { t } from '../lib/i18n.js'
import { ensureStarted } from '../lib/lifecycle.js'
import { pluginBase, sendPrivate, type HostEvent } from '../lib/host/port.js'
import { commandPattern } from './command.js'

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
    const { rt, baseUrls } = await ensureStarted()
    const lang = rt.config.get().language
    if (!e.isMaster) return false
    const { token } = rt.loginTokens.issue({ userId: String(e.user_id), isMaster: true })
    const links = baseUrls().map((b) => `${b}/login#token=${token}`)
    const text = `${t(lang, 'panel.links')}\n${links.join('\n')}`
    if (e.isGroup) {
      const sent = await sendPrivate(e.user_id, text, e.self_id).catch(() => undefined)
      await e.reply(t(lang, sent && !sent.error ? 'panel.sentPrivately' : 'panel.privateFailed'), true)
    } else {
      await e.reply(text)
    }
    rt.log.info('Issued a dashboard login link', { userId: String(e.user_id), group: e.isGroup === true })
    return true
  }
}
