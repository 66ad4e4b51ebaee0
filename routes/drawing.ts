// Drawing (docs/api.md, image; style B): image presets (builtin/custom/remote), drawing config, image API
// entries addressed by index (secrets masked; a masked key sent back keeps the stored one).
import Router from '@koa/router'
import { z } from 'zod'
import { AppError } from '../lib/core/errors.js'
import { keepMaskedSecrets, maskSecrets } from '../lib/config/secrets.js'
import { imagePresetInput, imagePresetView, remotePresetsView } from '../lib/drawing/types.js'
import type { Runtime } from '../lib/runtime.js'
import { B, created, styledRouter } from './_http/envelope.js'
import { parseBody } from './_http/validate.js'
import { routeDoc, type Data } from './_http/route-docs.js'

const imageConfigPut = z.strictObject({
  enabled: z.boolean(),
  model: z.string().max(200),
  videoModel: z.string().max(200),
  timeout: z.number().int().min(1000).max(3600000),
  maxImages: z.number().int().min(1).max(10),
  sendMode: z.enum(['direct', 'forward', 'url']),
  remotePresetsUrl: z.union([z.literal(''), z.url({ protocol: /^https?$/ })])
}).partial()

const apiEntry = z.looseObject({
  name: z.string().trim().min(1).max(100).optional(),
  baseUrl: z.url({ protocol: /^https?$/ }),
  apiKey: z.string().max(1000).optional(),
  models: z.array(z.string().max(200)).max(200).optional(),
  enabled: z.boolean().optional()
})

const presetsData = z.object({ builtin: z.array(imagePresetView), custom: z.array(imagePresetView), remote: remotePresetsView })
const imageConfig = imageConfigPut.required()
// an API entry as stored (secrets masked), with its place in the list where an answer names one
const apiView = z.looseObject({ name: z.string().optional(), baseUrl: z.string(), apiKey: z.string().optional(), models: z.array(z.string()).optional(), enabled: z.boolean().optional() })
const indexedApi = apiView.extend({ index: z.number() })
const done = z.object({ success: z.literal(true) })

export function drawingRoutes (rt: Runtime): Router {
  const r = styledRouter('B', { prefix: '/api/image' })
  const d = () => rt.need('drawing')
  const config = (): Record<string, unknown> => { const { apis: _a, ...c } = rt.config.get().image; return c }
  const apis = (): Array<Record<string, unknown>> => rt.config.get().image.apis
  const index = (raw: string | undefined): number => {
    const i = /^\d+$/.test(raw ?? '') ? Number(raw) : -1
    if (i < 0 || i >= apis().length) throw new AppError('NOT_FOUND', 'Image API entry not found')
    return i
  }
  const writeApis = async (list: Array<Record<string, unknown>>): Promise<void> => { await d().setApis(list) }

  r.get('/presets', B((): Data<typeof presetsData> => d().all()))
  routeDoc(r, 'GET', '/presets', { summary: 'The drawing presets: built-in, custom and remote', data: presetsData })
  r.post('/presets/refresh', B((): Promise<Data<typeof remotePresetsView>> => d().refreshRemote()))
  routeDoc(r, 'POST', '/presets/refresh', { summary: 'Fetch the remote presets again', data: remotePresetsView })
  r.post('/presets/custom', B(async (ctx) => created(await d().addCustom(parseBody(ctx, imagePresetInput)))))
  routeDoc(r, 'POST', '/presets/custom', { body: imagePresetInput, summary: 'Add a custom drawing preset', status: 201, data: imagePresetView })
  r.delete('/presets/custom/:uid', B(async (ctx) => { await d().removeCustom(ctx.params.uid ?? ''); return { success: true } }))
  routeDoc(r, 'DELETE', '/presets/custom/:uid', { summary: 'Remove a custom drawing preset', data: done })

  r.get('/config', B(config))
  routeDoc(r, 'GET', '/config', { summary: 'The drawing settings', data: imageConfig })
  r.put('/config', B(async (ctx) => {
    await d().updateConfig(parseBody(ctx, imageConfigPut))
    return config()
  }))
  routeDoc(r, 'PUT', '/config', { body: imageConfigPut, summary: 'Update the drawing settings', data: imageConfig })

  r.get('/apis', B(() => maskSecrets(apis())))
  routeDoc(r, 'GET', '/apis', { summary: 'The drawing APIs (secrets masked)', data: z.array(apiView) })
  r.post('/apis', B(async (ctx) => {
    const entry = parseBody(ctx, apiEntry)
    await writeApis([...apis(), entry])
    return created({ index: apis().length - 1, ...maskSecrets(entry) })
  }))
  routeDoc(r, 'POST', '/apis', { body: apiEntry, summary: 'Add a drawing API', status: 201, data: indexedApi })
  r.put('/apis/:index', B(async (ctx) => {
    const i = index(ctx.params.index)
    const list = [...apis()]
    const old = list[i] ?? {}
    const entry = keepMaskedSecrets(parseBody(ctx, apiEntry.partial()), old)
    list[i] = { ...old, ...entry }
    await writeApis(list)
    return { index: i, ...maskSecrets(list[i]) }
  }))
  routeDoc(r, 'PUT', '/apis/:index', { body: apiEntry.partial(), summary: 'Update a drawing API (masked secrets kept)', data: indexedApi, errors: [404] })
  r.delete('/apis/:index', B(async (ctx) => {
    const i = index(ctx.params.index)
    await writeApis(apis().filter((_, j) => j !== i))
    return { success: true }
  }))
  routeDoc(r, 'DELETE', '/apis/:index', { summary: 'Remove a drawing API', data: done })
  return r
}
