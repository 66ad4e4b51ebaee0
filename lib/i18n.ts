// Bot reply texts in zh-CN (default) and en, chosen by the `language` setting. Every text the bot
// sends into a chat (apps/, the approval request of lib/tools) comes from this table; `{name}`
// placeholders are filled by `t()`. `{p}` is the command prefix (`#lx` by default).
const TEXTS = {
  // panel (apps/panel.ts)
  'panel.links': { 'zh-CN': '灵犀管理面板登录链接（5 分钟内有效，仅可使用一次）：', en: 'Lingxi dashboard login link (valid 5 minutes, single use):' },
  'panel.sentPrivately': { 'zh-CN': '登录链接已私聊发送给你，请查看私聊。', en: 'I sent you the login link in a private message.' },
  'panel.privateFailed': { 'zh-CN': '无法私聊发送登录链接，请先加我为好友后在私聊中发送此命令。', en: 'I could not message you privately; add me as a friend and send this command in a private chat.' },
  'panel.notReady': { 'zh-CN': '灵犀尚未启动完成，请稍后再试。', en: 'Lingxi is still starting, try again in a moment.' },
  'panel.webDown': { 'zh-CN': '灵犀的网页服务没有运行（{error}），管理面板暂不可用；机器人命令照常工作。请检查配置 web.port 后重启。', en: 'The Lingxi web server is not running ({error}), so the dashboard is unavailable; bot commands keep working. Check web.port in the config and restart.' },

  // chat and poke (apps/chat.ts, apps/poke.ts)
  'chat.rateLimited': { 'zh-CN': '你发消息太快了，请稍后再试。', en: 'You are sending messages too fast, please wait a moment.' },
  'chat.noChannel': { 'zh-CN': '还没有可用的模型渠道，请在管理面板中添加渠道。', en: 'No model channel is available; add one in the dashboard.' },
  'chat.timeout': { 'zh-CN': '模型响应超时了，请稍后再试。', en: 'The model took too long to answer, please try again later.' },
  'chat.modelError': { 'zh-CN': '模型暂时无法回答，请稍后再试。', en: 'The model could not answer right now, please try again later.' },
  'chat.toolsRefused': { 'zh-CN': '模型渠道拒绝了这次请求附带的工具列表（工具太多或渠道不支持工具调用）。请减少 tools.maxToolsPerRequest、关闭部分工具，或为预设关闭工具。', en: 'The model channel refused the list of tools sent with this request (too many tools, or the channel does not support tool calls). Lower tools.maxToolsPerRequest, switch some tools off, or turn tools off for the preset.' },
  'chat.empty': { 'zh-CN': '（模型没有返回内容）', en: '(the model returned nothing)' },
  'chat.imageOnly': { 'zh-CN': '[图片]', en: '[image]' },
  'poke.input': { 'zh-CN': '（{name}戳了戳你）', en: '({name} poked you)' },
  // living in the group (lib/proactive): the proactive reply's request, the event reactions' inputs
  'proactive.prompt': { 'zh-CN': '下面是群里最近的聊天记录（你也在这个群里）：\n{log}\n\n如果你自然地想接一句，就像群友一样用群里的语气简短地说一句：直接说话，不要复述记录，不要加名字前缀。如果没什么好说的，只回复 [skip]。', en: 'These are the latest messages of a group you are in:\n{log}\n\nIf you naturally want to join in, say one short line in the tone of the group, as a member would: just the line, no recap, no name prefix. If there is nothing worth saying, answer only [skip].' },
  'proactive.self': { 'zh-CN': '你', en: 'you' },
  'proactive.image': { 'zh-CN': '[图片]', en: '[image]' },
  'events.join': { 'zh-CN': '（{name}刚加入了群聊，请用一两句话简短地欢迎一下）', en: '({name} just joined the group; welcome them in a sentence or two)' },
  'events.recall': { 'zh-CN': '（{name}撤回了一条消息）', en: '({name} recalled a message)' },
  'events.recallOther': { 'zh-CN': '（{operator}撤回了{name}的一条消息）', en: '({operator} recalled a message of {name})' },
  'error.generic': { 'zh-CN': '出了点问题，请稍后再试。', en: 'Something went wrong, please try again later.' },
  // who may use the bot, how much, what it may say (lib/governance; apps/quota.ts: #lx额度)
  'governance.refused': { 'zh-CN': '抱歉，你暂时不能使用灵犀。', en: 'Sorry, you cannot use Lingxi here.' },
  'governance.featureRefused': { 'zh-CN': '抱歉，你在这里不能使用这个功能。', en: 'Sorry, you cannot use this feature here.' },
  'governance.quotaReached': { 'zh-CN': '已达到使用额度（{what}），请稍后再试。每日额度在 {reset} 重置，发送「{p}额度」查看剩余。', en: 'A usage limit is reached ({what}); try again later. Daily limits reset at {reset}; send "{p}quota" to see what is left.' },
  'governance.limit.messagesPerMinute': { 'zh-CN': '{who}每分钟消息数', en: '{who}messages a minute' },
  'governance.limit.messagesPerDay': { 'zh-CN': '{who}每日消息数', en: '{who}messages a day' },
  'governance.limit.tokensPerMinute': { 'zh-CN': '{who}每分钟 token 数', en: '{who}tokens a minute' },
  'governance.limit.tokensPerDay': { 'zh-CN': '{who}每日 token 数', en: '{who}tokens a day' },
  'governance.whoGroup': { 'zh-CN': '本群', en: 'this group\'s ' },
  'governance.inputRefused': { 'zh-CN': '这条消息包含不允许的内容，无法回答。', en: 'This message contains content that is not allowed; I cannot answer it.' },
  'governance.outputRefused': { 'zh-CN': '回答中包含不允许的内容，已被拦截。', en: 'The answer contained content that is not allowed and was withheld.' },
  'governance.quotaTitle': { 'zh-CN': '今日额度（每日 {reset} 重置）：', en: 'Today\'s quota (resets daily at {reset}):' },
  'governance.quotaLine': { 'zh-CN': '{who}：消息 剩余 {messages}，token 剩余 {tokens}；本分钟消息 剩余 {minute}', en: '{who}: {messages} messages and {tokens} tokens left; {minute} messages left this minute' },
  'governance.quotaYou': { 'zh-CN': '你', en: 'You' },
  'governance.quotaGroup': { 'zh-CN': '本群', en: 'This group' },
  'governance.unlimited': { 'zh-CN': '不限', en: 'unlimited' },
  'governance.help': { 'zh-CN': '今天还剩多少额度', en: 'what is left of your quota today' },
  'governance.master': { 'zh-CN': '你是主人，不受额度限制。', en: 'You are a master: no limits apply to you.' },
  // the account-risk guard (lib/guard): the masters' private notice when a chat becomes guarded
  'guard.told': { 'zh-CN': '灵犀账号风控提醒：{chat} 的发送风险达到 {risk}/100（{reasons}）。已放慢发送、长回复改为合并转发、暂停主动插话，信号回落 {minutes} 分钟后自动恢复。', en: 'Lingxi account-risk guard: sending in {chat} reached risk {risk}/100 ({reasons}). Sends are slowed, long answers go as forwards and proactive replies pause; back to normal {minutes} minutes after the signals fall.' },
  'guard.group': { 'zh-CN': '群 {id}', en: 'group {id}' },
  'guard.private': { 'zh-CN': '私聊', en: 'private chats' },
  'guard.signal.perMinute': { 'zh-CN': '每分钟 {n} 条', en: '{n} a minute' },
  'guard.signal.perHour': { 'zh-CN': '每小时 {n} 条', en: '{n} an hour' },
  'guard.signal.long': { 'zh-CN': '长消息 {n} 条', en: '{n} long messages' },
  'guard.signal.repeats': { 'zh-CN': '重复内容 {n} 次', en: '{n} repeats' },
  'guard.signal.links': { 'zh-CN': '含链接 {n} 条', en: '{n} with links' },
  'guard.signal.failures': { 'zh-CN': '发送失败 {n} 次', en: '{n} failed sends' },

  // what the bot reads of a message (lib/input): markers in the model's user turn, the caption request
  'input.imageCaption': { 'zh-CN': '[图片: {caption}]', en: '[image: {caption}]' },
  'input.voice': { 'zh-CN': '[语音]', en: '[voice message]' },
  'input.forward': { 'zh-CN': '[聊天记录]', en: '[forwarded chat]' },
  'input.forwardHeader': { 'zh-CN': '[转发的聊天记录，共 {count} 条]', en: '[forwarded chat, {count} messages]' },
  'input.quoted': { 'zh-CN': '[引用 {name} 的消息: {text}]', en: '[quoting {name}: {text}]' },
  'input.quotedSelf': { 'zh-CN': '[引用 你（机器人）之前的回复: {text}]', en: '[quoting your own (the bot\'s) earlier reply: {text}]' },
  'input.captionPrompt': { 'zh-CN': '请用中文简要描述这张图片的内容（包括其中的文字），不超过 100 字。', en: 'Describe this image briefly in English (including any text in it), in at most 60 words.' },
  'input.voiceFailed': { 'zh-CN': '语音没能识别出来，请再说一次或发文字。', en: 'I could not make out the voice message; please try again or type it.' },

  // how answers go out (lib/delivery)
  'delivery.thinking': { 'zh-CN': '让我想想……', en: 'Let me think…' },

  // tool approval (apps/approval.ts, lib/tools/index.ts)
  'approval.request': {
    'zh-CN': '[灵犀] 工具 {tool} 需要主人批准 (风险: {risk})\n调用者: {who}\n参数: {args}\n回复 {p}同意 {id} 批准 ({p}同意 {id} 会话: 本会话内不再询问), {p}拒绝 {id} 拒绝; {secs} 秒后自动拒绝',
    en: '[Lingxi] The tool {tool} needs the master\'s approval (risk: {risk})\nCaller: {who}\nArguments: {args}\nReply {p}approve {id} to approve ({p}approve {id} session: do not ask again in this conversation), {p}deny {id} to refuse; refused automatically in {secs} s'
  },
  'approval.none': { 'zh-CN': '没有等待批准的工具调用', en: 'No tool call is waiting for approval.' },
  'approval.item': { 'zh-CN': '{id}: {tool} ({who})', en: '{id}: {tool} ({who})' },
  'approval.notFound': { 'zh-CN': '没有编号为 {id} 的待批准请求 (可能已超时)', en: 'No approval request {id} is waiting (it may have timed out).' },
  'approval.approved': { 'zh-CN': '已批准 {tool} ({id})', en: 'Approved {tool} ({id})' },
  'approval.refused': { 'zh-CN': '已拒绝 {tool} ({id})', en: 'Refused {tool} ({id})' },

  // drawing (apps/draw.ts)
  'draw.needImage': { 'zh-CN': '请在消息里附上一张图片再发送「{keyword}」', en: 'Attach an image to your message and send "{keyword}" again.' },
  'draw.timeout': { 'zh-CN': '绘图超时了，请稍后再试。', en: 'Drawing took too long, please try again later.' },
  'draw.failed': { 'zh-CN': '绘图失败了，请稍后再试。', en: 'Drawing failed, please try again later.' },
  'draw.empty': { 'zh-CN': '没有生成图片，换个描述试试？', en: 'No image came back; try another description?' },

  // text to speech (apps/tts.ts, lib/tts)
  'tts.usage': { 'zh-CN': '用法：{p}语音 <要说的话>', en: 'Usage: {p}say <text>' },
  'tts.off': { 'zh-CN': '语音回复没有开启。', en: 'Voice replies are turned off.' },
  'tts.help': { 'zh-CN': '把文字用语音说出来（需开启语音回复）', en: 'say the text as a voice message (when voice replies are on)' },

  // visual-novel game (apps/game.ts)
  'game.characters': { 'zh-CN': '可选角色：\n{lines}\n发送「{p}开始游戏 <角色>」开始', en: 'Characters:\n{lines}\nSend "{p}game start <name>" to play.' },
  'game.noCharacters': { 'zh-CN': '还没有游戏角色，请在管理面板添加。', en: 'There are no game characters yet; add some in the dashboard.' },
  'game.notFound': { 'zh-CN': '没有找到角色「{name}」，发送「{p}游戏角色」查看可选角色', en: 'No character "{name}". Send "{p}game list" to see them.' },
  'game.started': { 'zh-CN': '【{name}】{description}\n游戏开始！直接发消息和角色互动，发送「{p}结束游戏」离开。', en: '[{name}]{description}\nThe game begins! Just write to talk with the character; send "{p}game stop" to leave.' },
  'game.ended': { 'zh-CN': '游戏结束，共进行了 {turns} 轮对话。', en: 'Game over after {turns} rounds.' },
  'game.none': { 'zh-CN': '你当前没有进行中的游戏。', en: 'You are not playing a game.' },
  'game.status': { 'zh-CN': '正在和「{name}」游戏中，已进行 {turns} 轮。', en: 'Playing with "{name}", {turns} rounds so far.' },
  'game.silent': { 'zh-CN': '（角色陷入了沉默……请稍后再试）', en: '(the character falls silent... please try again later)' },

  // memory (apps/memory.ts)
  // conversation reset (apps/conversation.ts)
  'conversation.reset': { 'zh-CN': '好的，我们重新开始吧：之前的对话我不再参考了（记得的事还在，发送「{p}忘记我」可删除）。', en: 'Done, a fresh start: I no longer go by our earlier conversation (what I remember about you stays; "{p}forget me" erases it).' },
  'conversation.resetShared': { 'zh-CN': '好的，群里的共同对话已重新开始。', en: 'Done: the group\'s shared conversation starts afresh.' },
  'conversation.nothingToReset': { 'zh-CN': '我们还没有进行中的对话，直接和我聊吧。', en: 'We have no conversation going yet: just talk to me.' },
  'conversation.sharedNeedsAdmin': { 'zh-CN': '这个群大家共用一个对话，只有群主、管理员或主人可以重新开始。', en: 'This group shares one conversation: only its owner, its admins or the master can start it afresh.' },
  'memory.forgot': { 'zh-CN': '好的，我已经忘记了关于你的 {n} 条记忆。', en: 'Done: I forgot the {n} things I remembered about you.' },
  'memory.nothingToForget': { 'zh-CN': '我这里没有关于你的记忆。', en: 'I have no memories about you.' },
  'memory.empty': { 'zh-CN': '我还没有记住关于你的事情。', en: 'I have not remembered anything about you yet.' },
  'memory.countInGroup': { 'zh-CN': '我记得关于你的 {n} 件事。私聊我发送「{p}我的记忆」查看，发送「{p}忘记我」全部删除。', en: 'I remember {n} things about you. Send "{p}my memories" in a private chat to see them, "{p}forget me" to erase them all.' },
  'memory.list': { 'zh-CN': '我记得关于你的这些事：\n{lines}{more}\n发送「{p}忘记我」可全部删除。', en: 'This is what I remember about you:\n{lines}{more}\nSend "{p}forget me" to erase it all.' },
  'memory.more': { 'zh-CN': '\n……还有 {n} 条', en: '\n... and {n} more' },

  // the answer's why (apps/why.ts: #lx为什么)
  'why.none': { 'zh-CN': '我在这里还没有回答过你。', en: 'I have not answered you here yet.' },
  'why.head': { 'zh-CN': '我上一次回答你（「{question}」）时：', en: 'When I last answered you ("{question}"):' },
  'why.preset': { 'zh-CN': '人设：{name}（{id}）', en: 'Preset: {name} ({id})' },
  'why.model': { 'zh-CN': '渠道 / 模型：{channel} / {model}', en: 'Channel / model: {channel} / {model}' },
  'why.memories': { 'zh-CN': '用到的你的记忆：\n{lines}', en: 'Your memories used:\n{lines}' },
  'why.memoriesCounted': { 'zh-CN': '用到了你的 {n} 条记忆（私聊我发送「{p}为什么」查看内容）', en: '{n} of your memories were used (send "{p}why" in a private chat to see them)' },
  'why.memoriesRemoved': { 'zh-CN': '另有 {n} 条记忆已被删除', en: '{n} more memories have been erased since' },
  'why.othersMemories': { 'zh-CN': '其他人的记忆：{n} 条（不显示）', en: 'Memories of others: {n} (not shown)' },
  'why.knowledge': { 'zh-CN': '知识库资料：\n{lines}', en: 'Knowledge passages:\n{lines}' },
  'why.skills': { 'zh-CN': '启用的技能：{list}', en: 'Active skills: {list}' },
  'why.tools': { 'zh-CN': '调用的工具：\n{lines}', en: 'Tools called:\n{lines}' },
  'why.toolFailed': { 'zh-CN': '失败', en: 'failed' },
  'why.approval': { 'zh-CN': '批准：{state}', en: 'approval: {state}' },
  'why.approval.waiting': { 'zh-CN': '等待中', en: 'waiting' },
  'why.approval.approved': { 'zh-CN': '已批准', en: 'approved' },
  'why.approval.refused': { 'zh-CN': '被拒绝', en: 'refused' },
  'why.approval.timeout': { 'zh-CN': '超时', en: 'timed out' },
  'why.approval.denied': { 'zh-CN': '不允许', en: 'not allowed' },
  'why.nothingUsed': { 'zh-CN': '没有用到记忆、知识库、技能或工具。', en: 'No memories, knowledge, skills or tools were used.' },
  'why.cost': { 'zh-CN': 'token：输入 {prompt}，输出 {completion}；用时 {secs} 秒', en: 'Tokens: {prompt} in, {completion} out; took {secs} s' },
  'help.cmd.reset': { 'zh-CN': '结束当前对话，重新开始', en: 'end the conversation and start afresh' },
  'help.cmd.why': { 'zh-CN': '我上一次回答你时用到了什么', en: 'what shaped my last answer to you' },

  // reminders (lib/reminders: the delivered reminder; apps/reminders.ts: list and cancel)
  'reminders.fire': { 'zh-CN': '⏰ 提醒：{message}', en: '⏰ Reminder: {message}' },
  'reminders.fireLate': { 'zh-CN': '⏰ 提醒（迟到了，原定 {time}）：{message}', en: '⏰ Reminder (late, it was due {time}): {message}' },
  'reminders.empty': { 'zh-CN': '你没有待发送的提醒。', en: 'You have no pending reminders.' },
  'reminders.list': { 'zh-CN': '你的提醒（{n} 个）：\n{lines}\n发送「{p}取消提醒 <编号>」取消。', en: 'Your reminders ({n}):\n{lines}\nSend "{p}cancel reminder <id>" to cancel one.' },
  'reminders.line': { 'zh-CN': '[{id}] {when}{repeat}{where}：{message}', en: '[{id}] {when}{repeat}{where}: {message}' },
  'reminders.inGroup': { 'zh-CN': '（群 {group}）', en: ' (group {group})' },
  'reminders.private': { 'zh-CN': '（私聊）', en: ' (private)' },
  'reminders.cancelUsage': { 'zh-CN': '用法：{p}取消提醒 <编号>（编号见「{p}提醒列表」）', en: 'Usage: {p}cancel reminder <id> (ids: "{p}reminders")' },
  'reminders.cancelled': { 'zh-CN': '已取消提醒 [{id}]：{message}', en: 'Cancelled reminder [{id}]: {message}' },
  'reminders.notFound': { 'zh-CN': '没有编号为 {id} 的待发送提醒。', en: 'There is no pending reminder {id}.' },
  'reminders.notYours': { 'zh-CN': '提醒 {id} 不是你设置的，不能取消。', en: 'Reminder {id} is not yours, so you cannot cancel it.' },
  'reminders.off': { 'zh-CN': '提醒功能没有开启。', en: 'Reminders are turned off.' },

  // presets (apps/preset.ts)
  'preset.list': { 'zh-CN': '可用人设：\n{lines}\n发送「{p}切换人设 <id>」切换', en: 'Presets:\n{lines}\nSend "{p}use <id>" to switch.' },
  'preset.current': { 'zh-CN': '当前人设：{name}（{id}）', en: 'Current preset: {name} ({id})' },
  'preset.switchOff': { 'zh-CN': '管理员已关闭人设切换。', en: 'Switching presets is turned off.' },
  'preset.usage': { 'zh-CN': '用法：{p}切换人设 <id或名称>，发送「{p}人设列表」查看可用人设', en: 'Usage: {p}use <id or name>; send "{p}presets" to see them.' },
  'preset.notFound': { 'zh-CN': '没有找到人设「{name}」，发送「{p}人设列表」查看可用人设', en: 'No preset "{name}". Send "{p}presets" to see them.' },
  'preset.switchedUser': { 'zh-CN': '已为你切换到人设：{name}', en: 'Your preset is now: {name}' },
  'preset.switchedGroup': { 'zh-CN': '本群已切换到人设：{name}', en: 'This group\'s preset is now: {name}' },
  'preset.groupOnlyAdmins': { 'zh-CN': '只有群主、管理员或主人可以切换本群人设。', en: 'Only the group owner, an admin or the master can switch this group\'s preset.' },
  'preset.switchedDefault': { 'zh-CN': '默认人设已切换为：{name}', en: 'The default preset is now: {name}' },
  'preset.defaultOnlyMaster': { 'zh-CN': '当前未开启个人或群组人设，只有主人可以切换默认人设。', en: 'Per-user and per-group presets are off; only the master can switch the default preset.' },

  // help (apps/help.ts); the command names themselves are in apps/help.ts
  'help.head': { 'zh-CN': '灵犀命令：', en: 'Lingxi commands:' },
  'help.masterHead': { 'zh-CN': '主人命令：', en: 'Master commands:' },
  'help.chatHint': { 'zh-CN': '聊天：私聊直接发消息；群聊 @我 或以「{prefix}」开头。', en: 'Chat: in a private chat just write; in a group @ me or start with "{prefix}".' },
  'help.unknown': { 'zh-CN': '没有这个命令。发送 {p}帮助 查看全部命令。', en: 'No such command. Send {p}help for the list.' },
  'help.cmd.help': { 'zh-CN': '显示本帮助', en: 'this help' },
  'help.cmd.presets': { 'zh-CN': '可用的人设', en: 'the presets (personas)' },
  'help.cmd.preset': { 'zh-CN': '当前使用的人设', en: 'the preset in use' },
  'help.cmd.use': { 'zh-CN': '切换人设', en: 'switch the preset' },
  'help.cmd.myMemories': { 'zh-CN': '我记得的关于你的事', en: 'what I remember about you' },
  'help.cmd.forgetMe': { 'zh-CN': '删除关于你的全部记忆', en: 'erase everything I remember about you' },
  'help.cmd.reminders': { 'zh-CN': '你的待发送提醒', en: 'your pending reminders' },
  'help.cmd.cancelReminder': { 'zh-CN': '取消一个提醒', en: 'cancel a reminder' },
  'help.cmd.gameList': { 'zh-CN': '视觉小说角色', en: 'visual-novel characters' },
  'help.cmd.gameStart': { 'zh-CN': '与角色开始游戏', en: 'start playing with a character' },
  'help.cmd.gameStatus': { 'zh-CN': '当前游戏', en: 'the current game' },
  'help.cmd.gameStop': { 'zh-CN': '结束游戏', en: 'leave the game' },
  'help.cmd.panel': { 'zh-CN': '管理面板登录链接（私聊发送）', en: 'dashboard login link (sent privately)' },
  'help.cmd.approvals': { 'zh-CN': '等待批准的工具调用', en: 'tool calls waiting for approval' },
  'help.cmd.approve': { 'zh-CN': '批准工具调用', en: 'approve a tool call' },
  'help.cmd.deny': { 'zh-CN': '拒绝工具调用', en: 'refuse a tool call' },

  // QQ actions (lib/tools/builtin/qq-*.ts): what the tools answer the model, which relays it
  'qq.onlyGroup': { 'zh-CN': '只能在 QQ 群聊中执行群操作。', en: 'QQ actions work only in a QQ group chat.' },
  'qq.off': { 'zh-CN': '本群已关闭群操作（qqActions.enabled）。', en: 'QQ actions are switched off in this group (qqActions.enabled).' },
  'qq.notAllowed': { 'zh-CN': '你没有让我执行群管理操作的权限（只有主人、群管理员/群主或 qqActions.allowedUsers 中的人可以）。', en: 'You may not ask me for group management actions (only masters, the group admins/owner or users in qqActions.allowedUsers may).' },
  'qq.targetBot': { 'zh-CN': '不能对我自己执行这个操作。', en: 'I cannot do that to myself.' },
  'qq.targetUnknown': { 'zh-CN': '群里找不到成员 {id}。', en: 'Member {id} is not in this group (or the host cannot say).' },
  'qq.targetOwner': { 'zh-CN': '对方是群主，不能对群主执行这个操作。', en: 'The target is the group owner: nobody can do that to the owner.' },
  'qq.adminOnAdmin': { 'zh-CN': '管理员不能对其他管理员执行这个操作（只有群主或主人可以）。', en: 'An admin cannot do that to another admin (only the owner or a master can).' },
  'qq.memberOnAdmin': { 'zh-CN': '普通成员不能对管理员执行这个操作。', en: 'A member cannot do that to an admin.' },
  'qq.botNotAdmin': { 'zh-CN': '我不是本群管理员，做不到。', en: 'I am not an admin of this group, so I cannot do that.' },
  'qq.botNotOwner': { 'zh-CN': '只有群主能做这件事，而我不是群主。', en: 'Only the group owner can do that, and I am not the owner.' },
  'qq.approvalOff': { 'zh-CN': '这个操作需要主人批准，但批准已关闭（tools.approvalMode: deny）。', en: 'This action needs the master\'s approval, and approvals are off (tools.approvalMode: deny).' },
  'qq.refused': { 'zh-CN': '主人拒绝了这个操作。', en: 'The master refused this action.' },
  'qq.approvalTimeout': { 'zh-CN': '主人没有及时批准，操作已取消。', en: 'The master did not approve in time; the action was not done.' },
  'qq.unsupported': { 'zh-CN': '当前机器人框架不支持{action}。', en: 'This bot host does not support {action}.' },
  'qq.failed': { 'zh-CN': '操作失败：{error}', en: 'The host refused or failed: {error}' },
  'qq.badArg': { 'zh-CN': '参数 {name} 缺失或无效。', en: 'Argument {name} is missing or invalid.' },
  'qq.badUrl': { 'zh-CN': '只能发送 http(s) 链接的文件，不能是本机或内网地址。', en: 'Only http(s) links can be sent, not local or private-network addresses.' },
  'qq.noMessage': { 'zh-CN': '找不到要处理的消息（请给出消息 ID 或成员 QQ）。', en: 'No such message found (give its message id or the member\'s QQ id).' },
  'qq.muted': { 'zh-CN': '已禁言 {id} {secs} 秒。', en: 'Muted {id} for {secs} seconds.' },
  'qq.muteCut': { 'zh-CN': '（禁言时长已按上限缩短为 {max} 秒）', en: '(cut to the limit of {max} seconds)' },
  'qq.unmuted': { 'zh-CN': '已解除 {id} 的禁言。', en: 'Unmuted {id}.' },
  'qq.mutedAll': { 'zh-CN': '已开启全员禁言。', en: 'The whole group is muted.' },
  'qq.unmutedAll': { 'zh-CN': '已关闭全员禁言。', en: 'The whole-group mute is off.' },
  'qq.kicked': { 'zh-CN': '已将 {id} 移出本群。', en: 'Removed {id} from the group.' },
  'qq.recalled': { 'zh-CN': '已撤回消息 {id}。', en: 'Recalled message {id}.' },
  'qq.cardSet': { 'zh-CN': '已把 {id} 的群名片改为「{card}」。', en: 'Set the group card of {id} to "{card}".' },
  'qq.titleSet': { 'zh-CN': '已把 {id} 的专属头衔设为「{title}」。', en: 'Set the special title of {id} to "{title}".' },
  'qq.essenceSet': { 'zh-CN': '已把消息 {id} 设为精华。', en: 'Set message {id} as essence.' },
  'qq.noticeSent': { 'zh-CN': '群公告已发布。', en: 'The group notice is posted.' },
  'qq.poked': { 'zh-CN': '已戳了戳 {id}。', en: 'Poked {id}.' },
  'qq.sent': { 'zh-CN': '已发送{what}。', en: 'Sent the {what}.' },
} as const satisfies Record<string, Record<Language, string>>

export type TextKey = keyof typeof TEXTS
export type Language = 'zh-CN' | 'en'

/** The keys, for tests that check every text exists in both languages. */
export const TEXT_KEYS = Object.keys(TEXTS) as TextKey[]

export function t (lang: Language, key: TextKey, vars: Record<string, string | number> = {}): string {
  const text: string = TEXTS[key][lang] ?? TEXTS[key]['zh-CN']
  return text.replace(/\{(\w+)\}/g, (m, k: string) => (vars[k] !== undefined ? String(vars[k]) : m))
}
