// Game domain start-up: rt.game (character presets and the players' games).
import type { Runtime } from '../runtime.js'
import { GameService } from './service.js'

declare module '../runtime.js' {
  interface Runtime { game: GameService }
}

export async function initGame (rt: Runtime): Promise<void> {
  rt.game = await GameService.open(rt)
}

export { GameService } from './service.js'
