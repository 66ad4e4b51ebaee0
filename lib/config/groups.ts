// The `groups` section: one group's settings over the global ones, keyed by group id. Each override is
// the owning domain's shape with every field optional: an unset field falls back to the global value
// (lib/config/README.md, "A domain's section"; lib/config/group-settings.ts reads them). The override
// objects take their texts from the global sections (TEXT_ALIASES in schema-text.ts).
import { z } from 'zod'
import { toDict } from '../core/dict.js'
import { deliveryShape } from '../delivery/config.js'
import { groupGovernanceShape } from '../governance/schema.js'
import { guardShape } from '../guard/config.js'
import { initiativeShape } from '../initiative/config.js'
import { proactiveShape } from '../proactive/config.js'
import { eventsShape, qqActionsShape } from '../tools/config.js'
import { ttsShape } from '../tts/config.js'
import { doc } from './field-doc.js'

export const groupConfigSchema = z.strictObject({
  preset: doc(z.string().default(''), ['Preset', '预设', 'The group\'s preset ("" = the default); must exist.', '这个群使用的预设（留空 = 默认）；必须存在。']),
  enabled: doc(z.boolean().default(true), ['Enabled', '启用', 'Off: the bot ignores the group.', '关闭：机器人不理会这个群。']),
  trigger: doc(z.strictObject({
    // Unset fields fall back to the global trigger section.
    type: doc(z.enum(['at', 'prefix', 'both', 'off']).optional(), ['When to answer', '何时回答']),
    randomRate: doc(z.number().min(0).max(1).optional(), ['Random join rate', '随机插话概率']),
    /** replaces trigger.keywords in this group */
    keywords: doc(z.array(z.string().min(1).max(100)).max(200).optional(), ['Keywords', '触发词', 'Replaces trigger.keywords in this group.', '在这个群中代替 trigger.keywords。'])
  }).default({}), ['Trigger', '触发规则']),
  // The bot in a chat (README "The bot in a QQ chat"): unset fields fall back to the global sections.
  delivery: z.strictObject(deliveryShape).partial().optional(),
  conversation: doc(z.enum(['user', 'group']).optional(), ['Group conversation', '群聊会话']),
  burstWindowMs: doc(z.number().int().min(0).max(10000).optional(), ['Merge window (ms)', '合并窗口（毫秒）']),
  contextMessages: doc(z.number().int().min(0).max(500).optional(), ['Group log messages as context', '作为上下文的群聊记录条数']),
  proactive: z.strictObject(proactiveShape).partial().optional(),
  initiative: z.strictObject(initiativeShape).partial().optional(),
  events: z.strictObject(eventsShape).partial().optional(),
  qqActions: z.strictObject(qqActionsShape).partial().optional(),
  tts: z.strictObject(ttsShape).partial().optional(),
  // who may use which feature, quotas, moderation strictness (lib/governance/schema.ts)
  ...groupGovernanceShape,
  guard: z.strictObject(guardShape).partial().optional(),
  // the knowledge bases this group's chats draw on instead of the preset's (lib/knowledge/README.md, "Bases")
  knowledge: doc(z.array(z.string().regex(/^[\w-]{1,64}$/, 'a knowledge base id')).max(50).optional(), ['Knowledge bases', '知识库',
    'Ids of the knowledge bases this group\'s chats draw on instead of the preset\'s documents (unset or [] = the preset\'s).',
    '这个群的对话使用的知识库 ID（代替预设的文档；不设或 [] = 用预设的）。'])
})

const GROUPS_NOTE = [
  'Per-group settings, keyed by group id: preset, enabled, trigger (type, randomRate, keywords), delivery, conversation (user/group), burstWindowMs, contextMessages, proactive, initiative, events (poke/join/recall probabilities), qqActions and tts (mode, voice, speed, maxChars), access.features, quotas.user / quotas.group, moderation.strictness, guard and knowledge (knowledge base ids); what a group leaves out comes from the sections above. Example:',
  '  "123456":',
  '    preset: default',
  '    delivery: { longAnswer: image }',
  '    proactive: { enabled: true, dailyCap: 5 }'
].join('\n')

// keyed by chat group ids (`constructor` is a valid one): a null-prototype record (lib/core/dict.ts)
export const groupsSection = doc(z.record(z.string().regex(/^[\w-]{1,64}$/, 'group id'), groupConfigSchema).transform((g) => toDict(g)), ['Per-group settings', '单个群的设置', 'Settings of one group over the global ones.', '单个群覆盖全局设置的配置。'], {
  default: {},
  note: GROUPS_NOTE
})
