// Presets domain start-up: the presets service (the store) and its resolver, which chat uses as rt.chat.presets.
import type { ConfigCheck } from '../config/service.js'
import { own } from '../core/dict.js'
import type { Domain, Runtime } from '../runtime.js'
import { PresetResolution } from './resolver.js'
import { PresetService } from './service.js'

declare module '../runtime.js' {
  interface Services {
    presets: PresetService
    presetResolver: PresetResolution
  }
}

/** The default preset and a group's preset (groups.<id>.preset) must name a preset that exists; only
 * changed ones are checked, so a preset deleted since does not block other writes. */
function presetsExist (presets: PresetService): ConfigCheck {
  const missing = (path: string, id: string): Array<{ path: string; message: string }> => [{ path, message: `preset "${id}" does not exist` }]
  return (next, prev) => [
    ...Object.entries(next.groups).flatMap(([id, g]) => {
      const preset = g.preset
      if (!preset || own(prev.groups, id)?.preset === preset || presets.find(preset)) return []
      return missing(`groups.${id}.preset`, preset)
    }),
    ...(next.presets.defaultId !== prev.presets.defaultId && !presets.find(next.presets.defaultId) ? missing('presets.defaultId', next.presets.defaultId) : []),
    ...(next.llm.defaultChatPresetId && next.llm.defaultChatPresetId !== prev.llm.defaultChatPresetId && !presets.find(next.llm.defaultChatPresetId)
      ? missing('llm.defaultChatPresetId', next.llm.defaultChatPresetId)
      : [])
  ]
}

async function initPresets (rt: Runtime): Promise<void> {
  const presets = await PresetService.open(rt)
  const resolver = new PresetResolution(rt, presets)
  rt.provide('presets', presets)
  rt.provide('presetResolver', resolver)
  rt.chat.presets = resolver
  rt.config.addCheck(presetsExist(presets))
  rt.onStop.push(() => presets.close())
}

export const presetsDomain: Domain = { name: 'presets', provides: ['presets', 'presetResolver'], needs: [], start: initPresets }
