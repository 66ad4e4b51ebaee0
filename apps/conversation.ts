// `#lx结束对话` (`#lx重置对话`, `#lx新对话`, `#lx reset`, `#lx new chat`): starts the sender's conversation
// afresh: its stored messages, its summary, the pipeline's context of it and the why records of its
// answers are cleared (lib/chat/conversations.ts); memories stay (`#lx忘记我` erases those). In a group
// that shares one conversation (chat.groupConversation `group`), that conversation is everyone's: only
// the master and the group's owner and admins may reset it.
import { chatScopeOf, isSharedConversation } from '../lib/chat/scope.js'
import { clearConversation } from '../lib/chat/conversations.js'
import { pluginBase, type HostEvent } from '../lib/host/port.js'
import { commandPattern } from './command.js'
import { contextOf } from './context.js'

export class LingxiConversation extends pluginBase() {
  constructor () {
    super({
      name: 'lingxi-conversation',
      dsc: '灵犀对话重置',
      event: 'message',
      priority: 50,
      rule: [{ reg: commandPattern('(结束对话|重置对话|清除对话|新对话|reset|new\\s*chat)'), fnc: 'reset' }]
    })
  }

  async reset (e: HostEvent): Promise<boolean> {
    const { rt, s, say } = await contextOf(e)
    const scope = chatScopeOf(s, rt.config.get())
    const shared = isSharedConversation(scope)
    if (shared && !s.isMaster && !s.isGroupAdmin) { await say('conversation.sharedNeedsAdmin', {}, true); return true }
    const cleared = await clearConversation(rt.need('conversations'), scope.conversationId)
    await say(cleared ? (shared ? 'conversation.resetShared' : 'conversation.reset') : 'conversation.nothingToReset', {}, s.isGroup)
    return true
  }
}
