// Categories `user`, `group`, `message`: who is talking, where, and sending to the current chat,
// through the host port (works under Miao, TRSS and the standalone host).
import { botNickname, masters, sendGroup, sendPrivate } from '../../host/port.js'
import { inGroup, inQqChat, str, text, type BuiltinTool } from './util.js'

export function hostTools (): BuiltinTool[] {
  return [
    {
      name: 'get_user_info',
      description: '获取当前对话用户的信息 (the current user: id, nickname, whether master)',
      category: 'user',
      risk: 'low',
      dangerous: false,
      inputSchema: { type: 'object', properties: {} },
      execute: async (_args, ctx) => text({
        userId: ctx.scope.userId,
        nickname: ctx.scope.nickname ?? '',
        isMaster: ctx.scope.isMaster,
        permission: ctx.userPermission
      })
    },
    {
      name: 'get_group_info',
      description: '获取当前群聊的信息 (the current group: id, name, bot name); private chats have no group',
      category: 'group',
      risk: 'low',
      dangerous: false,
      inputSchema: { type: 'object', properties: {} },
      offeredIn: inGroup,
      execute: async (_args, ctx) => {
        if (!ctx.scope.groupId) return text('This is a private chat, not a group', true)
        let botName = ctx.scope.botName ?? ''
        try { botName ||= botNickname(ctx.scope.botId) } catch { /* no host (API call) */ }
        let masterCount = 0
        try { masterCount = (await masters(ctx.scope.botId)).length } catch { /* no host */ }
        return text({ groupId: ctx.scope.groupId, groupName: ctx.scope.groupName ?? '', botId: ctx.scope.botId ?? '', botName, masterCount })
      }
    },
    {
      name: 'send_message',
      description: '向当前会话发送一条额外的消息 (send an extra text message to the current chat)',
      category: 'message',
      risk: 'medium',
      dangerous: false,
      inputSchema: { type: 'object', properties: { text: { type: 'string', description: 'message text' } }, required: ['text'] },
      offeredIn: inQqChat,
      execute: async (args, ctx) => {
        const body = str(args.text)
        if (!body) return text('text is required', true)
        if (!inQqChat(ctx.scope)) return text('Only available in a QQ chat', true)
        const r = ctx.scope.groupId
          ? await sendGroup(ctx.scope.groupId, body.slice(0, 4000), ctx.scope.botId)
          : await sendPrivate(ctx.scope.userId, body.slice(0, 4000), ctx.scope.botId)
        if (!r || r.error) return text('The message could not be sent', true)
        return text('sent')
      }
    }
  ]
}
