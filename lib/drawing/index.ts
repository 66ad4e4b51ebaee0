// Drawing domain start-up: the drawing service; the remote presets are refreshed in the background at start.
import type { Domain, Runtime } from '../runtime.js'
import { DrawingService } from './service.js'

declare module '../runtime.js' {
  interface Services { drawing: DrawingService }
}

async function initDrawing (rt: Runtime): Promise<void> {
  const drawing = await DrawingService.open(rt)
  rt.provide('drawing', drawing)
  if (rt.config.get().image.remotePresetsUrl) drawing.refreshRemote().catch(() => { /* logged; last copy kept */ })
}

export const drawingDomain: Domain = { name: 'drawing', provides: ['drawing'], needs: [], optional: ['models'], start: initDrawing }
