// `#lx更新` / `#lx update` (master): pull the plugin's checkout, install the packages when they changed,
// report the new commits and restart through the host's own restart; `#lx强制更新` / `#lx force update`
// drops local changes first. `#lx版本` / `#lx version`: version, commit, date, and any feature that
// missing packages turn off. The rules are lib/update's; this file only talks.
import { errorText } from '../lib/core/errors.js'
import { HOST_RESTART_COMMAND, restartHost, pluginBase, type HostEvent } from '../lib/host/port.js'
import { UpdateRefused } from '../lib/update/version.js'
import type { UpdateResult } from '../lib/update/updater.js'
import { commandPattern } from './command.js'
import { contextOf, type BotContext } from './context.js'

const day = (iso: string | undefined): string => (iso ? iso.replace('T', ' ').slice(0, 16) : '-')

export class LingxiUpdate extends pluginBase() {
  constructor () {
    super({
      name: 'lingxi-update',
      dsc: '灵犀更新与版本',
      event: 'message',
      priority: 50,
      rule: [
        { reg: commandPattern('(强制更新|force\\s*update|更新|update)'), fnc: 'update', permission: 'master' },
        { reg: commandPattern('(版本|version)'), fnc: 'version' }
      ]
    })
  }

  async update (e: HostEvent): Promise<boolean> {
    const ctx = await contextOf(e)
    const { rt, s, tr, say } = ctx
    if (!s.isMaster) return false
    const force = /强制|force/i.test(s.text)
    const svc = rt.need('update')
    await say('update.start', { force: force ? tr('update.forced') : '' })
    let result: UpdateResult
    try {
      result = await svc.update({ force, onInstall: (command) => say('update.installing', { command }) })
    } catch (err) {
      await s.reply(refusalText(ctx, err))
      return true
    }
    if (result.before === result.after && !result.install) {
      const v = await svc.version()
      await say('update.upToDate', { commit: v.shortCommit ?? '-', date: day(v.date) })
      return true
    }
    if (result.before !== result.after) await s.reply(doneText(ctx, result))
    if (result.install && !result.install.ok) {
      await say('update.installFailed', { error: result.install.error ?? '?', command: result.install.command, restart: HOST_RESTART_COMMAND })
      return true
    }
    if (result.install) await say('update.installed')
    await say('update.restarting')
    if (!(await restartHost(e))) await say('update.noRestart')
    return true
  }

  async version (e: HostEvent): Promise<boolean> {
    const { rt, s, tr } = await contextOf(e)
    const svc = rt.need('update')
    const v = await svc.version()
    const lines = [tr('version.line', { version: v.version })]
    if (v.git) lines.push(tr('version.commit', { commit: v.shortCommit ?? '-', date: day(v.date), branch: v.branch ?? '-' }) + (v.dirty ? `（${tr('version.dirty')}）` : ''))
    else lines.push(tr('version.noGit'))
    const deps = svc.dependencies()
    if (deps.featuresOff.length && s.isMaster) {
      lines.push(tr('version.featuresOff', { lines: deps.featuresOff.map((f) => `• ${f.text} (${f.packages.join(', ')})`).join('\n'), command: deps.command }))
    }
    await s.reply(lines.join('\n'))
    return true
  }
}

function doneText ({ tr }: BotContext, r: UpdateResult): string {
  const log = r.commits.map((c) => `• ${c.hash} ${c.subject}`).join('\n')
  const more = r.total > r.commits.length ? `\n${tr('update.more', { n: r.total - r.commits.length })}` : ''
  return tr('update.done', { before: r.before.slice(0, 7), after: r.after.slice(0, 7), total: r.total, log: log + more })
}

function refusalText ({ tr, rt }: BotContext, err: unknown): string {
  if (err instanceof UpdateRefused) {
    switch (err.reason) {
      case 'dirty': return tr('update.refused.dirty', { files: err.detail.slice(0, 10).map((f) => `• ${f}`).join('\n') })
      case 'diverged': return tr('update.refused.diverged')
      case 'noGit': return tr('update.refused.noGit')
      case 'noUpstream': return tr('update.refused.noUpstream')
      case 'fetchFailed': return tr('update.refused.fetchFailed', { error: err.message })
      case 'busy': return tr('update.refused.busy')
    }
  }
  rt.log.error('The update failed', {}, err)
  return tr('update.failed', { error: errorText(err) })
}
