// Presets domain start-up: rt.presets (the store) and rt.chat.presets (the resolver used by chat).
import type { Runtime } from '../runtime.js'
import { PresetResolution } from './resolver.js'
import { PresetService } from './service.js'

declare module '../runtime.js' {
  interface Runtime {
    presets: PresetService
    presetResolver: PresetResolution
  }
}

export async function initPresets (rt: Runtime): Promise<void> {
  rt.presets = await PresetService.open(rt)
  rt.presetResolver = new PresetResolution(rt, rt.presets)
  rt.chat.presets = rt.presetResolver
}

export { PresetService } from './service.js'
export { PresetResolution, renderPrompt } from './resolver.js'
