// `#lx人设列表` lists presets; `#lx当前人设` shows the one in effect; `#lx切换人设 <id或名称>` switches:
// for the user (presets.perUserPreset), else for the group (presets.perGroupPreset, group admins and
// masters), else the global default (masters). presets.allowUserSwitch off: only masters may switch.
import { ensureStarted } from '../lib/lifecycle.js'
import { pluginBase, type HostEvent } from '../lib/host/port.js'
import { commandPattern } from './command.js'

export class LingxiPreset extends pluginBase() {
  constructor () {
    super({
      name: 'lingxi-preset',
      dsc: '灵犀人设切换',
      event: 'message',
      priority: 50,
      rule: [
        { reg: commandPattern('(人设列表|预设列表|presets)'), fnc: 'list' },
        { reg: commandPattern('(当前人设|当前预设|preset)'), fnc: 'current' },
        { reg: commandPattern('(切换人设|切换预设|use)\\s*(.*)'), fnc: 'switch' }
      ]
    })
  }

  async list (e: HostEvent): Promise<boolean> {
    const { rt } = await ensureStarted()
    const current = rt.presetResolver.idFor({ userId: String(e.user_id), ...(e.isGroup && e.group_id !== undefined ? { groupId: String(e.group_id) } : {}) })
    const lines = rt.presets.list().map((p) => `${p.id === current ? '▶' : '·'} ${p.id}：${p.name}${p.description ? ` — ${p.description}` : ''}`)
    await e.reply(`可用人设：\n${lines.join('\n')}\n发送「切换人设 <id>」切换`)
    return true
  }

  async current (e: HostEvent): Promise<boolean> {
    const { rt } = await ensureStarted()
    const id = rt.presetResolver.idFor({ userId: String(e.user_id), ...(e.isGroup && e.group_id !== undefined ? { groupId: String(e.group_id) } : {}) })
    const p = rt.presets.get(id)
    await e.reply(`当前人设：${p.name}（${p.id}）`)
    return true
  }

  async switch (e: HostEvent): Promise<boolean> {
    const { rt } = await ensureStarted()
    const arg = (e.msg ?? '').replace(commandPattern('(切换人设|切换预设|use)', ''), '').trim()
    const cfg = rt.config.get().presets
    const master = e.isMaster === true
    if (!cfg.allowUserSwitch && !master) { await e.reply('管理员已关闭人设切换。'); return true }
    if (!arg) { await e.reply('用法：切换人设 <id或名称>，发送「人设列表」查看可用人设'); return true }
    const all = rt.presets.list()
    const target = all.find((p) => p.id === arg) ?? all.find((p) => p.name === arg)
    if (!target) { await e.reply(`没有找到人设「${arg}」，发送「人设列表」查看可用人设`); return true }
    const groupId = e.isGroup && e.group_id !== undefined ? String(e.group_id) : undefined
    if (cfg.perUserPreset) {
      await rt.presets.choose('users', String(e.user_id), target.id)
      await e.reply(`已为你切换到人设：${target.name}`)
    } else if (groupId && cfg.perGroupPreset) {
      const role = e.sender.role
      if (!master && role !== 'owner' && role !== 'admin') { await e.reply('只有群主、管理员或主人可以切换本群人设。'); return true }
      await rt.presets.choose('groups', groupId, target.id)
      await e.reply(`本群已切换到人设：${target.name}`)
    } else if (master) {
      await rt.presets.setDefault(target.id)
      await e.reply(`默认人设已切换为：${target.name}`)
    } else {
      await e.reply('当前未开启个人或群组人设，只有主人可以切换默认人设。')
    }
    rt.log.info('Preset switched', { userId: String(e.user_id), preset: target.id })
    return true
  }
}
