// Tools variant B (docs/api.md): custom tools (`/api/tools/custom`, JSON configurations) and script tools
// (`/api/tools/js`, source files in <data>/tools, hot-reloaded). Style B: the message is `ok` except where
// the spec names one (PUT /js/:name says the tool was saved and hot-reloaded).
import type Router from '@koa/router'
import { z } from 'zod'
import { keepMaskedSecrets, maskSecrets } from '../lib/config/secrets.js'
import { AppError } from '../lib/core/errors.js'
import type { Runtime } from '../lib/runtime.js'
import { customToolSchema, type StoredCustomTool } from '../lib/tools/custom.js'
import { toolKitOf } from '../lib/tools/index.js'
import { parseScriptName } from '../lib/tools/scripts.js'
import { B, created, reply, styledRouter } from './_http/envelope.js'
import { parseBody, parseWith } from './_http/validate.js'
import { scriptFile } from './_http/answers.js'
import { routeDoc, type Data } from './_http/route-docs.js'

const MAX_SOURCE = 256 * 1024
const source = z.string({ error: 'source is required' }).max(MAX_SOURCE, `source must be at most ${MAX_SOURCE} bytes`)
// The master's settings of a script tool (what the script declares about itself is only a hint).
const risk = z.enum(['low', 'medium', 'high'], { error: 'risk must be low, medium or high' })
const dangerous = z.boolean({ error: 'dangerous must be a boolean' })
const createScript = z.object({
  name: z.string({ error: 'name is required' }).trim().min(1, 'name is required').max(100),
  source: source.default(''),
  risk: risk.default('high'),
  dangerous: dangerous.default(false)
}, { error: 'body must be a JSON object' })
const updateScript = z.object({
  source: source.optional(),
  enabled: z.boolean({ error: 'enabled must be a boolean' }).optional(),
  risk: risk.optional(),
  dangerous: dangerous.optional()
}, { error: 'body must be a JSON object' }).refine((b) => Object.values(b).some((v) => v !== undefined), { error: 'source, enabled, risk or dangerous is required' })

const OFF_NOTE = 'disabled: not offered to chat until the master enables it'

/** Header values are secrets (README, "Security model"): masked when read. */
const masked = (t: StoredCustomTool): StoredCustomTool =>
  t.action.type === 'http' ? { ...t, action: { ...t.action, headers: maskSecrets(t.action.headers, true) } } : t

// a custom tool as stored (header values masked)
const customToolView = customToolSchema.extend({ createdAt: z.string(), updatedAt: z.string() })
// a script after a write: its file, whether it loaded, and its settings
const scriptWithSource = scriptFile.extend({ source: z.string() })
const scriptWritten = scriptFile.pick({ name: true, filename: true, loaded: true, error: true, enabled: true, risk: true, dangerous: true })

export function toolFileRoutes (rt: Runtime): Router {
  const r = styledRouter('B', { prefix: '/api/tools' })
  const kit = () => toolKitOf(rt)
  const nameOf = (raw: string): string => parseScriptName(raw).name
  /** Enabling a script also lifts the registry's own switch for it (config tools.disabledTools). */
  const switchOn = async (name: string): Promise<void> => { if (kit().registry.get(name)) await kit().registry.switches.setTool(name, true) }

  // ---- custom -------------------------------------------------------------------------------------
  r.get('/custom', B(() => kit().custom.configs().map(masked)))
  routeDoc(r, 'GET', '/custom', { summary: 'The custom (HTTP) tools (header values masked)', data: z.array(customToolView) })
  r.get('/custom/:name', B((ctx) => {
    const t = kit().custom.find(ctx.params.name ?? '')
    if (!t) throw new AppError('TOOL_NOT_FOUND', `Custom tool ${ctx.params.name} does not exist`)
    return masked(t)
  }))
  routeDoc(r, 'GET', '/custom/:name', { summary: 'A custom tool (header values masked)', data: customToolView })
  r.post('/custom', B(async (ctx) => {
    const cfg = parseBody(ctx, customToolSchema)
    const stored = await kit().custom.create(cfg, (n) => kit().registry.get(n) !== undefined)
    return created(masked(stored))
  }))
  routeDoc(r, 'POST', '/custom', { body: customToolSchema, summary: 'Create a custom (HTTP) tool', status: 201, errors: [409], data: customToolView })
  r.put('/custom/:name', B(async (ctx) => {
    const name = ctx.params.name ?? ''
    const old = kit().custom.find(name)
    if (!old) throw new AppError('TOOL_NOT_FOUND', `Custom tool ${name} does not exist`)
    const raw = ctx.request.body as Record<string, unknown> | undefined
    const body = raw && typeof raw === 'object' && !Array.isArray(raw) ? { name, ...raw } : raw
    const cfg = parseWith(customToolSchema, body)
    // A masked header sent back keeps the stored secret.
    if (cfg.action.type === 'http' && old.action.type === 'http') cfg.action.headers = keepMaskedSecrets(cfg.action.headers, old.action.headers, true)
    return masked(await kit().custom.replace(name, cfg))
  }))
  routeDoc(r, 'PUT', '/custom/:name', { body: customToolSchema, summary: 'Replace a custom tool', data: customToolView })
  r.delete('/custom/:name', B(async (ctx) => {
    await kit().custom.remove(ctx.params.name ?? '')
    return { name: ctx.params.name }
  }))
  routeDoc(r, 'DELETE', '/custom/:name', { summary: 'Remove a custom tool', data: z.object({ name: z.string() }) })

  // ---- script (js/ts) -----------------------------------------------------------------------------
  r.get('/js', B((): Promise<Data<z.ZodArray<typeof scriptFile>>> => kit().scripts.files()))
  routeDoc(r, 'GET', '/js', { summary: 'The script tools', data: z.array(scriptFile) })
  r.post('/js/reload', B(async () => await kit().scripts.reloadAll()))
  routeDoc(r, 'POST', '/js/reload', { summary: 'Reload every script tool', data: z.object({ loaded: z.number(), errors: z.record(z.string(), z.string()) }) })
  r.get('/js/:name', B((ctx): Promise<Data<typeof scriptWithSource>> => kit().scripts.read(nameOf(ctx.params.name ?? ''))))
  routeDoc(r, 'GET', '/js/:name', { summary: 'A script tool with its source', data: scriptWithSource })
  r.post('/js', B(async (ctx) => {
    const body = parseBody(ctx, createScript)
    const { name, ext } = parseScriptName(body.name)
    if (await kit().scripts.existing(name)) throw new AppError('CONFLICT', `Script tool ${name} already exists`)
    const owner = kit().registry.get(name)
    if (owner && owner.source !== 'script') throw new AppError('CONFLICT', `A ${owner.source} tool named ${name} already exists`)
    // A new script is saved off: the master enables it (PUT { enabled: true }) after reading it.
    const settings = await kit().scripts.configure(name, { enabled: false, risk: body.risk, dangerous: body.dangerous })
    const state = await kit().scripts.write(name, ext ?? '.js', body.source)
    return created({ name, filename: `${name}${ext ?? '.js'}`, ...state, ...settings }) // `enabled: false` says it is off
  }))
  routeDoc(r, 'POST', '/js', { body: createScript, summary: 'Create a script tool', status: 201, errors: [409], data: scriptWritten })
  r.put('/js/:name', B(async (ctx) => {
    const name = nameOf(ctx.params.name ?? '')
    const body = parseBody(ctx, updateScript)
    const found = await kit().scripts.existing(name)
    if (!found) throw new AppError('TOOL_NOT_FOUND', `Script tool ${name} does not exist`)
    // New code is off again unless the same request enables it (the dashboard's editor sends its switch).
    const enabled = body.source !== undefined ? body.enabled === true : body.enabled
    const settings = await kit().scripts.configure(name, {
      ...(enabled !== undefined ? { enabled } : {}), ...(body.risk ? { risk: body.risk } : {}), ...(body.dangerous !== undefined ? { dangerous: body.dangerous } : {})
    })
    if (body.source === undefined) {
      if (enabled === true) await switchOn(name)
      const file = await kit().scripts.read(name)
      const { source: _src, ...view } = file
      return reply(view, { message: `Script tool ${name} settings saved (${settings.enabled ? 'enabled' : OFF_NOTE})` })
    }
    const state = await kit().scripts.write(name, found.ext, body.source)
    if (settings.enabled) await switchOn(name)
    const off = settings.enabled ? '' : ` (${OFF_NOTE})`
    const message = state.error ? `Script tool ${name} saved, but it failed to load: ${state.error}` : `Script tool ${name} saved and hot-reloaded${off}`
    return reply({ name, filename: `${name}${found.ext}`, ...state, ...settings }, { message })
  }))
  routeDoc(r, 'PUT', '/js/:name', { body: updateScript, summary: 'Update a script tool (settings only: the file view; with source: the write\'s outcome)', data: z.union([scriptFile, scriptWritten]) })
  r.delete('/js/:name', B(async (ctx) => {
    const name = nameOf(ctx.params.name ?? '')
    await kit().scripts.remove(name)
    return { name }
  }))
  routeDoc(r, 'DELETE', '/js/:name', { summary: 'Remove a script tool', data: z.object({ name: z.string() }) })
  return r
}
