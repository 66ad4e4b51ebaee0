// The one schema every configuration write is validated against (lib/config/README.md), composed here
// from the sections each domain declares in its own config.ts (zod shape, defaults, texts). Sections are
// strict so a misspelt key is reported with its path instead of being silently ignored.
import { z } from 'zod'
import { backupSection } from '../backup/config.js'
import { chatSection, contextSection, triggerSection } from '../chat/config.js'
import { channelSchema, channelsSection } from '../channels/config.js'
import { deliverySection } from '../delivery/config.js'
import { imageSection } from '../drawing/config.js'
import { gameSection } from '../game/config.js'
import { accessSchema, moderationSchema, quotasSchema } from '../governance/schema.js'
import { groupLogSection } from '../grouplog/config.js'
import { guardSection } from '../guard/config.js'
import { storageSection } from '../storage/config.js'
import { initiativeSection } from '../initiative/config.js'
import { inputSection } from '../input/config.js'
import { knowledgeSection } from '../knowledge/config.js'
import { mcpSection } from '../mcp/config.js'
import { memorySection } from '../memory/config.js'
import { llmSection, presetsSection } from '../presets/config.js'
import { proactiveSection } from '../proactive/config.js'
import { remindersSection } from '../reminders/config.js'
import { tasksSection } from '../tasks/config.js'
import { skillsSection } from '../skills/config.js'
import { pricingSection } from '../stats/config.js'
import { qqActionsSection, toolsSection } from '../tools/config.js'
import { ttsSection } from '../tts/config.js'
import { webToolsSection } from '../web/config.js'
import { groupConfigSchema, groupsSection } from './groups.js'
import { topLevelShape } from './top-level.js'
import { webServerSection } from './web-server.js'

export { PROVIDER_PROFILES, channelSchema } from '../channels/config.js'
export { groupConfigSchema } from './groups.js'

export const configSchema = z.strictObject({
  ...topLevelShape,
  web: webServerSection,
  trigger: triggerSection,
  context: contextSection,
  chat: chatSection,
  delivery: deliverySection,
  input: inputSection,
  groupLog: groupLogSection,
  proactive: proactiveSection,
  initiative: initiativeSection,
  qqActions: qqActionsSection,
  tts: ttsSection,
  llm: llmSection,
  channels: channelsSection,
  pricing: pricingSection,
  groups: groupsSection,
  presets: presetsSection,
  memory: memorySection,
  knowledge: knowledgeSection,
  tools: toolsSection,
  skills: skillsSection,
  mcp: mcpSection,
  image: imageSection,
  reminders: remindersSection,
  tasks: tasksSection,
  webTools: webToolsSection,
  // who may use the bot, how much, what it may say (lib/governance; texts in lib/governance/config.ts)
  access: accessSchema,
  quotas: quotasSchema,
  moderation: moderationSchema,
  guard: guardSection,
  game: gameSection,
  // optional shared engines for several instances (lib/storage)
  storage: storageSection,
  // full backups, scheduled ones and restore (lib/backup)
  backup: backupSection
})

export type Config = z.infer<typeof configSchema>
/** The configuration as written (the schema's input: keys with a default may be left out). */
export type ConfigInput = z.input<typeof configSchema>
export type ChannelConfig = z.infer<typeof channelSchema>
/** A channel as written (keys with a default may be left out). */
export type ChannelInput = z.input<typeof channelSchema>
export type SectionName = keyof Config
export type DeliverySettings = z.infer<typeof configSchema.shape.delivery>
export type ProactiveSettings = z.infer<typeof configSchema.shape.proactive>
export type InitiativeSettings = z.infer<typeof configSchema.shape.initiative>
export type GroupConfig = z.infer<typeof groupConfigSchema>
export type WebToolsConfig = z.infer<typeof configSchema.shape.webTools>
export type TtsSettings = z.infer<typeof configSchema.shape.tts>
export type GuardSettings = z.infer<typeof configSchema.shape.guard>

/** Sections addressable by GET/PUT /api/config/:section (every object or list section). */
export const SECTIONS = Object.keys(configSchema.shape) as SectionName[]
