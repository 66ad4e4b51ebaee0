// Start-up of the input area: its step of the QQ chat turn (step.ts); what it reads is read.ts.
import type { Domain, Runtime } from '../runtime.js'
import { inputStep } from './step.js'

function initInput (rt: Runtime): void {
  rt.chat.steps.push(inputStep(rt))
}

export const inputDomain: Domain = { name: 'input', provides: [], needs: [], start: initInput }
