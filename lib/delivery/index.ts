// Start-up of the delivery area: its step of the QQ chat turn (step.ts). Nothing else starts here; the
// answer's forms are called by their users (answer.ts).
import type { Domain, Runtime } from '../runtime.js'
import { deliveryStep } from './step.js'

function initDelivery (rt: Runtime): void {
  rt.chat.steps.push(deliveryStep(rt))
}

export const deliveryDomain: Domain = { name: 'delivery', provides: [], needs: [], start: initDelivery }
