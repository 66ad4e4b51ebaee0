// Texts of the chat settings page (pages/chat-settings.tsx, settings.tsx) and the channel's vision switch,
// in zh-CN and en. `bs.<path>` is a setting's label, `bs.<path>.help` its help (`.grouphelp` in the
// per-group editor where it differs), `bv.<path>.<value>` the name of one of its values where the shared
// `v_<value>` does not fit. Merged into i18n.ts's dictionaries.
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

  'bs.delivery.markdown': 'Markdown 处理', 'bs.delivery.markdown.help': '转为纯文本：标题、列表、表格、代码和链接变成易读的文字。思考过程（<think>）总是不发送。',
  'bv.delivery.markdown.plain': '转为纯文本', 'bv.delivery.markdown.keep': '按原样发送',
  'bs.delivery.longAnswer': '长回答的发送方式', 'bs.delivery.longAnswer.help': '超过下面字数的回答：合并转发，渲染成图片（宿主没有渲染器时改为合并转发），或直接发送。',
  'bv.delivery.longAnswer.forward': '合并转发', 'bv.delivery.longAnswer.image': '渲染成图片', 'bv.delivery.longAnswer.off': '直接发送',
  'bs.delivery.longAnswerChars': '长回答字数', 'bs.delivery.longAnswerChars.help': '超过这么多字算长回答（50-100000）。',
  'bs.delivery.splitSentences': '逐句发送', 'bs.delivery.splitSentences.help': '较短的回答一句一句发出，每句前像真人打字一样停顿。',
  'bs.delivery.sentenceDelayMs': '逐句停顿（毫秒）', 'bs.delivery.sentenceDelayMs.help': '每句前大约停顿这么久，长句更久（0-10000）。',
  'bs.delivery.quote': '引用提问消息', 'bs.delivery.quote.help': '群聊中回复时引用所回答的那条消息。',
  'bs.delivery.atSender': '@提问的人', 'bs.delivery.atSender.help': '群聊中回复时 @ 提问的人。',
  'bs.delivery.thinkingNoticeMs': '“思考中”提示（毫秒）', 'bs.delivery.thinkingNoticeMs.help': '模型过了这么久还没回答时，先发一句提示；0 = 不发。',
  'bs.delivery.thinkingNoticeText': '“思考中”提示文字', 'bs.delivery.thinkingNoticeText.help': '留空使用默认文字“让我想想……”。',

  'bs.chat.groupConversation': '群聊会话', 'bs.chat.groupConversation.help': '每人一个会话：各自只记得自己的对话；全群共用：整个群一个对话。',
  'bv.chat.groupConversation.user': '每人一个会话', 'bv.chat.groupConversation.group': '全群共用一个会话',
  'bs.chat.burstWindowMs': '连发合并（毫秒）', 'bs.chat.burstWindowMs.help': '同一个人在这么短的时间内连发的几条消息合并成一次提问；0 = 关闭，约 1500 适合多数群。',
  'bs.trigger.keywords': '触发关键词', 'bs.trigger.keywords.help': '消息包含其中一个词时，就像叫了机器人一样回答。多个词用逗号分隔。',

  'bs.input.quoted': '读取引用的消息', 'bs.input.quoted.help': '用户回复某条消息时，把被引用消息的文字和图片一起交给模型。',
  'bs.input.forwardMaxMessages': '合并转发最多读取', 'bs.input.forwardMaxMessages.help': '合并转发的聊天记录最多读取这么多条；0 = 不读取（0-200）。',
  'bs.input.captionChannel': '看图渠道', 'bs.input.captionChannel.help': '渠道的模型不能看图时，先由这个渠道把图片描述成文字；自动 = 第一个能看图的已启用渠道。',
  'bs.input.captionModel': '看图模型', 'bs.input.captionModel.help': '留空 = 看图渠道的默认模型。',
  'bs.input.transcription.baseUrl': '语音识别地址', 'bs.input.transcription.baseUrl.help': 'OpenAI 兼容的 /audio/transcriptions 接口，例如 https://api.openai.com/v1；留空 = 不识别语音。',
  'bs.input.transcription.apiKey': '语音识别密钥', 'bs.input.transcription.apiKey.help': '只显示掩码；保持掩码则不修改已保存的密钥。',
  'bs.input.transcription.model': '语音识别模型', 'bs.input.transcription.model.help': '例如 whisper-1。',

  'bs.groupLog.enabled': '记录群聊', 'bs.groupLog.enabled.help': '记录每个群最近的消息（也包括没叫机器人的），用于上下文、get_group_history 工具和每日总结。',
  'bs.groupLog.maxMessages': '每个群保留条数', 'bs.groupLog.maxMessages.help': '10-5000。',
  'bs.groupLog.contextMessages': '带入上下文的群消息', 'bs.groupLog.contextMessages.help': '在群里叫机器人时，把最近这么多条群消息交给模型；0 = 不带（0-500）。',
  'bs.groupLog.excludeUsers': '不记录的用户', 'bs.groupLog.excludeUsers.help': 'QQ 号，用逗号分隔。',
  'bs.groupLog.excludeGroups': '不记录的群', 'bs.groupLog.excludeGroups.help': '群号，用逗号分隔。',

  'bs.proactive.enabled': '主动发言（伪人）', 'bs.proactive.enabled.help': '机器人偶尔根据群聊记录主动插话；默认关闭。',
  'bs.proactive.probability': '发言概率', 'bs.proactive.probability.help': '每条没叫机器人的消息触发的概率（0-1），再乘以下面的倍数。',
  'bs.proactive.busyMessages': '热闹：10 分钟内消息数', 'bs.proactive.busyMessages.help': '达到这个数时，概率乘以“热闹倍数”。',
  'bs.proactive.busyMultiplier': '热闹倍数', 'bs.proactive.busyMultiplier.help': '0-100。',
  'bs.proactive.quietMessages': '冷清：10 分钟内消息数', 'bs.proactive.quietMessages.help': '不超过这个数时，概率乘以“冷清倍数”。',
  'bs.proactive.quietMultiplier': '冷清倍数', 'bs.proactive.quietMultiplier.help': '0 = 冷场时不说话。',
  'bs.proactive.hourlyCap': '每小时最多', 'bs.proactive.hourlyCap.help': '每个群每小时最多主动发言几次。',
  'bs.proactive.dailyCap': '每天最多', 'bs.proactive.dailyCap.help': '每个群每天最多主动发言几次。',
  'bs.proactive.cooldownSeconds': '冷却（秒）', 'bs.proactive.cooldownSeconds.help': '两次主动发言之间至少间隔这么久。',

  'bs.tools.eventProbability': '事件反应概率', 'bs.tools.eventProbability.help': '被戳一戳、有新成员、有人撤回消息时机器人作出反应的概率（0-1）。',
  'bs.tools.eventProbabilities.poke': '戳一戳', 'bs.tools.eventProbabilities.poke.help': '留空 = 使用上面的事件反应概率。',
  'bs.tools.eventProbabilities.join': '新成员入群', 'bs.tools.eventProbabilities.join.help': '留空 = 默认值（0，不反应）。',
  'bs.tools.eventProbabilities.recall': '消息撤回', 'bs.tools.eventProbabilities.recall.help': '留空 = 默认值（0，不反应）。',
  'bs.tools.eventProbabilities.poke.grouphelp': '这个群里被戳时的反应概率（0-1）。', 'bs.tools.eventProbabilities.join.grouphelp': '这个群有新成员时的反应概率（0-1）。',
  'bs.tools.eventProbabilities.recall.grouphelp': '这个群有人撤回消息时的反应概率（0-1）。',

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

  'bs.delivery.markdown': 'Markdown', 'bs.delivery.markdown.help': 'Plain text: headings, lists, tables, code and links become readable text. Reasoning (<think>) is never sent.',
  'bv.delivery.markdown.plain': 'plain text', 'bv.delivery.markdown.keep': 'as written',
  'bs.delivery.longAnswer': 'Long answers', 'bs.delivery.longAnswer.help': "Answers over the length below: one merged forward message, a rendered image (forward when the host has no renderer), or sent as they are.",
  'bv.delivery.longAnswer.forward': 'forward message', 'bv.delivery.longAnswer.image': 'rendered image', 'bv.delivery.longAnswer.off': 'send as is',
  'bs.delivery.longAnswerChars': 'Long answer length', 'bs.delivery.longAnswerChars.help': 'Characters from which an answer counts as long (50-100000).',
  'bs.delivery.splitSentences': 'Sentence by sentence', 'bs.delivery.splitSentences.help': 'Send shorter answers one sentence at a time, pausing like a person typing.',
  'bs.delivery.sentenceDelayMs': 'Pause per sentence (ms)', 'bs.delivery.sentenceDelayMs.help': 'About this long before each sentence, longer for long ones (0-10000).',
  'bs.delivery.quote': 'Quote the question', 'bs.delivery.quote.help': 'In groups, quote the message being answered.',
  'bs.delivery.atSender': '@ the asker', 'bs.delivery.atSender.help': 'In groups, @-mention whoever asked.',
  'bs.delivery.thinkingNoticeMs': '"Thinking" notice after (ms)', 'bs.delivery.thinkingNoticeMs.help': 'When the model has not answered after this long, a short notice goes out; 0 = never.',
  'bs.delivery.thinkingNoticeText': '"Thinking" notice text', 'bs.delivery.thinkingNoticeText.help': 'Empty: the default text ("Let me think…").',

  'bs.chat.groupConversation': 'Group conversations', 'bs.chat.groupConversation.help': 'One per user: each remembers only their own talk; shared: one conversation for the whole group.',
  'bv.chat.groupConversation.user': 'one per user', 'bv.chat.groupConversation.group': 'one shared by the group',
  'bs.chat.burstWindowMs': 'Merge bursts (ms)', 'bs.chat.burstWindowMs.help': "A user's messages sent within this window become one question; 0 = off, about 1500 suits most groups.",
  'bs.trigger.keywords': 'Trigger keywords', 'bs.trigger.keywords.help': 'A message containing one of these words is answered as if the bot were called. Comma-separated.',

  'bs.input.quoted': 'Read quoted messages', 'bs.input.quoted.help': 'When a user replies to a message, its text and images go to the model too.',
  'bs.input.forwardMaxMessages': 'Forwarded bundles: read at most', 'bs.input.forwardMaxMessages.help': 'Messages of a forwarded chat bundle given to the model; 0 = not read (0-200).',
  'bs.input.captionChannel': 'Captioning channel', 'bs.input.captionChannel.help': "For a channel whose model cannot see, images are first described by this channel; automatic = the first enabled channel that can see.",
  'bs.input.captionModel': 'Captioning model', 'bs.input.captionModel.help': "Empty: the captioning channel's default model.",
  'bs.input.transcription.baseUrl': 'Speech-to-text URL', 'bs.input.transcription.baseUrl.help': 'An OpenAI-compatible /audio/transcriptions endpoint, e.g. https://api.openai.com/v1; empty = voice messages are not read.',
  'bs.input.transcription.apiKey': 'Speech-to-text key', 'bs.input.transcription.apiKey.help': 'Shown masked; leave the mask to keep the stored key.',
  'bs.input.transcription.model': 'Speech-to-text model', 'bs.input.transcription.model.help': 'For example whisper-1.',

  'bs.groupLog.enabled': 'Keep a group log', 'bs.groupLog.enabled.help': "Each group's recent messages (also those not for the bot), for context, the get_group_history tool and the daily summary.",
  'bs.groupLog.maxMessages': 'Messages kept per group', 'bs.groupLog.maxMessages.help': '10-5000.',
  'bs.groupLog.contextMessages': 'Group messages in context', 'bs.groupLog.contextMessages.help': 'When the bot is called in a group, this many recent group messages go to the model; 0 = none (0-500).',
  'bs.groupLog.excludeUsers': 'Users not logged', 'bs.groupLog.excludeUsers.help': 'QQ numbers, comma-separated.',
  'bs.groupLog.excludeGroups': 'Groups not logged', 'bs.groupLog.excludeGroups.help': 'Group numbers, comma-separated.',

  'bs.proactive.enabled': 'Proactive replies', 'bs.proactive.enabled.help': 'Now and then the bot joins the talk on its own, from the group log; off by default.',
  'bs.proactive.probability': 'Probability', 'bs.proactive.probability.help': 'Chance per message not addressed to the bot (0-1), before the multipliers below.',
  'bs.proactive.busyMessages': 'Busy: messages in 10 min', 'bs.proactive.busyMessages.help': 'From this many, the chance is multiplied by the busy multiplier.',
  'bs.proactive.busyMultiplier': 'Busy multiplier', 'bs.proactive.busyMultiplier.help': '0-100.',
  'bs.proactive.quietMessages': 'Quiet: messages in 10 min', 'bs.proactive.quietMessages.help': 'Up to this many, the chance is multiplied by the quiet multiplier.',
  'bs.proactive.quietMultiplier': 'Quiet multiplier', 'bs.proactive.quietMultiplier.help': '0 = never speak into silence.',
  'bs.proactive.hourlyCap': 'Per hour at most', 'bs.proactive.hourlyCap.help': 'Proactive replies per group per hour.',
  'bs.proactive.dailyCap': 'Per day at most', 'bs.proactive.dailyCap.help': 'Proactive replies per group per day.',
  'bs.proactive.cooldownSeconds': 'Cooldown (s)', 'bs.proactive.cooldownSeconds.help': 'At least this long between two proactive replies.',

  'bs.tools.eventProbability': 'Event reaction probability', 'bs.tools.eventProbability.help': 'Chance (0-1) that the bot reacts to a poke, a new member or a recalled message.',
  'bs.tools.eventProbabilities.poke': 'Poke', 'bs.tools.eventProbabilities.poke.help': 'Empty: the event reaction probability above.',
  'bs.tools.eventProbabilities.join': 'New member', 'bs.tools.eventProbabilities.join.help': 'Empty: the default (0, no reaction).',
  'bs.tools.eventProbabilities.recall': 'Recalled message', 'bs.tools.eventProbabilities.recall.help': 'Empty: the default (0, no reaction).',
  'bs.tools.eventProbabilities.poke.grouphelp': 'Chance (0-1) of reacting to a poke in this group.', 'bs.tools.eventProbabilities.join.grouphelp': 'Chance (0-1) of reacting to a new member of this group.',
  'bs.tools.eventProbabilities.recall.grouphelp': 'Chance (0-1) of reacting to a message recalled in this group.',

  vision: 'The model can read images', visionHint: 'Off: images are first described by the captioning channel (Chat behaviour page), then given to this channel\'s model.'
}
