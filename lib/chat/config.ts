// The chat domain's sections: `trigger` (when the bot answers), `context` (how much history goes to
// the model) and `chat` (conversations, rate and time limits). Defaults written to config/default.yaml
// (lib/config/README.md, "A domain's section").
import { z } from 'zod'
import { doc } from '../config/field-doc.js'

export const triggerSection = doc(z.strictObject({
  private: doc(z.enum(['always', 'prefix', 'off']), ['Private chats', '私聊', 'Always answer, only messages with the prefix, or never.', '总是回答、只回答带前缀的消息，或不回答。'], {
    default: 'always',
    note: 'Private chats: always answer, or only messages starting with the prefix.'
  }),
  group: doc(z.enum(['at', 'prefix', 'both', 'off']), ['Groups', '群聊', 'Answer when @-mentioned, on the prefix, on either, or never.', '被 @ 时、带前缀时、两者之一时回答，或不回答。'], {
    default: 'both',
    note: 'Groups: both = when the bot is @-mentioned or the message starts with the prefix; at = only when @-mentioned; prefix = only on the prefix; off = never.'
  }),
  prefix: doc(z.string(), ['Chat prefix', '对话前缀', 'A message starting with this calls the bot ("灵犀 你好").', '以它开头的消息会呼叫机器人（“灵犀 你好”）。'], {
    default: '灵犀',
    note: 'Prefix that calls the bot ("灵犀 你好"; private "prefix" mode and group "both"/"prefix"). Messages that look like commands (starting with #, *, %, / or commandPrefix) are left to the plugins they are meant for, unless they start with this prefix ("灵犀 #帮助" is chat).'
  }),
  randomRate: doc(z.number().min(0).max(1), ['Random join rate', '随机插话概率', 'Chance (0-1) to answer a group message without being called.', '未被呼叫时回答群消息的概率（0-1）。'], { default: 0 }),
  keywords: doc(z.array(z.string().min(1).max(100)).max(200).default([]), ['Trigger keywords', '触发关键词', 'A message containing one of these words is answered as if the bot were called.', '消息包含其中一个词时，就像叫了机器人一样回答。'], {
    note: 'A message containing one of these words (letter case ignored) is answered as if the bot were called, in groups and in private "prefix" mode; commands stay commands (groups.<id>.trigger.keywords replaces the list in one group). Example: ["小灵", "机器人"]'
  })
}), ['Trigger rules', '触发规则', 'When the bot answers a message.', '机器人在什么情况下回答消息。'])

export const contextSection = doc(z.strictObject({
  maxMessages: doc(z.number().int().min(1).max(1000), ['History messages', '历史消息数', 'Messages of history kept per conversation and sent to the model.', '每个会话保留并发送给模型的历史消息数。'], { default: 20 }),
  cleaningStrategy: doc(z.enum(['sliding', 'truncate', 'summarize']), ['Cleaning strategy', '清理策略', 'sliding / truncate: older messages leave the context; summarize: they are folded into a summary.', '滑动窗口 / 截断：较早的消息离开上下文；总结：把它们折叠成摘要。'], { default: 'sliding' }),
  maxTokens: doc(z.number().int().min(0), ['Token budget', 'Token 预算', 'Token budget of the context (0 = unlimited).', '上下文的 Token 预算（0 = 不限）。'], { default: 0 }),
  compressionThreshold: doc(z.number().min(0).max(1), ['Compression threshold', '压缩阈值', 'With a budget: past this share (0-1) of it the context is compressed.', '设置了预算时：超过预算的这个比例（0-1）就压缩上下文。'], {
    default: 0.8,
    note: 'With a budget: past this share of it the context is compressed (truncate: oldest messages one by one; sliding-window: whole turns; summarize: into the conversation summary), keeping the newest preserveRecentMessages; without preserveSystemPrompt the system prompt may go when nothing else can.'
  }),
  compressionStrategy: doc(z.enum(['summarize', 'truncate', 'sliding-window']), ['Compression strategy', '压缩策略', 'truncate: oldest messages one by one; sliding-window: whole turns; summarize: into the summary.', '截断：逐条删除最早的消息；滑动窗口：整轮删除；总结：并入摘要。'], { default: 'sliding-window' }),
  preserveSystemPrompt: doc(z.boolean(), ['Keep the system prompt', '保留系统提示词', 'Never drop the system prompt when compressing.', '压缩时永不删除系统提示词。'], { default: true }),
  preserveRecentMessages: doc(z.number().int().min(0).max(1000), ['Keep recent messages', '保留最近消息数', 'The newest messages never compressed away.', '压缩时始终保留的最新消息数。'], { default: 4 }),
  autoReloadSkills: doc(z.boolean(), ['Reload skills on change', '技能变化时自动重新加载', 'Reload skill documents when their files change.', '技能文件变化时重新加载技能文档。'], { default: true })
}), ['Context', '上下文', 'How much conversation history goes to the model.', '有多少对话历史发送给模型。'])

export const chatSection = doc(z.strictObject({
  maxStoredMessages: doc(z.number().int().min(1).max(100000), ['Stored messages per conversation', '每个会话保存的消息数', 'Older messages are dropped past this.', '超过后丢弃较早的消息。'], {
    default: 200,
    note: 'Messages stored per conversation at most (older ones are dropped).'
  }),
  userRateLimitPerMinute: doc(z.number().int().min(0).max(10000), ['Requests per user per minute', '每人每分钟请求数', 'Model requests a user may cause per minute (0 = unlimited).', '每个用户每分钟可触发的模型请求数（0 = 不限）。'], { default: 20 }),
  timeoutSeconds: doc(z.number().min(1).max(600), ['Model timeout (seconds)', '模型超时（秒）', 'Seconds to wait for the model before giving up.', '等待模型回答的秒数，超过则放弃。'], { default: 60 }),
  /** group chats: one conversation per user, or one shared by the whole group */
  groupConversation: doc(z.enum(['user', 'group']).default('user'), ['Group conversations', '群聊会话', 'One per user: each remembers only their own talk; shared: one conversation for the whole group.', '每人一个会话：各自只记得自己的对话；全群共用：整个群一个对话。'], {
    note: 'Groups: user = one conversation per user (each remembers only their own talk); group = one conversation shared by the whole group. groups.<id>.conversation overrides it per group.'
  }),
  /** a user's messages arriving within this window are merged into one turn (0: off) */
  burstWindowMs: doc(z.number().int().min(0).max(10000).default(0), ['Merge bursts (ms)', '连发合并（毫秒）', 'A user\'s messages sent within this window become one question; 0 = off, about 1500 suits most groups.', '同一个人在这么短的时间内连发的几条消息合并成一次提问；0 = 关闭，约 1500 适合多数群。'], {
    note: 'A user\'s messages arriving within this many milliseconds of each other are merged into one turn (people often send a question in pieces). 0 = off; about 1500 suits most groups. Under TRSS-Yunzai the host drops a user\'s messages within its singleCD (2000 ms by default) before the plugin sees them: set singleCD below this window in the host\'s config/config/group.yaml.'
  }),
  /** the time each message is given with, after the history (README "What it costs"): to the
   * minute, the hour, the date, or not at all */
  turnTime: doc(z.enum(['minute', 'hour', 'date', 'off']).default('minute'), ['Time given with each message', '消息附带的时间', 'Each message reaches the model with the time it was sent, after the conversation so far, so the start of every request stays the same for the provider\'s prompt cache: minute, hour, date or off.', '每条消息连同发送时间一起交给模型，放在之前的对话之后，使每次请求的开头保持不变、能被服务商的提示缓存命中：精确到分钟、小时、日期或不附带。'])
}), ['Chat', '聊天', 'Conversation storage, rate limits and time limits.', '会话存储、频率限制和超时。'])
