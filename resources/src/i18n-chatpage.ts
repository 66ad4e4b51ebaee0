// Texts of the chat page (pages/chat.tsx: talk to the bot, tool calls as they happen, the answer's "why")
// and of rendered markdown (markdown.tsx, also the conversation viewer), in zh-CN and en. Merged into
// i18n.ts's dictionaries.
type Dict = Record<string, string>

export const chatPageZh: Dict = {
  chat: '聊天',
  'cp.settings': '对话设置', 'cp.preset': '预设', 'cp.channel': '渠道', 'cp.model': '模型',
  'cp.asBot': '与机器人相同（{name}）', 'cp.asBotNone': '与机器人相同', 'cp.channelModel': '渠道的默认模型（{name}）',
  'cp.defaultsHint': '默认与机器人在私聊中回答你时的选择相同。',
  'cp.conversations': '本页的会话', 'cp.newConv': '新会话', 'cp.noConvs': '还没有在本页开始的会话。发送一条消息即开始新会话。',
  'cp.openConv': '打开会话 {id}', 'cp.current': '当前',
  'cp.messages': '对话', 'cp.you': '你', 'cp.bot': '机器人', 'cp.input': '消息', 'cp.placeholder': '输入消息，Enter 发送，Shift+Enter 换行',
  'cp.send': '发送', 'cp.stop': '停止', 'cp.sending': '正在回答…', 'cp.stopped': '已停止', 'cp.empty': '向机器人发送一条消息，看看它如何回答。',
  'cp.noChannel': '还没有可用的模型渠道，机器人无法回答。先添加一个渠道。', 'cp.toChannels': '添加渠道',
  'cp.tool': '工具 {name}', 'cp.toolArgs': '参数', 'cp.toolResult': '结果', 'cp.toolRunning': '运行中…', 'cp.toolFailed': '失败',
  'cp.ap.none': '无需批准', 'cp.ap.waiting': '等待主人批准…', 'cp.ap.approved': '已批准', 'cp.ap.refused': '主人拒绝了', 'cp.ap.timeout': '批准超时', 'cp.ap.denied': '不允许（无法批准）',
  'cp.why': '为什么这样回答', 'cp.whyHide': '收起依据', 'cp.whyTitle': '这次回答的依据', 'cp.whyMissing': '这条回答没有保存依据。',
  'cp.w.preset': '预设', 'cp.w.channel': '渠道 / 模型', 'cp.w.memories': '放入提示词的记忆', 'cp.w.knowledge': '知识库资料',
  'cp.w.skills': '启用的技能', 'cp.w.tools': '调用的工具', 'cp.w.tokens': 'Tokens', 'cp.w.time': '用时', 'cp.w.none': '无',
  'cp.w.owner': '属于用户 {id}', 'cp.w.removed': '（已删除）', 'cp.w.tokensValue': '输入 {prompt} · 输出 {completion} · 合计 {total}', 'cp.w.cached': '（其中缓存 {cached}，{share}）', 'cp.w.prefix': '沿用上次请求', 'cp.w.prefixValue': '开头 {chars} 个字符（{share}），服务商的提示缓存可命中', 'cp.w.seconds': '{s} 秒',
  'cp.w.question': '问题',
  'cp.qqView': '按 QQ 显示', 'cp.qqHint': 'QQ 不显示 markdown：这是机器人在 QQ 里发送的纯文本（图片另作图片消息发送）。',
  'cp.qqKeep': '聊天设置“回复方式 → Markdown 处理”为“按原样发送”：机器人在 QQ 里按原样发送这段文字。',
  'cp.newBelow': '有新消息 ↓', 'cp.toNewest': '回到最新 ↓',
  'md.copy': '复制', 'md.copied': '已复制', 'md.copyFailed': '复制失败，请手动选择', 'md.image': '图片'
}

export const chatPageEn: Dict = {
  chat: 'Chat',
  'cp.settings': 'Chat settings', 'cp.preset': 'Preset', 'cp.channel': 'Channel', 'cp.model': 'Model',
  'cp.asBot': 'As the bot would ({name})', 'cp.asBotNone': 'As the bot would', 'cp.channelModel': 'The channel\'s default model ({name})',
  'cp.defaultsHint': 'By default the same as the bot chooses when it answers you in a private chat.',
  'cp.conversations': 'Conversations of this page', 'cp.newConv': 'New conversation', 'cp.noConvs': 'No conversation started here yet. Send a message to start one.',
  'cp.openConv': 'Open conversation {id}', 'cp.current': 'current',
  'cp.messages': 'Conversation', 'cp.you': 'You', 'cp.bot': 'Bot', 'cp.input': 'Message', 'cp.placeholder': 'Type a message; Enter sends, Shift+Enter starts a new line',
  'cp.send': 'Send', 'cp.stop': 'Stop', 'cp.sending': 'Answering…', 'cp.stopped': 'Stopped', 'cp.empty': 'Send the bot a message and see how it answers.',
  'cp.noChannel': 'No model channel is usable yet, so the bot cannot answer. Add a channel first.', 'cp.toChannels': 'Add a channel',
  'cp.tool': 'Tool {name}', 'cp.toolArgs': 'Arguments', 'cp.toolResult': 'Result', 'cp.toolRunning': 'running…', 'cp.toolFailed': 'failed',
  'cp.ap.none': 'no approval needed', 'cp.ap.waiting': 'waiting for the master\'s approval…', 'cp.ap.approved': 'approved', 'cp.ap.refused': 'the master refused', 'cp.ap.timeout': 'approval timed out', 'cp.ap.denied': 'not allowed (nobody can approve)',
  'cp.why': 'Why this answer', 'cp.whyHide': 'Hide why', 'cp.whyTitle': 'What shaped this answer', 'cp.whyMissing': 'No record was kept for this answer.',
  'cp.w.preset': 'Preset', 'cp.w.channel': 'Channel / model', 'cp.w.memories': 'Memories put into the prompt', 'cp.w.knowledge': 'Knowledge passages',
  'cp.w.skills': 'Active skills', 'cp.w.tools': 'Tools called', 'cp.w.tokens': 'Tokens', 'cp.w.time': 'Time', 'cp.w.none': 'none',
  'cp.w.owner': 'of user {id}', 'cp.w.removed': '(erased)', 'cp.w.tokensValue': '{prompt} in · {completion} out · {total} total', 'cp.w.cached': '({cached} of the input from cache, {share})', 'cp.w.prefix': 'Reused from the last request', 'cp.w.prefixValue': 'its first {chars} characters ({share}), which the provider\'s prompt cache can serve', 'cp.w.seconds': '{s} s',
  'cp.w.question': 'Question',
  'cp.qqView': 'As QQ shows it', 'cp.qqHint': 'QQ does not show markdown: this is the plain text the bot sends in QQ (images go as image messages).',
  'cp.qqKeep': 'Chat settings, "How answers go out → Markdown" is "as written": the bot sends this text in QQ as it is.',
  'cp.newBelow': 'New messages ↓', 'cp.toNewest': 'Back to the newest ↓',
  'md.copy': 'Copy', 'md.copied': 'Copied', 'md.copyFailed': 'Copy failed; select the text instead', 'md.image': 'Image'
}
