// Game domain start-up: the game service (character presets and the players' games).
import type { Domain, Runtime } from '../runtime.js'
import { GameService } from './service.js'

declare module '../runtime.js' {
  interface Services { game: GameService }
}

async function initGame (rt: Runtime): Promise<void> {
  rt.provide('game', await GameService.open(rt))
}

export const gameDomain: Domain = { name: 'game', provides: ['game'], needs: [], optional: ['conversations', 'models'], start: initGame }
