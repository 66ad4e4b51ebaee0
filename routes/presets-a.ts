// Presets, variant A (style A) at /api/presets (docs/api.md, Groups of routes): list/get/create/update/delete, copy,
// set-default, YAML export (download) and import (multipart upload, or a raw YAML body).
import { readFile, rm } from 'node:fs/promises'
import Router from '@koa/router'
import type { Context } from 'koa'
import { z } from 'zod'
import { AppError } from '../lib/core/errors.js'
import { presetView } from '../lib/presets/types.js'
import type { Runtime } from '../lib/runtime.js'
import { A, created, reply, styledRouter } from './_http/envelope.js'
import { bodyOf, parseQuery } from './_http/validate.js'
import { routeDoc, type Data } from './_http/route-docs.js'

const listQuery = z.object({
  type: z.enum(['system', 'user', 'all']).default('all'),
  search: z.string().max(200).optional()
})

const truthy = (v: unknown): boolean => v === true || (typeof v === 'string' && /^(true|1|yes|on)$/i.test(v.trim()))

/** The YAML text and `overwrite` flag of an import request; temp upload files are removed. */
async function importInput (ctx: Context): Promise<{ text: string; overwrite: boolean }> {
  const files = ctx.request.files // koa-body's multipart parser (routes/_http/validate.ts)
  if (files) {
    const all = Object.values(files).flat()
    try {
      const f = files.file
      const file = Array.isArray(f) ? f[0] : f
      if (!file) throw new AppError('INVALID_ARGS', 'file is required (multipart field "file")')
      const body = bodyOf(ctx) as Record<string, unknown>
      return { text: await readFile(file.filepath, 'utf8'), overwrite: truthy(body.overwrite) || truthy(ctx.query.overwrite) }
    } finally {
      await Promise.all(all.map((f) => rm(f.filepath, { force: true })))
    }
  }
  const body: unknown = ctx.request.body
  if (typeof body === 'string') return { text: body, overwrite: truthy(ctx.query.overwrite) }
  if (ctx.is('multipart/form-data')) throw new AppError('INVALID_ARGS', 'file is required (multipart field "file")')
  throw new AppError('INVALID_ARGS', 'Send the YAML file as multipart/form-data field "file"')
}

export function presetRoutesA (rt: Runtime): Router {
  const p = () => rt.need('presets')
  const r = styledRouter('A', { prefix: '/api/presets' })

  r.get('/', A((ctx) => {
    const q = parseQuery(ctx, listQuery)
    const s = q.search?.trim().toLowerCase()
    const presets = p().list()
      .filter((x) => q.type === 'all' || x.type === q.type)
      .filter((x) => !s || [x.id, x.name, x.description, x.category].some((f) => f.toLowerCase().includes(s)))
    return { presets }
  }))
  routeDoc(r, 'GET', '/', { query: listQuery, summary: 'List presets', data: z.object({ presets: z.array(presetView) }) })

  r.post('/import', A(async (ctx) => {
    const { text, overwrite } = await importInput(ctx)
    const { preset, overwritten } = await p().importYaml(text, overwrite)
    return reply(preset, { message: overwritten ? 'Preset replaced' : 'Preset imported', status: overwritten ? 200 : 201 })
  }))
  routeDoc(r, 'POST', '/import', { summary: 'Import a preset from YAML (201 new, 200 replaced)', status: [201, 200], errors: [409], data: presetView })

  r.get('/:id', A((ctx): Data<typeof presetView> => p().get(ctx.params.id ?? '')))
  routeDoc(r, 'GET', '/:id', { summary: 'A preset', data: presetView })

  r.post('/', A(async (ctx) => {
    const body = bodyOf(ctx)
    const preset = await p().create((body as { id?: unknown } | null)?.id, body, { strict: true })
    return created({ id: preset.id, message: 'Preset created' })
  }))
  routeDoc(r, 'POST', '/', { summary: 'Create a preset', status: 201, errors: [409], data: z.object({ id: z.string(), message: z.string() }) })

  r.put('/:id', A(async (ctx) => {
    const id = ctx.params.id ?? ''
    if (p().isBuiltin(id) && !p().list().some((x) => x.id === id && x.type === 'user')) {
      const body = bodyOf(ctx)
      const keys = body && typeof body === 'object' ? Object.keys(body) : []
      if (!keys.every((k) => k === 'isDefault')) throw new AppError('SYSTEM_PRESET', 'System presets cannot be changed; copy it first')
    }
    return reply(await p().update(id, bodyOf(ctx)), { message: 'Preset updated' })
  }))
  routeDoc(r, 'PUT', '/:id', { summary: 'Change a preset (built-in ones: only isDefault)', data: presetView })

  r.delete('/:id', A(async (ctx) => {
    await p().remove(ctx.params.id ?? '')
    return reply(undefined, { message: 'Preset deleted' })
  }))
  routeDoc(r, 'DELETE', '/:id', { summary: 'Remove a preset', data: null })

  r.post('/:id/copy', A(async (ctx) => {
    const body = bodyOf(ctx) as { newId?: unknown; newName?: unknown }
    if (body.newId === undefined) throw new AppError('INVALID_PRESET', 'newId is required', { errors: [{ path: 'newId', message: 'required' }] })
    return created(await p().copy(ctx.params.id ?? '', body.newId, body.newName), 'Preset copied')
  }))
  routeDoc(r, 'POST', '/:id/copy', { summary: 'Copy a preset', status: 201, errors: [409], data: presetView })

  r.post('/:id/set-default', A(async (ctx) => {
    const id = ctx.params.id ?? ''
    await p().setDefault(id)
    return reply({ id, isDefault: true }, { message: 'Default preset set' })
  }))
  routeDoc(r, 'POST', '/:id/set-default', { summary: 'Make a preset the default', data: z.object({ id: z.string(), isDefault: z.literal(true) }) })

  r.get('/:id/export', (ctx) => {
    const id = ctx.params.id ?? ''
    const yaml = p().exportYaml(id)
    ctx.type = 'application/x-yaml; charset=utf-8'
    ctx.set('Content-Disposition', `attachment; filename="preset-${id}.yaml"`)
    ctx.body = yaml
  })
  routeDoc(r, 'GET', '/:id/export', { summary: 'A preset as a YAML file', contentType: 'application/x-yaml' })

  return r
}
