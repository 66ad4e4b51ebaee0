// `#lx人设列表` lists presets; `#lx当前人设` shows the one in effect; `#lx切换人设 <id或名称>` switches:
// for the user (presets.perUserPreset), else for the group (presets.perGroupPreset, group owners,
// admins and masters), else the global default (masters). presets.allowUserSwitch off: only masters.
import { pluginBase, type HostEvent } from '../lib/host/port.js'
import type { HostSession } from '../lib/host/session.js'
import { commandPattern } from './command.js'
import { contextOf } from './context.js'

const SWITCH = '(切换人设|切换预设|use)'
const whereOf = (s: HostSession): { userId: string; groupId?: string } => ({ userId: s.userId, ...(s.groupId ? { groupId: s.groupId } : {}) })

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
        { reg: commandPattern(`${SWITCH}\\s*(.*)`), fnc: 'switch' }
      ]
    })
  }

  async list (e: HostEvent): Promise<boolean> {
    const { rt, s, say } = await contextOf(e)
    const current = rt.need('presetResolver').idFor(whereOf(s))
    const lines = rt.need('presets').list().map((p) => `${p.id === current ? '▶' : '·'} ${p.id}: ${p.name}${p.description ? ` — ${p.description}` : ''}`)
    await say('preset.list', { lines: lines.join('\n') })
    return true
  }

  async current (e: HostEvent): Promise<boolean> {
    const { rt, s, say } = await contextOf(e)
    const p = rt.need('presets').get(rt.need('presetResolver').idFor(whereOf(s)))
    await say('preset.current', { name: p.name, id: p.id })
    return true
  }

  async switch (e: HostEvent): Promise<boolean> {
    const { rt, s, say } = await contextOf(e)
    const arg = s.text.replace(commandPattern(SWITCH, ''), '').trim()
    const cfg = rt.config.get().presets
    if (!cfg.allowUserSwitch && !s.isMaster) { await say('preset.switchOff'); return true }
    if (!arg) { await say('preset.usage'); return true }
    const all = rt.need('presets').list()
    const target = all.find((p) => p.id === arg) ?? all.find((p) => p.name === arg)
    if (!target) { await say('preset.notFound', { name: arg }); return true }
    if (cfg.perUserPreset) {
      await rt.need('presets').choose('users', s.userId, target.id)
      await say('preset.switchedUser', { name: target.name })
    } else if (s.groupId && cfg.perGroupPreset) {
      if (!s.isMaster && !s.isGroupAdmin) { await say('preset.groupOnlyAdmins'); return true }
      await rt.need('presets').choose('groups', s.groupId, target.id)
      await say('preset.switchedGroup', { name: target.name })
    } else if (s.isMaster) {
      await rt.need('presets').setDefault(target.id)
      await say('preset.switchedDefault', { name: target.name })
    } else {
      await say('preset.defaultOnlyMaster')
    }
    rt.log.info('Preset switched', { userId: s.userId, preset: target.id })
    return true
  }
}
