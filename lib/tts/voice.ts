// Which tts settings and voice apply in a chat: a group's overrides (groups.<id>.tts) over the global
// tts section, and the preset in effect for the user there: a preset whose voice is enabled speaks
// with its own voiceId (when set) and speed.
import { groupEntry } from '../config/group-settings.js'
import type { Config, TtsSettings } from '../config/schema.js'
import type { Runtime } from '../runtime.js'
import type { Voice } from './speech.js'

export interface SpeakScope { userId: string; groupId?: string }

export function ttsFor (cfg: Config, groupId?: string): TtsSettings {
  const own = groupEntry(cfg, groupId)?.tts
  const out: TtsSettings = { ...cfg.tts }
  if (own?.mode !== undefined) out.mode = own.mode
  if (own?.voice !== undefined) out.voice = own.voice
  if (own?.speed !== undefined) out.speed = own.speed
  if (own?.maxChars !== undefined) out.maxChars = own.maxChars
  return out
}

/** The preset's voice fields for the user in this chat (undefined: presets not running or voice off). */
function presetVoice (rt: Runtime, scope: SpeakScope): { voiceId: string; speed: number } | undefined {
  const presets = rt.optional('presets')
  const resolver = rt.optional('presetResolver')
  if (!presets || !resolver) return undefined
  const rec = presets.find(resolver.idFor(scope))
  return rec?.voice.enabled ? rec.voice : undefined
}

export function voiceFor (rt: Runtime, settings: TtsSettings, scope: SpeakScope): Voice {
  const p = presetVoice(rt, scope)
  // presets allow 0.1-10; OpenAI's endpoint takes 0.25-4
  const speed = Math.min(4, Math.max(0.25, p?.speed ?? settings.speed))
  return { voice: p?.voiceId.trim() || settings.voice, speed }
}
