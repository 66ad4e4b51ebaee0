// Visual-novel game (docs/api.md, Groups of routes: game; style B): character presets CRUD and the game config section.
import Router from '@koa/router'
import { characterInput, characterPatch, gameConfigPut } from '../lib/game/types.js'
import type { Runtime } from '../lib/runtime.js'
import { B, created, styledRouter } from './_http/envelope.js'
import { parseBody } from './_http/validate.js'
import { routeDoc } from './_http/route-docs.js'

export function gameRoutes (rt: Runtime): Router {
  const r = styledRouter('B', { prefix: '/api/game' })
  const g = () => rt.need('game')

  r.get('/presets', B(() => g().list()))
  r.get('/presets/:id', B((ctx) => g().get(ctx.params.id ?? '')))
  r.post('/presets', B(async (ctx) => created(await g().create(parseBody(ctx, characterInput)))))
  routeDoc(r, 'POST', '/presets', { body: characterInput, summary: 'Create a game character' })
  r.put('/presets/:id', B(async (ctx) => g().update(ctx.params.id ?? '', parseBody(ctx, characterPatch))))
  routeDoc(r, 'PUT', '/presets/:id', { body: characterPatch, summary: 'Update a game character' })
  r.delete('/presets/:id', B(async (ctx) => { await g().remove(ctx.params.id ?? ''); return { success: true } }))

  r.get('/config', B(() => rt.config.get().game))
  r.put('/config', B(async (ctx) => {
    await g().updateConfig(parseBody(ctx, gameConfigPut))
    return rt.config.get().game
  }))
  routeDoc(r, 'PUT', '/config', { body: gameConfigPut, summary: 'Update the game settings' })
  return r
}
