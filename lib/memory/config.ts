// The `memory` section: structured memories of users, extracted from conversations. lib/config/README.md,
// "A domain's section".
import { z } from 'zod'
import { doc } from '../config/field-doc.js'

export const memorySection = doc(z.strictObject({
  enabled: doc(z.boolean(), ['Memory on', '启用记忆', 'Extract memories and put them into prompts.', '提取记忆并放入提示词。'], { default: true }),
  pollIntervalMinutes: doc(z.number().min(0.1).max(24 * 60), ['Extraction interval (minutes)', '提取间隔（分钟）', 'Minutes between background extractions from recent conversations.', '两次从最近对话中后台提取记忆的间隔分钟数。'], { default: 5 }),
  maxMemoriesInPrompt: doc(z.number().int().min(0).max(100), ['Memories in a prompt', '提示词中的记忆条数', 'At most this many memories go into one prompt (0-100).', '每次提示词中最多放入这么多条记忆（0-100）。'], { default: 10 }),
  recallHalfLifeDays: doc(z.number().min(1).max(3650), ['Recall half-life (days)', '记忆召回半衰期（天）', 'In recall, a memory counts half as fresh this many days after it was last stated or confirmed (confidence, relevance and use count too).', '召回时，记忆在最后一次被说出或确认后经过这么多天，新鲜度减半（同时考虑置信度、相关度和使用次数）。'], { default: 90 }),
  summarySize: doc(z.number().int().min(0).max(20), ['Memory summary size', '记忆摘要条数', "The user's most trusted memories (stated or confirmed) kept in the system prompt, unchanged from turn to turn until they change, so the provider's prompt cache keeps serving it; part of the prompt's memory count. 0: none, every memory is recalled per message.", '放在系统提示词中的用户最可信记忆（用户说过或已确认）条数，记忆不变时每轮相同，便于服务商的提示词缓存；计入提示词的记忆条数。0 表示不放，全部按消息召回。'], { default: 5 }),
  vectorMinScore: doc(z.number().min(-1).max(1), ['Least similarity by meaning', '语义召回最低相似度', 'With knowledge.embedding set, recall is hybrid: a memory found by meaning (no shared word) is recalled only when the cosine similarity of its vector and the message\'s is at least this. Depends on the embedding model: raise it if unrelated memories are recalled.', '设置了 knowledge.embedding 时记忆召回为混合检索：仅凭语义（没有相同词语）找到的记忆，其向量与消息向量的余弦相似度至少为此值才召回。与嵌入模型有关：召回了无关记忆时调高。'], { default: 0.3 }),
  reviewBelow: doc(z.number().min(0).max(1), ['Review inferred memories below', '推测记忆待确认阈值', 'A memory the model inferred (the user did not say it) with a confidence below this is held as pending and not used until the user (#lx记忆确认) or the master confirms it. 0: never held.', '模型推测（用户没有直接说）且置信度低于此值的记忆先待确认，用户（#lx记忆确认）或主人确认前不使用。0 表示不暂存。'], { default: 0.7 }),
  askUser: doc(z.boolean(), ['Ask the user about guesses', '向用户确认推测', 'After an extraction round holds inferred memories as pending, the bot asks the user about them in a private chat (a few lines, at most once an hour per user; only users it can message privately).', '提取后有待确认的推测记忆时，在私聊中问用户是否正确（几行，每个用户每小时最多一次；只问能私聊到的用户）。'], { default: false }),
  privateInGroups: doc(z.boolean(), ['Private memories in groups', '私聊记忆用于群聊', 'Whether what the bot learnt about a user in a private chat may be used when answering that user in a group. Each user can choose with #lx记忆公开 开/关.', '私聊中记住的关于用户的事，是否在群聊中回答该用户时使用。每个用户可用 #lx记忆公开 开/关 自己选择。'], { default: false })
}), ['Memory', '记忆', 'Structured memories of users, extracted from conversations.', '从对话中提取的用户结构化记忆。'])
