// Texts of the account-risk card on the overview (guard-card.tsx), zh-CN and en. Merged into i18n.ts's dictionaries.
type Dict = Record<string, string>

export const guardZh: Dict = {
  'gd.title': '账号风控',
  'gd.hint': '机器人自己发出的消息（按群统计，私聊合为一项）：发送频率、长消息、重复内容、链接和发送失败。风险达到阈值时自动放慢发送、长回复改为合并转发、暂停主动插话，并私聊通知主人；信号回落一段时间后恢复。',
  'gd.chat': '会话', 'gd.risk': '风险', 'gd.state': '状态', 'gd.signals': '主要信号', 'gd.since': '开始于',
  'gd.group': '群 {id}', 'gd.private': '私聊', 'gd.threshold': '阈值 {n}',
  'gd.allClear': '所有会话正常（最近一小时有发送的会话：{n} 个）。',
  'gd.normal': '正常', 'gd.guarded': '风控中', 'gd.cooling': '冷却中',
  'gd.perMinute': '每分钟 {n} 条', 'gd.perHour': '每小时 {n} 条', 'gd.long': '长消息 {n}', 'gd.repeats': '重复 {n}',
  'gd.links': '链接 {n}', 'gd.failures': '失败 {n}'
}

export const guardEn: Dict = {
  'gd.title': 'Account risk',
  'gd.hint': 'What the bot itself sends (per group; private chats as one): rate, long messages, repeats, links and failed sends. Past the threshold the bot slows down, sends long answers as forwards, pauses proactive replies and tells the master privately; it recovers once the signals have stayed low for a while.',
  'gd.chat': 'Chat', 'gd.risk': 'Risk', 'gd.state': 'State', 'gd.signals': 'Main signals', 'gd.since': 'Since',
  'gd.group': 'group {id}', 'gd.private': 'private chats', 'gd.threshold': 'threshold {n}',
  'gd.allClear': 'Every chat is normal ({n} chats sent something in the last hour).',
  'gd.normal': 'normal', 'gd.guarded': 'guarded', 'gd.cooling': 'cooling down',
  'gd.perMinute': '{n} a minute', 'gd.perHour': '{n} an hour', 'gd.long': '{n} long', 'gd.repeats': '{n} repeats',
  'gd.links': '{n} links', 'gd.failures': '{n} failed'
}
