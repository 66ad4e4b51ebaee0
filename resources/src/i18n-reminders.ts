// Texts of the reminders page (pages/reminders.tsx), zh-CN and en. Merged into i18n.ts's dictionaries.
type Dict = Record<string, string>

export const remindersZh: Dict = {
  reminders: '提醒',
  'rm.hint': '用户在聊天里让机器人设置的提醒和定时任务（例如「5分钟后提醒我喝水」「每周一9点提醒发周报」），到时间后发到设置它的群（@ 设置人）或私聊。这里可以查看和取消。',
  'rm.next': '下次时间', 'rm.repeat': '重复', 'rm.chat': '发到', 'rm.message': '提醒内容', 'rm.user': '设置人',
  'rm.private': '私聊', 'rm.group': '群 {id}', 'rm.once': '一次', 'rm.cancel': '取消提醒', 'rm.confirm': '确定取消这个提醒？',
  'rm.cancelled': '已取消', 'rm.filterUser': '按用户 ID 筛选', 'rm.filterGroup': '按群号筛选', 'rm.filter': '筛选', 'rm.fired': '已发送 {n} 次',
  'rm.none': '没有待发送的提醒。'
}

export const remindersEn: Dict = {
  reminders: 'Reminders',
  'rm.hint': 'Reminders and scheduled tasks users asked the bot for in chat ("remind me in 5 minutes to drink water", "every Monday at 9 remind the group of the weekly report"). At their time they are sent to the group they were set in (@-mentioning the user) or the private chat. List and cancel them here.',
  'rm.next': 'Next', 'rm.repeat': 'Repeats', 'rm.chat': 'Sent to', 'rm.message': 'Text', 'rm.user': 'Set by',
  'rm.private': 'private chat', 'rm.group': 'group {id}', 'rm.once': 'once', 'rm.cancel': 'Cancel', 'rm.confirm': 'Cancel this reminder?',
  'rm.cancelled': 'Cancelled', 'rm.filterUser': 'Filter by user id', 'rm.filterGroup': 'Filter by group id', 'rm.filter': 'Filter', 'rm.fired': 'sent {n} times',
  'rm.none': 'No pending reminders.'
}
