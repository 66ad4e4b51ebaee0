// Drawing domain start-up: rt.drawing; the remote presets are refreshed in the background at start.
import type { Runtime } from '../runtime.js'
import { DrawingService } from './service.js'

declare module '../runtime.js' {
  interface Runtime { drawing: DrawingService }
}

export async function initDrawing (rt: Runtime): Promise<void> {
  rt.drawing = await DrawingService.open(rt)
  if (rt.config.get().image.remotePresetsUrl) rt.drawing.refreshRemote().catch(() => { /* logged; last copy kept */ })
}

export { DrawingService } from './service.js'
