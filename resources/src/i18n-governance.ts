// Texts of the governance page (pages/governance.tsx): who may use the bot, quotas, moderation. The fields'
// labels and help are the configuration schema's (form-engine.tsx); `bv.<path>.<value>` names a value. Merged into i18n.ts.
type Dict = Record<string, string>

export const governanceZh: Dict = {
  governance: '访问与内容',
  'gv.hint': '谁可以使用机器人、能用多少、不能说什么。主人始终不受访问名单和额度限制。每项都可以为单个群单独设置（下方“按群设置”）。',
  'gv.card.user': '按用户设置额度', 'gv.userHint': '输入 QQ 号，为这个人单独设置额度（在所有聊天中合计）；未设置的项沿用全局的每人额度。',
  'gv.card.access': '访问名单', 'gv.card.quotas': '额度', 'gv.card.moderation': '内容审核', 'gv.card.group': '按群设置',
  'gv.groupHint': '输入群号，为这个群单独设置功能名单、额度和审核严格度；未设置的项沿用上面的全局值。',
  'gv.regexes': '审核正则表达式', 'gv.regexesHint': '每行一个：pattern（不区分大小写）或 /pattern/flags（flags 可用 i m s u）。可能让机器人卡死的写法（重复的组里再重复或含 |、超过一个不限次数的重复如 .* 或 +、反向引用、环视、超过 200 字符）会被拒绝并说明原因。',
  'gv.hits': '审核命中记录', 'gv.when': '时间', 'gv.who': '用户', 'gv.where': '位置', 'gv.group': '群', 'gv.direction': '方向', 'gv.anyDirection': '全部方向',
  'gv.rules': '命中规则', 'gv.action': '处理', 'gv.dir.input': '用户消息', 'gv.dir.output': '模型回答', 'gv.act.mask': '打码', 'gv.act.refuse': '拦截', 'bv.access.refusal.silent': '不回应', 'bv.access.refusal.reply': '回复提示',
  'bv.moderation.strictness.off': '关闭', 'bv.moderation.strictness.mask': '打码', 'bv.moderation.strictness.refuse': '拦截'
}

export const governanceEn: Dict = {
  governance: 'Governance',
  'gv.hint': 'Who may use the bot, how much, and what it may say. Masters always pass the access lists and quotas. Each can also be set for one group ("Per group" below).',
  'gv.card.user': 'Per user quota', 'gv.userHint': 'Enter a QQ id to give that user their own limits (over all chats); what is left unset follows the global per-user limits.',
  'gv.card.access': 'Access', 'gv.card.quotas': 'Quotas', 'gv.card.moderation': 'Moderation', 'gv.card.group': 'Per group',
  'gv.groupHint': 'Enter a group id to set its own feature lists, quotas and moderation strictness; what it leaves unset follows the global values above.',
  'gv.regexes': 'Moderation regular expressions', 'gv.regexesHint': 'One a line: pattern (case-insensitive) or /pattern/flags (flags among i m s u). Patterns that could hang the bot (a repeated group that repeats or holds |, more than one unbounded repeat such as .* or +, back-references, lookarounds, over 200 characters) are refused with the reason.',
  'gv.hits': 'Moderation hits', 'gv.when': 'When', 'gv.who': 'User', 'gv.where': 'Where', 'gv.group': 'group', 'gv.direction': 'Direction', 'gv.anyDirection': 'Any direction',
  'gv.rules': 'Rules', 'gv.action': 'Action', 'gv.dir.input': 'user message', 'gv.dir.output': 'model answer', 'gv.act.mask': 'masked', 'gv.act.refuse': 'refused', 'bv.access.refusal.silent': 'nothing', 'bv.access.refusal.reply': 'a notice',
  'bv.moderation.strictness.off': 'off', 'bv.moderation.strictness.mask': 'mask', 'bv.moderation.strictness.refuse': 'refuse'
}
