// The texts of the governance sections (`access`, `quotas`, `moderation`; their zod shapes and defaults
// are lib/governance/schema.ts). Their shapes share field schemas (one id list, one limits object for
// users and groups), so their texts are keyed by path here, each beside its field's path, rather than
// attached to the schema objects (lib/config/README.md, "A domain's section").
import type { FieldDoc } from '../config/field-doc.js'

export const GOVERNANCE_DOCS: Readonly<Record<string, FieldDoc>> = {
  'access': {
    text: ['Access', '访问控制', 'Who the bot answers.', '机器人回答谁。'],
    note: 'Who may use the bot (lib/governance). Masters always pass. Ids are QQ ids / group ids.'
  },
  'access.userBlacklist': {
    text: ['Blacklisted users', '用户黑名单', 'These QQ ids get nothing from the bot (masters excepted).', '这些 QQ 号得不到机器人的任何回应（主人除外）。'],
    note: 'These users get nothing from the bot; the groups of groupBlacklist are ignored entirely.'
  },
  'access.groupBlacklist': { text: ['Blacklisted groups', '群黑名单', 'The bot ignores these groups entirely (no notice).', '机器人完全忽略这些群（不回复任何提示）。'] },
  'access.userWhitelistOnly': { text: ['Listed users only', '仅白名单用户', 'On: only users in the user whitelist (and masters) are answered.', '开启后只回应用户白名单里的人和主人。'] },
  'access.userWhitelist': { text: ['User whitelist', '用户白名单'] },
  'access.groupWhitelistOnly': { text: ['Listed groups only', '仅白名单群', 'On: only groups in the group whitelist are answered (private chats follow the user rules).', '开启后只在群白名单里的群回应（私聊按用户规则）。'] },
  'access.groupWhitelist': { text: ['Group whitelist', '群白名单'] },
  'access.features': {
    text: ['Who may use each feature', '各功能的使用者', 'QQ ids, or admin for a group\'s admins and owner; empty = everyone.', 'QQ 号，或 admin 表示群管理员和群主；留空 = 所有人。'],
    note: 'Who may use each feature: QQ ids, or `admin` for a group\'s admins and owner; [] = everyone. `tools`: without it a user\'s chat turns run without tools; `toolsMedium` / `toolsHigh`: who is offered the tools of that risk (others get the low-risk ones; approvals still apply; `admin` does not apply to these two). Per group: groups.<id>.access.features.'
  },
  'access.features.chat': { text: ['Who may chat', '可聊天的人', 'QQ ids, or admin for the group\'s admins and owner; empty = everyone.', 'QQ 号，或 admin 表示群管理和群主；留空 = 所有人。'] },
  'access.features.drawing': { text: ['Who may draw', '可画图的人', 'QQ ids or admin; empty = everyone.', 'QQ 号或 admin；留空 = 所有人。'] },
  'access.features.game': { text: ['Who may play the game', '可玩游戏的人', 'QQ ids or admin; empty = everyone.', 'QQ 号或 admin；留空 = 所有人。'] },
  'access.features.tools': { text: ['Who may use tools', '可用工具的人', 'Others chat without tools. QQ ids or admin; empty = everyone.', '不在名单里的人聊天时不带工具。QQ 号或 admin；留空 = 所有人。'] },
  'access.features.toolsMedium': { text: ['Who gets medium-risk tools', '可用中风险工具的人', 'Others get the low-risk tools only (approvals still apply). QQ ids; empty = everyone.', '其他人只会得到低风险工具（需批准的工具仍需批准）。填 QQ 号；留空 = 所有人。'] },
  'access.features.toolsHigh': { text: ['Who gets high-risk tools', '可用高风险工具的人', 'QQ ids; empty = everyone.', '填 QQ 号；留空 = 所有人。'] },
  'access.refusal': {
    text: ['A refused user gets', '被拒绝时'],
    note: 'What a refused user gets: silent (nothing) or reply (refusalText; "" = the built-in text). A blacklisted or unlisted group always gets silence.'
  },
  'access.refusalText': { text: ['Refusal notice', '拒绝提示', 'Empty: the built-in text.', '留空使用内置提示。'] },
  'quotas': {
    text: ['Quotas', '额度', 'Messages and tokens per minute and per day; 0 = no limit.', '每分钟和每天的消息数与 Token 数；0 = 不限。'],
    note: 'How much (lib/governance): limits per user (over all chats) and per group (all members together); 0 = no limit. Messages are counted when the bot takes them (chat, drawing, game), tokens as the model reports them after each chat turn. A limit reached: `message` ("" = the built-in text) and no model call. `#lx额度` tells a user what is left. Counts per day are kept on disk (a restart keeps them); per-minute counts are fixed clock minutes. Separate from chat.userRateLimitPerMinute, the pipeline\'s own flood guard (which also covers the HTTP chat API).'
  },
  'quotas.user': { text: ['Every user', '每个用户'], note: 'Every user\'s limits (a user\'s messages and tokens counted over all chats).' },
  'quotas.user.messagesPerMinute': { text: ['Messages a minute per user', '每人每分钟消息数', '0 = no limit. A user\'s counts add up over all chats.', '0 = 不限。每人的额度在所有聊天中合计。'] },
  'quotas.user.messagesPerDay': { text: ['Messages a day per user', '每人每日消息数'] },
  'quotas.user.tokensPerMinute': { text: ['Tokens a minute per user', '每人每分钟 token'] },
  'quotas.user.tokensPerDay': { text: ['Tokens a day per user', '每人每日 token'] },
  'quotas.group': { text: ['Every group', '每个群'], note: 'Every group\'s limits (all its members together).' },
  'quotas.group.messagesPerMinute': { text: ['Messages a minute per group', '每群每分钟消息数', '0 = no limit. All members of the group together.', '0 = 不限。群内所有成员合计。'] },
  'quotas.group.messagesPerDay': { text: ['Messages a day per group', '每群每日消息数'] },
  'quotas.group.tokensPerMinute': { text: ['Tokens a minute per group', '每群每分钟 token'] },
  'quotas.group.tokensPerDay': { text: ['Tokens a day per group', '每群每日 token'] },
  'quotas.users': {
    text: ['One user\'s own limits', '单个用户的额度', 'Keyed by QQ id.', '按 QQ 号设置。'],
    note: 'One user\'s own limits over `user`, keyed by QQ id, e.g. "123456": { messagesPerDay: 200 }. Per group: groups.<id>.quotas.user / .group (a user\'s limit there; the group\'s limit).'
  },
  'quotas.message': { text: ['Quota reached notice', '额度用完提示', 'Empty: the built-in text. Users send #lx额度 to see what is left.', '留空使用内置提示。用户可发送 #lx额度 查看剩余。'] },
  'quotas.resetTime': {
    text: ['Daily reset time', '每日重置时间', 'HH:MM in the timezone below.', 'HH:MM，按下面的时区。'],
    note: 'The day\'s counts start again at this time (HH:MM) in `timezone` (IANA name; "" = the machine\'s).'
  },
  'quotas.timezone': { text: ['Timezone', '时区', 'IANA name such as Asia/Shanghai; empty = the machine\'s.', 'IANA 名称，例如 Asia/Shanghai；留空 = 本机时区。'] },
  'moderation': {
    text: ['Moderation', '内容审核', 'Banned words and regular expressions.', '违禁词和正则表达式。'],
    note: 'What it may say (lib/governance): banned words and regular expressions, checked on the user\'s message (before the model) and on the model\'s answer (before it goes out), also for proactive replies and event reactions. Hits are logged (dashboard, GET /api/governance/hits).'
  },
  'moderation.strictness': {
    text: ['Strictness', '审核严格度', 'Off; mask (banned parts become ＊＊＊); refuse (no answer / not sent, with a short notice).', '关闭；打码（违禁部分替换为＊＊＊）；拦截（不回答 / 不发送，并简短提示）。'],
    note: 'off | mask (banned parts become ＊＊＊) | refuse (no answer / the answer is withheld, with `notice`). Per group: groups.<id>.moderation.strictness.'
  },
  'moderation.checkInput': { text: ['Check user messages', '审核用户消息'] },
  'moderation.checkOutput': { text: ['Check model answers', '审核模型回答'] },
  'moderation.useDefaultList': {
    text: ['Use the shipped list', '使用内置词库', 'config/moderation-default.txt; copy it to moderation-words.txt in the data folder to edit it.', 'config/moderation-default.txt；复制到数据目录的 moderation-words.txt 后可自行编辑。'],
    note: 'The shipped Chinese list config/moderation-default.txt; copy it to <data>/moderation-words.txt to edit it (that file is then used instead). One rule a line: a word, or /regex/flags.'
  },
  'moderation.keywords': {
    text: ['Your banned words', '自定义违禁词'],
    note: 'Your own words (matched however they are spelt: letter case, full-width and look-alike letters, zero-width characters, separators between characters, marks, traditional characters).'
  },
  'moderation.regexes': {
    text: ['Regular expressions', '正则表达式', '`pattern` (case-insensitive) or `/pattern/flags`.', '`pattern`（不区分大小写）或 `/pattern/flags`。'],
    note: 'Your regular expressions (`pattern` or `/pattern/flags`, flags i m s u; run on the text as written and on its normalised form). A regex that could hang the bot (a repeated group that repeats or holds |, more than one unbounded repeat such as .* or +, back-references, lookarounds, over 200 characters) is refused with an error naming it.'
  },
  'moderation.notice': {
    text: ['Refusal notice', '拦截提示', 'Empty: the built-in text.', '留空使用内置提示。'],
    note: 'Shown when a message or an answer is refused ("" = the built-in text).'
  },
  'moderation.endpoint': {
    text: ['Moderation API', '审核接口', 'An OpenAI-compatible <baseUrl>/moderations.', 'OpenAI 兼容的 <baseUrl>/moderations。'],
    note: 'Optional OpenAI-compatible moderation API: POST <baseUrl>/moderations. A flagged text is refused (it names no words to mask). If the API fails, the text passes on the lists alone (logged). apiKey is a secret: shown masked, kept out of logs.'
  },
  'moderation.endpoint.baseUrl': { text: ['Moderation API', '审核接口地址', 'Optional OpenAI-compatible <address>/moderations; empty = not used. Flagged texts are refused.', '可选，OpenAI 兼容的 <地址>/moderations；留空不使用。被标记的内容会被拦截。'] },
  'moderation.endpoint.apiKey': { text: ['Moderation API key', '审核接口密钥'] },
  'moderation.endpoint.model': { text: ['Moderation model', '审核模型'] },
  'moderation.endpoint.timeoutMs': { text: ['Moderation API time-out (ms)', '审核接口超时（毫秒）'] },
  'moderation.logMax': {
    text: ['Hits kept', '命中记录保留条数'],
    note: 'Hits kept in the log (the oldest are dropped).'
  }
}
