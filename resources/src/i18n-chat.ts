// Texts of the chat settings page (pages/chat-settings.tsx, form-engine.tsx) and the channel's vision switch,
// in zh-CN and en. A setting's label and help are the configuration schema's title and description
// (GET /api/config/schema); here only what the schema does not hold: the cards, the form's own words,
// `bs.<path>.grouphelp` (the per-group editor's help where it differs) and `bv.<path>.<value>` (the name
// of one of its values where the shared `v_<value>` does not fit). Merged into i18n.ts's dictionaries.
type Dict = Record<string, string>

export const chatZh: Dict = {
  chatSettings: '聊天设置',
  'bs.card.delivery': '回复方式', 'bs.card.conversation': '会话与触发', 'bs.card.input': '读取消息', 'bs.card.groupLog': '群聊记录',
  'bs.card.proactive': '主动发言', 'bs.card.events': '事件反应', 'bs.card.group': '单个群的设置',
  'bs.groupHint': '每一项默认继承上面的全局设置；选择或填写一个值即为这个群单独设置，改回“继承全局”或清空数字即取消。',
  'bs.globalHint': '对所有聊天生效；可在页面底部为单个群单独设置。数字留空并保存会恢复默认值。',
  'bs.inherit': '继承全局', 'bs.colon': '：', 'bs.override': '单独设置', 'bs.on': '开', 'bs.off': '关', 'bs.none': '（空）', 'bs.auto': '自动',
  'bs.default': '留空 = 默认值', 'bs.listHint': '用逗号分隔', 'bs.notNumber': '请输入数字', 'bs.noChanges': '没有更改',
  'bs.groupOpen': '打开', 'bs.groupCustom': '这个群有单独设置', 'bs.groupNew': '这个群还没有单独设置',
  'bv.delivery.markdown.plain': '转为纯文本', 'bv.delivery.markdown.keep': '按原样发送',
  'bv.delivery.longAnswer.forward': '合并转发', 'bv.delivery.longAnswer.image': '渲染成图片', 'bv.delivery.longAnswer.off': '直接发送',
  'bv.delivery.stream.off': '关闭', 'bv.delivery.stream.private': '仅私聊', 'bv.delivery.stream.on': '所有聊天',
  'bv.chat.groupConversation.user': '每人一个会话', 'bv.chat.groupConversation.group': '全群共用一个会话',
  'bs.tools.eventProbabilities.poke.grouphelp': '这个群里被戳时的反应概率（0-1）。', 'bs.tools.eventProbabilities.join.grouphelp': '这个群有新成员时的反应概率（0-1）。',
  'bs.tools.eventProbabilities.recall.grouphelp': '这个群有人撤回消息时的反应概率（0-1）。',

  'bs.card.tools': '工具数量', 'bs.card.reminders': '提醒',
  'bs.card.guard': '账号风控',
  'bv.guard.forwardAs.forward': '合并转发', 'bv.guard.forwardAs.image': '图片',
  'bs.card.qqActions': 'QQ 群操作',
  'bv.qqActions.approvalRisk.high': '高风险', 'bv.qqActions.approvalRisk.medium': '中风险及以上', 'bv.qqActions.approvalRisk.off': '从不（不建议）',

  vision: '模型能看图', visionHint: '关闭时，图片先由“聊天设置”里的看图渠道描述成文字，再交给这个渠道的模型。'
}

export const chatEn: Dict = {
  chatSettings: 'Chat behaviour',
  'bs.card.delivery': 'How answers go out', 'bs.card.conversation': 'Conversations and triggers', 'bs.card.input': 'What the bot reads', 'bs.card.groupLog': 'Group log',
  'bs.card.proactive': 'Proactive replies', 'bs.card.events': 'Event reactions', 'bs.card.group': 'Settings of one group',
  'bs.groupHint': 'Every setting follows the global one above; pick or type a value to set it for this group, choose "Inherit" or empty a number to undo.',
  'bs.globalHint': 'Apply to every chat; single groups can differ (bottom of the page). An emptied number goes back to its default when saved.',
  'bs.inherit': 'Inherit', 'bs.colon': ': ', 'bs.override': 'Set for this group', 'bs.on': 'on', 'bs.off': 'off', 'bs.none': '(empty)', 'bs.auto': 'automatic',
  'bs.default': 'empty = default', 'bs.listHint': 'comma-separated', 'bs.notNumber': 'enter a number', 'bs.noChanges': 'Nothing changed',
  'bs.groupOpen': 'Open', 'bs.groupCustom': 'This group has its own settings', 'bs.groupNew': 'This group has no own settings yet',
  'bv.delivery.markdown.plain': 'plain text', 'bv.delivery.markdown.keep': 'as written',
  'bv.delivery.longAnswer.forward': 'forward message', 'bv.delivery.longAnswer.image': 'rendered image', 'bv.delivery.longAnswer.off': 'send as is',
  'bv.delivery.stream.off': 'off', 'bv.delivery.stream.private': 'private chats only', 'bv.delivery.stream.on': 'all chats',
  'bv.chat.groupConversation.user': 'one per user', 'bv.chat.groupConversation.group': 'one shared by the group',
  'bs.tools.eventProbabilities.poke.grouphelp': 'Chance (0-1) of reacting to a poke in this group.', 'bs.tools.eventProbabilities.join.grouphelp': 'Chance (0-1) of reacting to a new member of this group.',
  'bs.tools.eventProbabilities.recall.grouphelp': 'Chance (0-1) of reacting to a message recalled in this group.',

  'bs.card.tools': 'Tools per request', 'bs.card.reminders': 'Reminders',
  'bs.card.guard': 'Account risk guard',
  'bv.guard.forwardAs.forward': 'Merged forward', 'bv.guard.forwardAs.image': 'Image',
  'bs.card.qqActions': 'QQ group actions',
  'bv.qqActions.approvalRisk.high': 'High', 'bv.qqActions.approvalRisk.medium': 'Medium and high', 'bv.qqActions.approvalRisk.off': 'Never (not advised)',

  vision: 'The model can read images', visionHint: 'Off: images are first described by the captioning channel (Chat behaviour page), then given to this channel\'s model.'
}
