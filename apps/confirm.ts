// "确认 1234" / "取消 1234": the asker answers the approval policy's question about a tool call that may
// carry someone else's words (lib/tools/policy.ts, lib/tools/confirm.ts). Only the asker, in the chat the
// call came from, with the code drawn for it, settles it; any other message is passed on untouched.
// No command prefix: the question names the exact reply.
import { pluginBase, type HostEvent } from '../lib/host/port.js'
import { contextOf } from './context.js'

// loose on purpose (the host matches the raw text): full-width digits and 確認 are read in the handler
const LOOSE = '(确认|確認|confirm|取消|cancel)'
const EXACT = /^(确认|確認|confirm|取消|cancel)\s*(\d{4})$/i

export class LingxiConfirm extends pluginBase() {
  constructor () {
    super({
      name: 'lingxi-confirm',
      dsc: '灵犀工具调用的本人确认',
      event: 'message',
      priority: 40,
      rule: [{ reg: LOOSE, fnc: 'answer' }]
    })
  }

  async answer (e: HostEvent): Promise<boolean> {
    const m = EXACT.exec(String(e.msg ?? '').normalize('NFKC').trim())
    if (!m) return false
    const { rt, s } = await contextOf(e)
    const gate = rt.optional('tools')?.registry.confirms
    const who = { userId: s.userId, groupId: s.groupId }
    const code = m[2] ?? ''
    if (!gate?.waiting(who, code)) return false
    const yes = !/^(取消|cancel)$/i.test(m[1] ?? '')
    const req = gate.answer(who, code, yes)
    if (req) rt.log.info(yes ? 'Tool call confirmed by the asker' : 'Tool call cancelled by the asker', { tool: req.toolName, userId: s.userId })
    return true
  }
}
