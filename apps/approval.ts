// `#lx同意 <id>` / `#lx拒绝 <id>`: the master answers a dangerous tool's approval request (spec 2.11,
// lib/tools/approval.ts). `#lx同意 <id> 会话` also approves that tool for the rest of the conversation
// (within `approvalSessionBypassMaxRisk`). `#lx待批准` lists the waiting requests.
import { ensureStarted } from '../lib/lifecycle.js'
import { pluginBase, type HostEvent } from '../lib/host/port.js'
import { commandPattern } from './command.js'

export class LingxiApproval extends pluginBase() {
  constructor () {
    super({
      name: 'lingxi-approval',
      dsc: '灵犀工具调用审批',
      event: 'message',
      priority: 40,
      rule: [
        { reg: commandPattern('(同意|批准|approve)\\s*(\\S+)(\\s+(会话|session))?'), fnc: 'approve', permission: 'master' },
        { reg: commandPattern('(拒绝|deny|refuse)\\s*(\\S+)'), fnc: 'refuse', permission: 'master' },
        { reg: commandPattern('(待批准|待审批|approvals)'), fnc: 'pending', permission: 'master' }
      ]
    })
  }

  async approve (e: HostEvent): Promise<boolean> { return this.answer(e, true) }
  async refuse (e: HostEvent): Promise<boolean> { return this.answer(e, false) }

  async pending (e: HostEvent): Promise<boolean> {
    if (!e.isMaster) return false
    const { rt } = await ensureStarted()
    const list = rt.toolKit?.registry.approvals.list() ?? []
    await e.reply(list.length ? list.map((r) => `${r.id}: ${r.toolName} (${r.scope.nickname ?? r.scope.userId})`).join('\n') : '没有等待批准的工具调用')
    return true
  }

  private async answer (e: HostEvent, approved: boolean): Promise<boolean> {
    if (!e.isMaster) return false
    const { rt } = await ensureStarted()
    const text = (e.msg ?? e.raw_message ?? '').trim()
    const m = approved
      ? commandPattern('(同意|批准|approve)\\s*(\\S+)(\\s+(会话|session))?').exec(text)
      : commandPattern('(拒绝|deny|refuse)\\s*(\\S+)').exec(text)
    const id = m?.[2] ?? ''
    const gate = rt.toolKit?.registry.approvals
    const req = gate?.decide(id, approved, { session: approved && Boolean(m?.[3]) })
    if (!req) {
      await e.reply(`没有编号为 ${id} 的待批准请求 (可能已超时)`)
      return true
    }
    await e.reply(approved ? `已批准 ${req.toolName} (${req.id})` : `已拒绝 ${req.toolName} (${req.id})`)
    rt.log.info(approved ? 'Tool call approved in chat' : 'Tool call refused in chat', { tool: req.toolName, id: req.id })
    return true
  }
}
