// Presets domain start-up: the presets service (the store) and its resolver, which chat uses as rt.chat.presets.
import type { Domain, Runtime } from '../runtime.js'
import { PresetResolution } from './resolver.js'
import { PresetService } from './service.js'

declare module '../runtime.js' {
  interface Services {
    presets: PresetService
    presetResolver: PresetResolution
  }
}

async function initPresets (rt: Runtime): Promise<void> {
  const presets = await PresetService.open(rt)
  const resolver = new PresetResolution(rt, presets)
  rt.provide('presets', presets)
  rt.provide('presetResolver', resolver)
  rt.chat.presets = resolver
}

export const presetsDomain: Domain = { name: 'presets', provides: ['presets', 'presetResolver'], needs: [], start: initPresets }
