// Configuration (docs/api.md, Groups of routes: config; style A): a nested partial, sections,
// reload, export/import and validate, plus the older `{path, value}` body on PUT /api/config, and per-group settings.
import Router from '@koa/router'
import { z } from 'zod'
import { AppError } from '../lib/core/errors.js'
import { configSchema, groupConfigSchema, SECTIONS, type Config } from '../lib/config/schema.js'
import { maskSecrets } from '../lib/config/secrets.js'
import { configJsonSchema } from '../lib/config/schema-json.js'
import { isPlainObject } from '../lib/config/object-paths.js'
import { burstWindowFor, contextMessagesFor, deliveryFor, eventProbabilityFor, groupConversationFor, groupEntry, guardFor, keywordsFor, proactiveFor } from '../lib/config/group-settings.js'
import type { Runtime } from '../lib/runtime.js'
import { A, reply, styledRouter } from './_http/envelope.js'
import { bodyOf, filterId, issuesToErrors, parseWith } from './_http/validate.js'
import { routeDoc, type Data } from './_http/route-docs.js'

const groupId = filterId('groupId')
/** Each field of an override group: a value sets it, null unsets it (the global value applies again). */
function unsettable (shape: z.ZodRawShape): z.ZodObject<Record<string, z.ZodOptional<z.ZodNullable<z.ZodType>>>> {
  return z.strictObject(Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, (v as z.ZodType).nullable().optional()])))
}

const g18 = groupConfigSchema.shape
// A patch: no defaults, so fields left out keep their stored values; null unsets an override.
const groupPut = z.strictObject({
  preset: z.string().max(100).optional(),
  enabled: z.boolean().optional(),
  trigger: unsettable(g18.trigger.unwrap().shape).optional(),
  delivery: unsettable(g18.delivery.unwrap().shape).nullable().optional(),
  conversation: g18.conversation.nullable(),
  burstWindowMs: g18.burstWindowMs.nullable(),
  contextMessages: g18.contextMessages.nullable(),
  proactive: unsettable(g18.proactive.unwrap().shape).nullable().optional(),
  events: unsettable(g18.events.unwrap().shape).nullable().optional(),
  tts: unsettable(g18.tts.unwrap().shape).nullable().optional(),
  qqActions: unsettable(g18.qqActions.unwrap().shape).nullable().optional(),
  guard: unsettable(g18.guard.unwrap().shape).nullable().optional()
})

const looseRecord = z.record(z.string(), z.unknown())
/** GET /groups/:groupId: the group's entry as stored and the settings in force in it. */
const groupViewData = z.object({
  groupId: z.string(),
  preset: z.string(),
  enabled: z.boolean(),
  trigger: z.object({ type: z.string(), randomRate: z.number() }),
  custom: z.boolean(),
  overrides: looseRecord,
  effective: z.object({
    delivery: looseRecord,
    conversation: z.string(),
    burstWindowMs: z.number(),
    contextMessages: z.number(),
    proactive: looseRecord,
    events: z.object({ poke: z.number(), join: z.number(), recall: z.number() }),
    keywords: z.array(z.unknown()),
    guard: looseRecord
  })
})
const updatedData = z.object({ updated: z.array(z.string()) })

function groupView (cfg: Config, id: string): Data<typeof groupViewData> {
  const g = groupEntry(cfg, id)
  return {
    groupId: id,
    preset: g?.preset || cfg.presets.defaultId,
    enabled: g?.enabled ?? true,
    trigger: { type: g?.trigger?.type ?? cfg.trigger.group, randomRate: g?.trigger?.randomRate ?? cfg.trigger.randomRate },
    custom: g !== undefined,
    // the group's own entry as stored (unset fields absent) and the bot-in-a-chat settings in force here
    overrides: g ?? {},
    effective: {
      delivery: deliveryFor(cfg, id),
      conversation: groupConversationFor(cfg, id),
      burstWindowMs: burstWindowFor(cfg, id),
      contextMessages: contextMessagesFor(cfg, id),
      proactive: proactiveFor(cfg, id),
      events: { poke: eventProbabilityFor(cfg, 'poke', id), join: eventProbabilityFor(cfg, 'join', id), recall: eventProbabilityFor(cfg, 'recall', id) },
      keywords: keywordsFor(cfg, id),
      guard: guardFor(cfg, id)
    }
  }
}

export function configRoutes (rt: Runtime): Router {
  const r = styledRouter('A', { prefix: '/api/config' })
  const cfg = rt.config

  r.get('/', A((): Data<typeof configSchema> => cfg.getMasked()))
  routeDoc(r, 'GET', '/', { summary: 'The whole configuration (secrets masked)', data: configSchema })

  r.put('/', A(async (ctx) => {
    const body = bodyOf(ctx)
    if (!isPlainObject(body)) throw new AppError('INVALID_CONFIG', 'Body must be a JSON object', { errors: [{ path: '', message: 'expected an object' }] })
    const keys = Object.keys(body)
    // Variant 1: { path: 'trigger.prefix', value: ... }
    if (typeof body.path === 'string' && keys.every((k) => k === 'path' || k === 'value')) {
      if (!('value' in body)) throw new AppError('INVALID_CONFIG', 'value is required', { errors: [{ path: 'value', message: 'required' }] })
      await cfg.set(body.path, body.value)
      return { updated: [body.path] }
    }
    return cfg.applyInput(body)
  }))
  routeDoc(r, 'PUT', '/', { summary: 'Update the configuration: a partial of it, or { path, value }', data: updatedData })

  r.get('/export', (ctx) => {
    ctx.type = 'text/yaml; charset=utf-8'
    ctx.set('Content-Disposition', 'attachment; filename="lingxi-config.yaml"')
    ctx.body = cfg.exportYaml()
  })
  routeDoc(r, 'GET', '/export', { summary: 'The configuration as a YAML file', contentType: 'text/yaml' })

  r.post('/import', A(async (ctx) => {
    const body: unknown = ctx.request.body
    if (typeof body !== 'string' || !ctx.is('text/*', 'application/yaml', 'application/x-yaml')) {
      throw new AppError('INVALID_ARGS', 'Send the YAML text as the request body with Content-Type: text/yaml')
    }
    return cfg.importYaml(body)
  }))
  routeDoc(r, 'POST', '/import', { summary: 'Replace sections from a YAML text (Content-Type: text/yaml)', data: z.object({ imported: z.boolean(), changes: z.number() }) })

  r.post('/reload', A(() => {
    cfg.reload()
    return reply(undefined, { message: 'Configuration reloaded from files' })
  }))
  routeDoc(r, 'POST', '/reload', { summary: 'Read the configuration files again', data: null })

  r.post('/validate', A((ctx) => {
    const errors = cfg.validate(bodyOf(ctx))
    if (errors.length) throw new AppError('INVALID_CONFIG', `Invalid configuration: ${errors[0]?.path} ${errors[0]?.message}`, { errors })
    return reply({ valid: true }, { message: 'Configuration is valid' })
  }))
  routeDoc(r, 'POST', '/validate', { summary: 'Check a configuration without writing it', data: z.object({ valid: z.literal(true) }) })

  r.get('/groups/:groupId', A((ctx): Data<typeof groupViewData> => {
    const id = parseWith(groupId, ctx.params.groupId)
    return groupView(cfg.get(), id)
  }))
  routeDoc(r, 'GET', '/groups/:groupId', { summary: 'One group\'s settings: as stored and in force', data: groupViewData })

  r.put('/groups/:groupId', A(async (ctx) => {
    const id = parseWith(groupId, ctx.params.groupId)
    const parsed = groupPut.safeParse(bodyOf(ctx))
    if (!parsed.success) {
      const errors = issuesToErrors(parsed.error.issues)
      throw new AppError('INVALID_CONFIG', `Invalid group config: ${errors[0]?.path} ${errors[0]?.message}`, { errors })
    }
    const { updated } = await cfg.applyInput({ groups: { [id]: parsed.data } })
    return { ...groupView(cfg.get(), id), updated }
  }))
  routeDoc(r, 'PUT', '/groups/:groupId', { body: groupPut, summary: 'Update one group\'s settings', data: groupViewData.extend(updatedData.shape) })

  // Before /:section (schema is no section): the schema the dashboard's settings forms are built from.
  r.get('/schema', A(() => configJsonSchema()))
  routeDoc(r, 'GET', '/schema', { summary: 'The configuration schema as JSON Schema, with titles and descriptions in English and Chinese', data: z.looseObject({ type: z.literal('object'), properties: looseRecord, required: z.array(z.string()) }) })

  r.get('/:section', A((ctx) => maskSecrets(cfg.section(ctx.params.section ?? ''))))
  routeDoc(r, 'GET', '/:section', { summary: 'One section of the configuration (secrets masked): an object, or a list for list sections', data: z.union([looseRecord, z.array(z.unknown())]), errors: [404] })

  r.put('/:section', A(async (ctx) => {
    const name = ctx.params.section ?? ''
    if (!(SECTIONS as string[]).includes(name)) throw new AppError('SECTION_NOT_FOUND', `Section ${name} does not exist`)
    const body = bodyOf(ctx)
    const current: unknown = cfg.get()[name as keyof Config]
    if (Array.isArray(current) !== Array.isArray(body) || (typeof current === 'object') !== (typeof body === 'object') || body === null) {
      throw new AppError('INVALID_CONFIG', `Section ${name} expects ${Array.isArray(current) ? 'an array' : typeof current === 'object' ? 'an object' : typeof current}`, { errors: [{ path: name, message: 'wrong type' }] })
    }
    const { updated } = await cfg.applyInput({ [name]: body })
    return { updated, section: maskSecrets(cfg.get()[name as keyof Config]) }
  }))
  routeDoc(r, 'PUT', '/:section', { summary: 'Replace or merge one section', data: z.object({ updated: z.array(z.string()), section: z.union([looseRecord, z.array(z.unknown())]) }), errors: [404] })

  return r
}
