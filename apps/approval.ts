// `#lx同意 <id>` / `#lx拒绝 <id>`: the master answers a dangerous tool's approval request
// (lib/tools/approval.ts). `#lx同意 <id> 会话` also approves that tool for the rest of the conversation
// (within `approvalSessionBypassMaxRisk`). `#lx待批准` lists the waiting requests.
import { pluginBase, type HostEvent } from '../lib/host/port.js'
import { commandPattern } from './command.js'
import { contextOf } from './context.js'

const APPROVE = '(同意|批准|approve)\\s*(\\S+)(\\s+(会话|session))?'
const REFUSE = '(拒绝|deny|refuse)\\s*(\\S+)'

export class LingxiApproval extends pluginBase() {
  constructor () {
    super({
      name: 'lingxi-approval',
      dsc: '灵犀工具调用审批',
      event: 'message',
      priority: 40,
      rule: [
        { reg: commandPattern(APPROVE), fnc: 'approve', permission: 'master' },
        { reg: commandPattern(REFUSE), fnc: 'refuse', permission: 'master' },
        { reg: commandPattern('(待批准|待审批|approvals)'), fnc: 'pending', permission: 'master' }
      ]
    })
  }

  async approve (e: HostEvent): Promise<boolean> { return this.answer(e, true) }
  async refuse (e: HostEvent): Promise<boolean> { return this.answer(e, false) }

  async pending (e: HostEvent): Promise<boolean> {
    const { rt, s, tr } = await contextOf(e)
    if (!s.isMaster) return false
    const list = rt.optional('tools')?.registry.approvals.list() ?? []
    await s.reply(list.length
      ? list.map((r) => tr('approval.item', { id: r.id, tool: r.toolName, who: r.scope.nickname ?? r.scope.userId })).join('\n')
      : tr('approval.none'))
    return true
  }

  private async answer (e: HostEvent, approved: boolean): Promise<boolean> {
    const { rt, s, say } = await contextOf(e)
    if (!s.isMaster) return false
    const m = commandPattern(approved ? APPROVE : REFUSE).exec(s.text.trim())
    const id = m?.[2] ?? ''
    const gate = rt.optional('tools')?.registry.approvals
    const req = gate?.decide(id, approved, { session: approved && Boolean(m?.[3]) })
    if (!req) {
      await say('approval.notFound', { id })
      return true
    }
    await say(approved ? 'approval.approved' : 'approval.refused', { tool: req.toolName, id: req.id })
    rt.log.info(approved ? 'Tool call approved in chat' : 'Tool call refused in chat', { tool: req.toolName, id: req.id })
    return true
  }
}
