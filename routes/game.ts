// Visual-novel game (docs/api.md, Groups of routes: game; style B): character presets CRUD and the game config section.
import Router from '@koa/router'
import { z } from 'zod'
import { characterInput, characterPatch, characterView, gameConfigPut } from '../lib/game/types.js'
import type { Runtime } from '../lib/runtime.js'
import { B, created, styledRouter } from './_http/envelope.js'
import { parseBody } from './_http/validate.js'
import { routeDoc, type Data } from './_http/route-docs.js'

const gameConfig = gameConfigPut.required()

export function gameRoutes (rt: Runtime): Router {
  const r = styledRouter('B', { prefix: '/api/game' })
  const g = () => rt.need('game')

  r.get('/presets', B((): Data<z.ZodArray<typeof characterView>> => g().list()))
  routeDoc(r, 'GET', '/presets', { summary: 'The game characters', data: z.array(characterView) })
  r.get('/presets/:id', B((ctx): Data<typeof characterView> => g().get(ctx.params.id ?? '')))
  routeDoc(r, 'GET', '/presets/:id', { summary: 'A game character', data: characterView })
  r.post('/presets', B(async (ctx) => created(await g().create(parseBody(ctx, characterInput)))))
  routeDoc(r, 'POST', '/presets', { body: characterInput, summary: 'Create a game character', status: 201, errors: [409], data: characterView })
  r.put('/presets/:id', B(async (ctx) => g().update(ctx.params.id ?? '', parseBody(ctx, characterPatch))))
  routeDoc(r, 'PUT', '/presets/:id', { body: characterPatch, summary: 'Update a game character', data: characterView })
  r.delete('/presets/:id', B(async (ctx) => { await g().remove(ctx.params.id ?? ''); return { success: true } }))
  routeDoc(r, 'DELETE', '/presets/:id', { summary: 'Remove a game character', data: z.object({ success: z.literal(true) }) })

  r.get('/config', B((): Data<typeof gameConfig> => rt.config.get().game))
  routeDoc(r, 'GET', '/config', { summary: 'The game settings', data: gameConfig })
  r.put('/config', B(async (ctx) => {
    await g().updateConfig(parseBody(ctx, gameConfigPut))
    return rt.config.get().game
  }))
  routeDoc(r, 'PUT', '/config', { body: gameConfigPut, summary: 'Update the game settings', data: gameConfig })
  return r
}
