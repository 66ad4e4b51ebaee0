// The `memory` section: structured memories of users, extracted from conversations. lib/config/README.md,
// "A domain's section".
import { z } from 'zod'
import { doc } from '../config/field-doc.js'

export const memorySection = doc(z.strictObject({
  enabled: doc(z.boolean(), ['Memory on', '启用记忆', 'Extract memories and put them into prompts.', '提取记忆并放入提示词。'], { default: true }),
  pollIntervalMinutes: doc(z.number().min(0.1).max(24 * 60), ['Extraction interval (minutes)', '提取间隔（分钟）', 'Minutes between background extractions from recent conversations.', '两次从最近对话中后台提取记忆的间隔分钟数。'], { default: 5 }),
  maxMemoriesInPrompt: doc(z.number().int().min(0).max(100), ['Memories in a prompt', '提示词中的记忆条数', 'At most this many memories go into one prompt (0-100).', '每次提示词中最多放入这么多条记忆（0-100）。'], { default: 10 })
}), ['Memory', '记忆', 'Structured memories of users, extracted from conversations.', '从对话中提取的用户结构化记忆。'])
