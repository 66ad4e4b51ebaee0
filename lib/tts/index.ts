// Text-to-speech domain start-up: the tts service (rt.optional('tts')), which lib/delivery asks whether
// an answer goes out as a voice record.
import type { Domain, Runtime } from '../runtime.js'
import { TtsService } from './service.js'

declare module '../runtime.js' {
  interface Services { tts: TtsService }
}

function initTts (rt: Runtime): void {
  rt.provide('tts', new TtsService(rt))
}

export const ttsDomain: Domain = { name: 'tts', provides: ['tts'], needs: [], optional: ['presets', 'presetResolver'], start: initTts }
