// The tools domain's sections: `tools` (which tools the model may call, approvals, confirmations) and
// `qqActions` (who may have the bot act on a group, lib/tools/builtin/qq-*.ts), and the per-group
// overrides groups.<id>.events and groups.<id>.qqActions. Defaults written to config/default.yaml
// (lib/config/README.md, "A domain's section").
import { z } from 'zod'
import { doc, sectionDefaults, type FieldText } from '../config/field-doc.js'

const probability = (): z.ZodNumber => z.number().min(0).max(1)
/** A list of tool or category names, [] by default. */
const toolList = (text: FieldText, note?: string): z.ZodDefault<z.ZodArray<z.ZodString>> =>
  doc(z.array(z.string()).default([]), text, note === undefined ? {} : { note })

/** The reaction probability per event type; unset = tools.eventProbability. */
export const eventsShape = {
  poke: doc(probability(), ['Poke', '戳一戳', 'Empty: the event reaction probability above.', '留空 = 使用上面的事件反应概率。']),
  join: doc(probability(), ['New member', '新成员入群', 'Empty: the default (0, no reaction).', '留空 = 默认值（0，不反应）。']),
  recall: doc(probability(), ['Recalled message', '消息撤回', 'Empty: the default (0, no reaction).', '留空 = 默认值（0，不反应）。'])
}

export const toolsSection = doc(z.strictObject({
  enabled: doc(z.boolean(), ['Tools on', '启用工具'], { default: true }),
  enabledCategories: toolList(['Enabled categories', '启用的分类', 'Empty: every category.', '留空：所有分类。']),
  allowedTools: toolList(['Allowed tools', '允许的工具', 'Empty: every tool.', '留空：所有工具。']),
  disabledTools: toolList(['Disabled tools', '停用的工具']),
  allowDangerous: doc(z.boolean(), ['Allow dangerous tools', '允许危险工具', 'Dangerous tools are offered to the model (approval still applies).', '把危险工具提供给模型（仍需审批）。'], { default: false }),
  dangerousTools: toolList(['Dangerous tools', '危险工具', 'Tools treated as dangerous besides the built-in list.', '除内置列表外视为危险的工具。']),
  approvalMode: doc(z.enum(['auto', 'manual', 'deny', 'allow']), ['Approval mode', '审批方式', 'auto: by risk; manual: always ask; deny: never run risky tools; allow: never ask.', '自动：按风险；手动：总是询问；拒绝：从不运行有风险的工具；允许：从不询问。'], { default: 'auto' }),
  approvalTimeoutMs: doc(z.number().int().min(1000).max(3600000), ['Approval timeout (ms)', '审批超时（毫秒）', 'An unanswered request is refused after this.', '超过这个时间未答复的请求会被拒绝。'], { default: 60000 }),
  approvalLowRiskTools: toolList(['Low-risk tools', '低风险工具']),
  approvalMediumRiskTools: toolList(['Medium-risk tools', '中风险工具']),
  approvalHighRiskTools: toolList(['High-risk tools', '高风险工具']),
  approvalBypassTools: toolList(['Tools that never ask', '免审批工具']),
  approvalAllowSessionBypass: doc(z.boolean(), ['Approve for the session', '允许整个会话免审批', 'The master may approve a tool for the rest of the conversation.', '主人可以批准某个工具在本次会话中不再询问。'], { default: true }),
  approvalSessionBypassMaxRisk: doc(z.enum(['low', 'medium', 'high']), ['Session approval up to risk', '会话免审批的最高风险'], { default: 'medium' }),
  maxRounds: doc(z.number().int().min(1).max(50), ['Tool rounds per answer', '每次回答的工具轮数', 'Model/tool round trips at most (1-50).', '模型与工具之间最多往返的轮数（1-50）。'], { default: 5 }),
  // Tools domain additions: categories switched off, script-folder watcher, event reply probability.
  disabledCategories: toolList(['Disabled categories', '停用的分类', 'A tool of such a category is not offered.', '这些分类的工具不会提供给模型。']),
  watchScripts: doc(z.boolean().default(true), ['Reload script tools', '脚本工具变化时重新加载', 'Reload <data>/tools/*.js|ts when their files change.', '<data>/tools/*.js|ts 文件变化时重新加载。']),
  eventProbability: doc(z.number().min(0).max(1).default(0.1), ['Event reaction probability', '事件反应概率', 'Chance (0-1) that the bot reacts to a poke, a new member or a recalled message.', '被戳一戳、有新成员、有人撤回消息时机器人作出反应的概率（0-1）。'], {
    note: 'Probability (0-1) that the bot reacts to non-message events: a poke of the bot, a new member (join), a recalled message (recall). eventProbabilities sets one per event type (unset = this value); groups.<id>.events overrides them per group.'
  }),
  /** per event type (poke, join = a new member, recall = a recalled message); unset = eventProbability */
  eventProbabilities: doc(z.strictObject(eventsShape).partial().default({ join: 0, recall: 0 }), ['Event probabilities', '各事件的反应概率', 'Per event type; unset = the event reaction probability.', '按事件类型设置；未设置 = 使用事件反应概率。']),
  // Time limit (ms) of a script tool's load and of each call; the script's worker is stopped past it.
  scriptTimeoutMs: doc(z.number().int().min(100).max(600000).default(10000), ['Script tool time limit (ms)', '脚本工具时限（毫秒）', 'Of a script tool\'s load and of each call.', '脚本工具加载和每次调用的时限。'], {
    note: 'Time limit (ms) of a script tool\'s load and of each call: a script runs in a confined child process that is stopped past it (lib/tools/README.md, "Script tools run confined").'
  }),
  // A call that may carry text the asker did not write waits for the asker's "确认 <code>" (lib/tools/policy.ts).
  confirmTainted: doc(z.boolean().default(true), ['Confirm calls from others\' words', '他人内容引起的调用需确认', 'When the chat held text the asker did not write (a quoted or forwarded message, the group log, a fetched page, a knowledge passage, a tool result), group actions and tools above low risk that do more than read wait for the asker to reply "确认 <code>".', '对话里有不是提问者本人写的内容（引用或转发的消息、群聊记录、抓取的网页、知识库段落、工具结果）时，群管理操作和高于低风险、不只是读取的工具要等提问者回复“确认 <编号>”。'], {
    note: 'When the chat held text the asker did not write (a quoted or forwarded message, the group log, a fetched page, a knowledge passage, a tool result), group actions and every tool above low risk that does more than read wait for the asker to reply "确认 <code>" in the chat (README "Security model", taint).'
  }),
  confirmTimeoutMs: doc(z.number().int().min(5000).max(600000).default(60000), ['Confirmation timeout (ms)', '确认超时（毫秒）', 'An unconfirmed call is dropped after this.', '超过这个时间未确认的调用会被取消。']),
  // At most this many tools go to the model per request (chosen by relevance, lib/tools/select.ts).
  maxToolsPerRequest: doc(z.number().int().min(1).max(128).default(64), ['Most tools per request', '每次请求最多工具数', 'At most this many tools go to the model in one request (1-128; channels refuse more than 128): the always-on ones first, then the most relevant to the talk.', '一次发给模型的工具最多这么多个（1-128，渠道一般不接受超过 128 个）：先是常驻工具，再按和对话的相关度挑选。'], {
    note: 'At most this many tools go to the model in one request (channels refuse more than 128 functions): the always-on ones, then those most relevant to the user\'s message and the last few turns.'
  }),
  // Tools sent in every request while they are offered (before the relevance choice).
  alwaysOnTools: toolList(['Always-on tools', '常驻工具', 'Tool names, sent in every request while enabled.', '工具名；只要启用就每次都发给模型。'], 'Tools sent in every request while they are enabled and offered (besides the preset\'s own list).')
}), ['Tools and approval', '工具与审批', 'Which tools the model may call and which need the master\'s approval.', '模型可以调用哪些工具，哪些需要主人批准。'])

// QQ actions (lib/tools/builtin/qq-*.ts): who may ask the bot to act on a group; per group
// (groups.<id>.qqActions) every field is optional and an unset one falls back to the global value.
export const qqActionsShape = {
  /** off: no QQ action runs in the group (the tools answer so) */
  enabled: doc(z.boolean(), ['Allow group actions', '允许群操作', 'Off: the QQ action tools (mute, kick, recall, send an image...) do nothing and tell the model so.', '关闭后，禁言、踢人、撤回、发图等 QQ 操作工具一律不执行（工具会告诉模型）。'], { default: true }),
  /** QQ ids who may ask for moderation (mute, kick, recall, card, title, essence, notice) besides the masters */
  allowedUsers: doc(z.array(z.string().regex(/^\d{1,20}$/, 'a QQ id')).max(1000), ['Who may ask for moderation', '可以要求管理操作的人', 'QQ numbers; masters always may. Moderation: mute, kick, recall, card, title, essence, notice.', 'QQ 号；主人总是可以。管理操作：禁言、踢人、撤回、名片、头衔、精华、公告。'], { default: [] }),
  /** the group's admins and owner may ask for moderation */
  adminsMayAsk: doc(z.boolean(), ['Group owner and admins may ask', '群主和管理员可以要求', 'On: the group\'s owner and admins may have the bot moderate too.', '开启时，群主和管理员也能让机器人执行管理操作。'], { default: true }),
  /** anyone may ask for the sending actions (poke, image, voice, file, face, music) */
  membersMaySend: doc(z.boolean(), ['Members may have the bot send', '成员可以让机器人发东西', 'Poke, image, voice, file, face, music card.', '戳一戳、发图片、语音、文件、表情、音乐卡片。'], {
    default: true,
    note: 'Anyone may ask for the sending actions (poke, image, voice, file, face, music).'
  })
}

const qqActions = doc(z.strictObject({
  ...qqActionsShape,
  /** a mute asked for longer is cut to this (QQ's own limit is 30 days) */
  maxMuteSeconds: doc(z.number().int().min(60).max(2592000), ['Longest mute (seconds)', '最长禁言（秒）', 'A longer mute asked for is cut to this (60 s to 30 days).', '要求更长的禁言会被截到这么长（60 秒到 30 天）。'], { default: 86400 }),
  /** QQ actions of this risk or higher wait for the master's `#lx同意` unless the master asked (off: never) */
  approvalRisk: doc(z.enum(['medium', 'high', 'off']), ['Risk that needs the master\'s approval', '需要主人批准的风险级别', 'Actions of this risk or higher (kick, mute all and notices are high) wait for the master\'s #lx同意 unless the master asked.', '这个级别及以上的操作（踢人、全员禁言、公告是高风险）要等主人 #lx同意，主人自己要求时除外。'], {
    default: 'high',
    note: 'Actions of this risk or higher (kick, mute-all, notice are high; the other moderation medium) wait for the master\'s #lx同意 unless a master asked: high, medium or off.'
  })
}), ['QQ group actions', 'QQ 群操作', 'Who may ask the bot to act on a group (mute, kick, recall, ...).', '谁可以让机器人在群里执行操作（禁言、踢人、撤回……）。'], {
  note: 'QQ actions the model can take in a group through the host (tools of category qq): mute, unmute, mute-all, kick, recall, card, special title, essence, notice (moderation), poke, image, voice, file, QQ face, music card (sending). Checked before anything runs or the master is asked: the bot must be admin (owner for special titles and for acting on admins), the asker\'s role must allow it (nobody acts on the owner; only the owner or a master on admins), and the asker must be allowed below. groups.<id>.qqActions overrides enabled, allowedUsers, adminsMayAsk, membersMaySend per group.'
})
export const qqActionsSection = qqActions.prefault(sectionDefaults(qqActions))
