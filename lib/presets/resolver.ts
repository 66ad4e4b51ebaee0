// PresetResolver (lib/chat/contracts.ts): which preset applies to a scope, with its prompt rendered.
// Order: explicit id > the user's choice (perUserPreset) > the group's choice (perGroupPreset, or the
// group's configured preset) > presets.defaultId > llm.defaultChatPresetId > `default`.
import type { ChatScope, PresetResolver, ResolvedPreset } from '../chat/contracts.js'
import { own } from '../core/dict.js'
import { AppError } from '../core/errors.js'
import type { Runtime } from '../runtime.js'
import { renderTemplate } from '../templates/placeholders.js'
import type { PresetService } from './service.js'
import type { PresetRecord } from './types.js'

export type PromptScope = Partial<Pick<ChatScope, 'userId' | 'groupId' | 'nickname' | 'groupName' | 'botId' | 'botName'>>

/** The placeholders a system prompt may use (renderPrompt's own, then the templates' date and time). */
export const PROMPT_PLACEHOLDERS: readonly string[] = ['nickname', 'userId', 'groupName', 'groupId', 'groupLine', 'botName', 'presetName', 'date', 'time']

/** Renders a system prompt: {{nickname}}, {{groupName}}, {{botName}}, {{date}}, {{time}}, {{groupLine}}... */
export function renderPrompt (template: string, scope: PromptScope, botName: string, now: number, presetName = ''): string {
  const bot = scope.botName || botName
  const groupName = scope.groupName || (scope.groupId ? `群${scope.groupId}` : '')
  return renderTemplate(template, {
    userId: scope.userId ?? '',
    groupId: scope.groupId ?? '',
    nickname: scope.nickname || scope.userId || '用户',
    userName: scope.nickname || scope.userId || '用户',
    groupName,
    groupLine: groupName ? `，你们在群聊「${groupName}」中` : '，你们在私聊中',
    botId: scope.botId ?? '',
    botName: bot,
    presetName
  }, now)
}

export class PresetResolution implements PresetResolver {
  constructor (private readonly rt: Runtime, private readonly presets: PresetService) {}

  /** The preset id in effect for a scope (without an explicit id). */
  idFor (scope: Pick<ChatScope, 'userId' | 'groupId'>): string {
    const cfg = this.rt.config.get()
    const ok = (id: string | undefined): id is string => !!id && this.presets.find(id) !== undefined
    const candidates: Array<string | undefined> = []
    if (cfg.presets.perUserPreset) candidates.push(this.presets.userChoice(scope.userId))
    if (scope.groupId) {
      if (cfg.presets.perGroupPreset) candidates.push(this.presets.groupChoice(scope.groupId))
      candidates.push(own(cfg.groups, scope.groupId)?.preset)
    }
    return candidates.find(ok) ?? this.presets.defaultId()
  }

  async resolve (scope: ChatScope, presetId?: string): Promise<ResolvedPreset> {
    // a preset the caller named must exist: answering with another one would hide the mistake
    const named = presetId ? this.presets.find(presetId) : undefined
    if (presetId && !named) throw new AppError('PRESET_NOT_FOUND', `Preset ${presetId} not found`)
    const rec: PresetRecord = named ?? this.presets.find(this.idFor(scope)) ?? this.presets.get('default')
    return toResolved(rec, renderPrompt(rec.systemPrompt, scope, this.rt.config.get().language === 'en' ? 'Lingxi' : '灵犀', this.rt.clock.now(), rec.name))
  }
}

function toResolved (rec: PresetRecord, systemPrompt: string): ResolvedPreset {
  const r: ResolvedPreset = {
    id: rec.id,
    name: rec.name,
    systemPrompt,
    temperature: rec.temperature,
    maxTokens: rec.maxTokens,
    tools: { enabled: rec.tools.enabled, allowedTools: [...rec.tools.allowedTools], excludedTools: [...rec.tools.excludedTools], allowDangerous: rec.tools.allowDangerous },
    memory: { ...rec.memory }
  }
  if (rec.topP !== undefined) r.topP = rec.topP
  if (rec.frequencyPenalty !== undefined) r.frequencyPenalty = rec.frequencyPenalty
  if (rec.presencePenalty !== undefined) r.presencePenalty = rec.presencePenalty
  if (rec.model) r.model = rec.model
  return r
}
