// Presets, variant B (style B): /api/preset/... and /api/presets/config|builtin|categories (docs/api.md),
// plus GET /api/config/presets (style A, {id,name,description} for the dashboard's pickers).
import Router from '@koa/router'
import { z } from 'zod'
import { CATEGORIES } from '../lib/presets/builtin.js'
import { PROMPT_PLACEHOLDERS, renderPrompt } from '../lib/presets/resolver.js'
import { cacheBreakers } from '../lib/presets/volatile.js'
import { presetJsonSchema } from '../lib/presets/schema-json.js'
import { presetView } from '../lib/presets/types.js'
import type { Runtime } from '../lib/runtime.js'
import { sessionOf } from './_http/auth.js'
import { A, B, created, styledRouter } from './_http/envelope.js'
import { bodyOf, parseBody, parseQuery } from './_http/validate.js'
import { routeDoc, type Data } from './_http/route-docs.js'

const promptQuery = z.object({
  userId: z.string().max(64).optional(),
  nickname: z.string().max(100).optional(),
  groupId: z.string().max(64).optional(),
  groupName: z.string().max(100).optional(),
  botName: z.string().max(100).optional()
})

/** A prompt not saved yet (the dashboard's preset editor) and the sample chat it is rendered for. */
const previewBody = promptQuery.extend({
  systemPrompt: z.string().max(10000),
  name: z.string().max(100).optional()
})

const presetList = z.array(presetView)
const previewData = z.object({
  prompt: z.string(),
  placeholders: z.array(z.string()),
  cacheBreakers: z.array(z.object({ placeholder: z.string(), changes: z.enum(['turn', 'day', 'speaker']) }))
})
const presetSchemaData = z.looseObject({ type: z.literal('object'), properties: z.record(z.string(), z.looseObject({})), required: z.array(z.string()) })
const categoriesData = z.array(z.object({ id: z.string(), name: z.string(), description: z.string(), count: z.number() }))
const presetNames = z.array(z.object({ id: z.string(), name: z.string(), description: z.string() }))
const presetsConfig = z.strictObject({
  defaultId: z.string().min(1).max(100),
  allowUserSwitch: z.boolean(),
  perUserPreset: z.boolean(),
  perGroupPreset: z.boolean()
}).partial()

export function presetRoutesB (rt: Runtime): Router[] {
  const p = () => rt.need('presets')
  const r = styledRouter('B', { prefix: '/api/preset' })

  r.get('/list', B((): Data<typeof presetList> => p().list()))
  routeDoc(r, 'GET', '/list', { summary: 'List presets', data: presetList })
  r.post('/', B(async (ctx) => {
    const body = bodyOf(ctx)
    const id = (body as { id?: unknown } | null)?.id ?? `custom_${rt.clock.now()}`
    return created(await p().create(id, body))
  }))
  routeDoc(r, 'POST', '/', { summary: 'Create a preset', status: 201, errors: [409], data: presetView })
  r.post('/from-builtin/:builtinId', B(async (ctx) => created(await p().fromBuiltin(ctx.params.builtinId ?? '', bodyOf(ctx)))))
  routeDoc(r, 'POST', '/from-builtin/:builtinId', { summary: 'Create a preset from a built-in one', status: 201, errors: [409], data: presetView })
  r.get('/:id', B((ctx): Data<typeof presetView> => p().get(ctx.params.id ?? '')))
  routeDoc(r, 'GET', '/:id', { summary: 'A preset', data: presetView })
  r.put('/:id', B(async (ctx): Promise<Data<typeof presetView>> => p().update(ctx.params.id ?? '', bodyOf(ctx))))
  routeDoc(r, 'PUT', '/:id', { summary: 'Change a preset', data: presetView })
  r.delete('/:id', B(async (ctx) => { await p().remove(ctx.params.id ?? ''); return { success: true } }))
  routeDoc(r, 'DELETE', '/:id', { summary: 'Remove a preset', data: z.object({ success: z.literal(true) }) })
  r.post('/:id/default', B(async (ctx) => { await p().setDefault(ctx.params.id ?? ''); return { success: true } }))
  routeDoc(r, 'POST', '/:id/default', { summary: 'Make a preset the default', data: z.object({ success: z.literal(true) }) })
  r.get('/:id/prompt', B((ctx) => {
    const q = parseQuery(ctx, promptQuery)
    const preset = p().get(ctx.params.id ?? '')
    const s = sessionOf(ctx)
    const scope = { ...q, userId: q.userId ?? s?.sub ?? '' }
    return { prompt: renderPrompt(preset.systemPrompt, scope, rt.config.get().language === 'en' ? 'Lingxi' : '灵犀', rt.clock.now(), preset.name) }
  }))
  routeDoc(r, 'GET', '/:id/prompt', { query: promptQuery, summary: 'The system prompt a preset builds', data: z.object({ prompt: z.string() }) })
  r.post('/prompt-preview', B((ctx) => {
    const q = parseBody(ctx, previewBody)
    const scope = { ...q, userId: q.userId ?? sessionOf(ctx)?.sub ?? '' }
    const bot = rt.config.get().language === 'en' ? 'Lingxi' : '灵犀'
    return { prompt: renderPrompt(q.systemPrompt, scope, bot, rt.clock.now(), q.name ?? ''), placeholders: PROMPT_PLACEHOLDERS, cacheBreakers: cacheBreakers(q.systemPrompt) }
  }))
  routeDoc(r, 'POST', '/prompt-preview', { body: previewBody, summary: 'A system prompt not saved yet, rendered with its placeholders (the preset editor\'s preview) and those that change it between turns (they defeat providers\' prompt caches)', data: previewData })

  const c = styledRouter('B', { prefix: '/api/presets' })
  const view = (): z.output<typeof presetsConfig> => ({ ...rt.config.get().presets })
  c.get('/config', B(view))
  routeDoc(c, 'GET', '/config', { summary: 'The preset settings', data: presetsConfig })
  c.put('/config', B(async (ctx) => {
    await p().updateSettings(parseBody(ctx, presetsConfig))
    return view()
  }))
  routeDoc(c, 'PUT', '/config', { body: presetsConfig, summary: 'Update the preset settings', data: presetsConfig })
  // before variant A's /:id ('schema' is a reserved id): the rules the dashboard's preset editor checks a draft with
  c.get('/schema', B(() => presetJsonSchema()))
  routeDoc(c, 'GET', '/schema', { summary: 'A new preset\'s fields and rules as JSON Schema (draft 2020-12; the preset editor checks a draft with it)', data: presetSchemaData })
  c.get('/builtin', B((): Data<typeof presetList> => p().builtins()))
  routeDoc(c, 'GET', '/builtin', { summary: 'The built-in presets', data: presetList })
  c.get('/categories', B((): Data<typeof categoriesData> => CATEGORIES.map((cat) => ({ ...cat, count: p().list().filter((x) => x.category === cat.id).length }))))

  // Before configRoutes: /api/config/:section would take /api/config/presets.
  const list = styledRouter('A', { prefix: '/api/config' })
  routeDoc(c, 'GET', '/categories', { summary: 'The preset categories with their preset counts', data: categoriesData })
  list.get('/presets', A((): Data<typeof presetNames> => p().list().map(({ id, name, description }) => ({ id, name, description }))))
  routeDoc(list, 'GET', '/presets', { summary: 'Preset ids, names and descriptions', data: presetNames })
  return [r, c, list]
}
