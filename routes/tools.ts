// Tools variant B (style B, docs/api.md) at /api/tools: listings, built-in tool switches and
// configuration, the test stream, logs, dangerous tools, event probability, watcher and stats. Custom and
// script tools are in tools-files.ts, variant A and the deprecated endpoints in tools-a.ts (each
// mounted on its own by routes/index.ts). Every switch and config write goes through
// lib/tools/switches.ts.
import type Router from '@koa/router'
import { z } from 'zod'
import { AppError, errorText, notFound } from '../lib/core/errors.js'
import type { Runtime } from '../lib/runtime.js'
import { toolKitOf, updateToolsConfig } from '../lib/tools/index.js'
import { argsField, dangerousPatch, enabledField, eventProbabilityPatch, toolNameField, toolsConfigPatch } from '../lib/tools/schemas.js'
import type { EventKind } from '../lib/config/group-settings.js'
import type { RegisteredTool } from '../lib/tools/types.js'
import { adminTestContext, dangerousView, identityOf, toolStats, toolView } from '../lib/tools/views.js'
import { sessionOf } from './_http/auth.js'
import { B, styledRouter } from './_http/envelope.js'
import { openSse } from './_http/sse.js'
import { bodyOf, intParam, parseBody, parseWith } from './_http/validate.js'
import { toolCategory, toolCounts, toolLogEntry, toolView as toolViewData } from './_http/answers.js'
import { routeDoc } from './_http/route-docs.js'
import { configSchema } from '../lib/config/schema.js'

const categoryToggle = z.object({ category: z.string({ error: 'category is required' }).min(1, 'category is required').max(100), enabled: enabledField }, { error: 'body must be a JSON object' })
const toolToggle = z.object({ toolName: toolNameField, enabled: enabledField }, { error: 'body must be a JSON object' })
const dangerousToggle = z.object({ toolName: toolNameField, dangerous: z.boolean({ error: 'dangerous must be a boolean' }).optional() }, { error: 'body must be a JSON object' })
const watcherToggle = z.object({ enabled: z.boolean({ error: 'enabled must be a boolean' }).optional() }, { error: 'body must be a JSON object' })
const logsQuery = z.object({
  tool: z.string().max(200).optional(),
  toolName: z.string().max(200).optional(),
  userId: z.string().max(100).optional(),
  status: z.enum(['success', 'error'], { error: 'status must be success or error' }).optional()
})

const listed = z.array(toolViewData.extend({ identity: z.object({ source: z.string(), server: z.string().optional(), category: z.string(), modelName: z.string() }) }))
const toolsConfig = configSchema.shape.tools
const countData = z.object({ count: z.number() })
const logsData = z.object({ logs: z.array(toolLogEntry.extend({ tool: z.string() })), total: z.number() })
const dangerousData = z.object({
  dangerousTools: z.array(z.string()),
  allowDangerous: z.boolean(),
  tools: z.array(z.object({ name: z.string(), risk: z.enum(['low', 'medium', 'high']), configured: z.boolean(), builtin: z.boolean().optional() }))
})
const eventProbabilityData = z.object({ probability: z.number(), events: z.object({ poke: z.number(), join: z.number(), recall: z.number() }) })
const watcherData = z.object({ watching: z.boolean(), enabled: z.boolean(), dir: z.string(), scripts: z.number() })
const statsData = toolCounts.extend({
  bySource: z.record(z.string(), z.number()),
  dangerousTools: z.number(),
  recentCalls: z.object({ total: z.number(), success: z.number(), error: z.number(), avgDuration: z.number() }),
  usage: z.array(z.object({ name: z.string(), calls: z.number(), avgDuration: z.number(), successRate: z.number() }))
})
// scripts reloaded: how many loaded, and each failed file's error
const reloadData = z.object({ count: z.number(), scripts: z.object({ loaded: z.number(), errors: z.record(z.string(), z.string()) }) })

const builtinTools = (rt: Runtime): RegisteredTool[] => toolKitOf(rt).registry.list({ includeDisabled: true }).filter((t) => t.source === 'builtin')

/** Variant B at /api/tools; tools-files.ts and tools-a.ts are mounted after it (routes/index.ts). */
export function toolsRoutes (rt: Runtime): Router {
  const r = styledRouter('B', { prefix: '/api/tools' })
  const kit = () => toolKitOf(rt)
  const reg = () => kit().registry
  const sw = () => reg().switches
  const findTool = (name: string): RegisteredTool => {
    const t = reg().get(name)
    if (!t) throw notFound(`Tool ${name} does not exist`, 'TOOL_NOT_FOUND')
    return t
  }

  r.get('/list', B(() => reg().list({ includeDisabled: true }).map((t) => ({ ...toolView(reg(), t), identity: identityOf(kit().provider, t) }))))
  routeDoc(r, 'GET', '/list', { summary: 'Every tool with where it comes from', data: listed })
  const builtinList = B(() => builtinTools(rt).map((t) => toolView(reg(), t)))
  r.get('/builtin', builtinList)
  routeDoc(r, 'GET', '/builtin', { summary: 'The built-in tools', data: z.array(toolViewData) })
  r.get('/builtin/list', builtinList)
  routeDoc(r, 'GET', '/builtin/list', { summary: 'The built-in tools', data: z.array(toolViewData) })
  r.get('/builtin/categories', B(() => reg().categories((t) => t.source === 'builtin')))
  routeDoc(r, 'GET', '/builtin/categories', { summary: 'The built-in tool categories', data: z.array(toolCategory) })
  r.get('/builtin/config', B(() => ({ ...sw().config })))
  routeDoc(r, 'GET', '/builtin/config', { summary: 'The tools settings', data: toolsConfig })
  r.put('/builtin/config', B(async (ctx) => ({ ...await updateToolsConfig(kit(), parseBody(ctx, toolsConfigPatch)) })))
  routeDoc(r, 'PUT', '/builtin/config', { body: toolsConfigPatch, summary: 'Update the tools settings', data: toolsConfig })
  r.post('/builtin/category/toggle', B(async (ctx) => {
    const { category, enabled } = parseBody(ctx, categoryToggle)
    await sw().setCategory(category, enabled)
    return { category, enabled: reg().isCategoryEnabled(category) }
  }))
  routeDoc(r, 'POST', '/builtin/category/toggle', { body: categoryToggle, summary: 'Switch a built-in tool category on or off', data: z.object({ category: z.string(), enabled: z.boolean() }) })
  r.post('/builtin/tool/toggle', B(async (ctx) => {
    const { toolName, enabled } = parseBody(ctx, toolToggle)
    findTool(toolName)
    await sw().setTool(toolName, enabled)
    return { toolName, enabled: reg().isEnabled(toolName) }
  }))
  routeDoc(r, 'POST', '/builtin/tool/toggle', { body: toolToggle, summary: 'Switch a built-in tool on or off', data: z.object({ toolName: z.string(), enabled: z.boolean() }), errors: [404] })
  r.post('/builtin/refresh', B(() => { kit().builtin.refresh(); return { count: builtinTools(rt).length } }))
  routeDoc(r, 'POST', '/builtin/refresh', { summary: 'Reread the built-in tools', data: countData })
  r.post('/builtin/enable-all', B(async () => ({ count: await sw().setTools(builtinTools(rt), true) })))
  routeDoc(r, 'POST', '/builtin/enable-all', { summary: 'Switch every built-in tool on', data: countData })
  r.post('/builtin/disable-all', B(async () => ({ count: await sw().setTools(builtinTools(rt), false) })))
  routeDoc(r, 'POST', '/builtin/disable-all', { summary: 'Switch every built-in tool off', data: countData })
  r.post('/refresh', B(() => { kit().builtin.refresh(); reg().refresh(); return { count: reg().list({ includeDisabled: true }).length } }))
  routeDoc(r, 'POST', '/refresh', { summary: 'Reread every tool', data: countData })
  r.post('/reload-all', B(async () => {
    kit().builtin.refresh()
    const scripts = await kit().scripts.reloadAll()
    reg().refresh()
    return { count: reg().list({ includeDisabled: true }).length, scripts }
  }))
  routeDoc(r, 'POST', '/reload-all', { summary: 'Reload the script tools and reread every tool', data: reloadData })

  // SSE: `start`, then `result` or `error` (docs/api.md, Server-sent events); administrator context.
  r.post('/test', B(async (ctx) => {
    const body = bodyOf(ctx) as { toolName?: unknown; arguments?: unknown; args?: unknown } | null
    const sse = openSse(ctx, rt.bus)
    const toolName = typeof body?.toolName === 'string' ? body.toolName.trim() : ''
    sse.send('start', { toolName, timestamp: rt.clock.now() })
    try {
      if (!toolName) throw new AppError('INVALID_ARGS', 'toolName is required')
      const args = parseWith(argsField.default({}), body?.arguments ?? body?.args)
      findTool(toolName)
      const started = performance.now()
      const result = await reg().call(toolName, args, adminTestContext(sessionOf(ctx)))
      sse.send('result', { toolName, result, isError: result.isError, duration: Math.round(performance.now() - started) })
    } catch (err) {
      sse.send('error', { toolName, error: errorText(err), message: errorText(err) })
    }
    sse.close()
  }))
  routeDoc(r, 'POST', '/test', { summary: 'Run a tool as the master (SSE)', contentType: 'text/event-stream', events: ['start', 'then result or error'] })

  r.get('/logs', B((ctx) => {
    const q = parseWith(logsQuery, ctx.query)
    const toolName = q.toolName ?? q.tool
    const { logs, total } = reg().log.query({
      ...(toolName ? { toolName } : {}),
      ...(q.userId ? { userId: q.userId } : {}),
      ...(q.status ? { status: q.status } : {}),
      limit: intParam(ctx.query.limit, 50, 1, 1000),
      offset: intParam(ctx.query.offset, 0, 0, 1_000_000)
    })
    // Both variants read this path: variant A names the entry's tool `tool`, the domain `toolName`.
    return { logs: logs.map((e) => ({ ...e, tool: e.toolName })), total }
  }))
  routeDoc(r, 'GET', '/logs', { query: logsQuery, summary: 'Tool call logs', data: logsData })
  r.delete('/logs', B(() => ({ cleared: reg().log.clear() })))
  routeDoc(r, 'DELETE', '/logs', { summary: 'Clear the tool call log', data: z.object({ cleared: z.number() }) })

  r.get('/dangerous', B(() => dangerousView(reg())))
  routeDoc(r, 'GET', '/dangerous', { summary: 'The dangerous tools and their switch', data: dangerousData })
  r.put('/dangerous', B(async (ctx) => {
    const body = parseBody(ctx, dangerousPatch)
    if (!body.dangerousTools && body.allowDangerous === undefined) throw new AppError('INVALID_ARGS', 'dangerousTools or allowDangerous is required')
    const c = await sw().update({
      ...(body.dangerousTools ? { dangerousTools: [...new Set(body.dangerousTools)] } : {}),
      ...(body.allowDangerous !== undefined ? { allowDangerous: body.allowDangerous } : {})
    })
    return { dangerousTools: c.dangerousTools, allowDangerous: c.allowDangerous }
  }))
  routeDoc(r, 'PUT', '/dangerous', { body: dangerousPatch, summary: 'Update the dangerous tool settings', data: dangerousData.pick({ dangerousTools: true, allowDangerous: true }) })
  r.post('/dangerous/toggle', B(async (ctx) => {
    const { toolName, dangerous } = parseBody(ctx, dangerousToggle)
    const t = findTool(toolName)
    const next = dangerous ?? !sw().config.dangerousTools.includes(toolName)
    await sw().setDangerous(toolName, next)
    return { toolName, dangerous: reg().isDangerous(t) }
  }))
  routeDoc(r, 'POST', '/dangerous/toggle', { body: dangerousToggle, summary: 'Mark a tool dangerous or not', data: z.object({ toolName: z.string(), dangerous: z.boolean() }), errors: [404] })

  // `probability` is the default (tools.eventProbability); `events` the effective value per event type
  const eventProbabilityView = (): { probability: number; events: Record<EventKind, number> } =>
    ({ probability: sw().config.eventProbability, events: sw().eventProbabilities() })
  r.get('/event-probability', B(() => eventProbabilityView()))
  routeDoc(r, 'GET', '/event-probability', { summary: 'The event reaction probabilities (default and per event type)', data: eventProbabilityData })
  r.put('/event-probability', B(async (ctx) => {
    await sw().setEventProbabilities(parseBody(ctx, eventProbabilityPatch))
    return eventProbabilityView()
  }))
  routeDoc(r, 'PUT', '/event-probability', { body: eventProbabilityPatch, summary: 'Set the event reaction probabilities (default and/or per event type: poke, join, recall)', data: eventProbabilityData })

  const watcherStatus = (): Record<string, unknown> => {
    const s = kit().scripts
    return { watching: s.watching, enabled: sw().config.watchScripts, dir: 'tools', scripts: s.list().length }
  }
  r.get('/watcher/status', B(() => watcherStatus()))
  routeDoc(r, 'GET', '/watcher/status', { summary: 'The script file watcher', data: watcherData })
  r.post('/watcher/toggle', B(async (ctx) => {
    const { enabled } = parseBody(ctx, watcherToggle)
    const next = enabled ?? !kit().scripts.watching
    await updateToolsConfig(kit(), { watchScripts: next })
    return watcherStatus()
  }))
  routeDoc(r, 'POST', '/watcher/toggle', { body: watcherToggle, summary: 'Switch the script file watcher on or off', data: watcherData })

  r.get('/stats', B(() => toolStats(reg(), rt.stats.tools())))
  routeDoc(r, 'GET', '/stats', { summary: 'Tool counts, recent calls and usage', data: statsData })

  return r
}
