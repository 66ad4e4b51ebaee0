// Spec 4.5 variant B (style B) at /api/tools: listings, built-in tool switches and configuration,
// the test stream of 6.4, logs, dangerous tools, event probability, watcher and stats. Custom and
// script tools are in tools-files.ts, variant A and the deprecated endpoints in tools-a.ts.
import Router from '@koa/router'
import { z } from 'zod'
import { AppError, errorText, notFound } from '../lib/core/errors.js'
import type { Runtime } from '../lib/runtime.js'
import type { RegisteredTool } from '../lib/tools/types.js'
import { B, reply } from './_http/envelope.js'
import { openSse } from './_http/sse.js'
import { bodyOf, intParam, parseBody, parseWith } from './_http/validate.js'
import { toolFileRoutes } from './tools-files.js'
import { toolRoutesA } from './tools-a.js'
import { adminTestContext, argsField, enabledField, identityOf, kitOf, toolNameField, toolView } from './tools-shared.js'

const names = z.array(z.string().max(200), { error: 'must be an array of tool names' }).max(5000)
const risk = z.enum(['low', 'medium', 'high'], { error: 'must be low, medium or high' })
/** The built-in tool configuration of spec 2.11 (+ this plugin's additions); every field optional. */
export const builtinConfigPatch = z.strictObject({
  enabled: z.boolean(),
  enabledCategories: names,
  allowedTools: names,
  disabledTools: names,
  disabledCategories: names,
  allowDangerous: z.boolean(),
  dangerousTools: names,
  approvalMode: z.enum(['auto', 'manual', 'deny', 'allow'], { error: 'approvalMode must be auto, manual, deny or allow' }),
  approvalTimeoutMs: z.number().int().min(1000).max(3_600_000),
  approvalLowRiskTools: names,
  approvalMediumRiskTools: names,
  approvalHighRiskTools: names,
  approvalBypassTools: names,
  approvalAllowSessionBypass: z.boolean(),
  approvalSessionBypassMaxRisk: risk,
  maxRounds: z.number().int().min(1).max(50),
  watchScripts: z.boolean(),
  eventProbability: z.number().min(0).max(1),
  scriptTimeoutMs: z.number().int().min(100).max(600_000)
}, { error: 'body must be a JSON object' }).partial()
type ConfigPatch = z.infer<typeof builtinConfigPatch>

const categoryToggle = z.object({ category: z.string({ error: 'category is required' }).min(1, 'category is required').max(100), enabled: enabledField }, { error: 'body must be a JSON object' })
const toolToggle = z.object({ toolName: toolNameField, enabled: enabledField }, { error: 'body must be a JSON object' })
const dangerousPut = z.strictObject({ dangerousTools: names.optional(), allowDangerous: z.boolean({ error: 'allowDangerous must be a boolean' }).optional() }, { error: 'body must be a JSON object' })
const dangerousToggle = z.object({ toolName: toolNameField, dangerous: z.boolean({ error: 'dangerous must be a boolean' }).optional() }, { error: 'body must be a JSON object' })
const probabilityBody = z.object({ probability: z.number({ error: 'probability must be a number between 0 and 1' }).min(0, 'probability must be between 0 and 1').max(1, 'probability must be between 0 and 1') }, { error: 'body must be a JSON object' })
const watcherToggle = z.object({ enabled: z.boolean({ error: 'enabled must be a boolean' }).optional() }, { error: 'body must be a JSON object' })
const logsQuery = z.object({
  tool: z.string().max(200).optional(),
  toolName: z.string().max(200).optional(),
  userId: z.string().max(100).optional(),
  status: z.enum(['success', 'error'], { error: 'status must be success or error' }).optional()
})

export function builtinConfig (rt: Runtime): Record<string, unknown> {
  return { ...rt.config.get().tools }
}

/** Merges a patch; refreshes the built-in tools; rolls back (and refreshes again) when that fails. */
export async function updateBuiltinConfig (rt: Runtime, patch: ConfigPatch): Promise<Record<string, unknown>> {
  const { builtin, registry } = kitOf(rt)
  const before = rt.config.get().tools
  const previous = Object.fromEntries(Object.keys(patch).map((k) => [k, before[k as keyof typeof before]]))
  await rt.config.update({ tools: patch })
  try {
    builtin.refresh()
    registry.refresh()
  } catch (err) {
    rt.log.warn('Refreshing the built-in tools failed; configuration rolled back', { error: errorText(err) })
    await rt.config.update({ tools: previous })
    builtin.refresh()
    registry.refresh()
    throw new AppError('INTERNAL_ERROR', 'Refreshing the built-in tools failed; the configuration was rolled back')
  }
  const { scripts } = kitOf(rt)
  if (patch.watchScripts === true) await scripts.startWatching()
  if (patch.watchScripts === false) await scripts.stopWatching()
  return builtinConfig(rt)
}

const builtinTools = (rt: Runtime): RegisteredTool[] => kitOf(rt).registry.list({ includeDisabled: true }).filter((t) => t.source === 'builtin')

async function setMany (rt: Runtime, tools: RegisteredTool[], enabled: boolean): Promise<number> {
  const c = rt.config.get().tools
  const set = new Set(c.disabledTools)
  for (const t of tools) { if (enabled) set.delete(t.name); else set.add(t.name) }
  const cats = new Set(tools.map((t) => t.category))
  const patch: Record<string, unknown> = { disabledTools: [...set] }
  if (enabled) patch.disabledCategories = c.disabledCategories.filter((x) => !cats.has(x))
  await rt.config.update({ tools: patch })
  return tools.length
}

export function toolsRoutes (rt: Runtime): Router[] {
  const r = new Router({ prefix: '/api/tools' })
  const reg = () => kitOf(rt).registry
  const findTool = (name: string): RegisteredTool => {
    const t = reg().get(name)
    if (!t) throw notFound(`Tool ${name} does not exist`, 'TOOL_NOT_FOUND')
    return t
  }

  r.get('/list', B(() => reg().list({ includeDisabled: true }).map((t) => ({ ...toolView(rt, t), identity: identityOf(rt, t) }))))
  const builtinList = B(() => builtinTools(rt).map((t) => toolView(rt, t)))
  r.get('/builtin', builtinList)
  r.get('/builtin/list', builtinList)
  r.get('/builtin/categories', B(() => {
    const counts = new Map<string, number>()
    for (const t of builtinTools(rt)) counts.set(t.category, (counts.get(t.category) ?? 0) + 1)
    return [...counts.entries()].sort(([a], [b]) => a.localeCompare(b))
      .map(([key, toolCount]) => ({ key, name: key, toolCount, enabled: reg().isCategoryEnabled(key) }))
  }))
  r.get('/builtin/config', B(() => builtinConfig(rt)))
  r.put('/builtin/config', B(async (ctx) => reply(await updateBuiltinConfig(rt, parseBody(ctx, builtinConfigPatch)), { message: 'Configuration saved' })))
  r.post('/builtin/category/toggle', B(async (ctx) => {
    const { category, enabled } = parseBody(ctx, categoryToggle)
    if (!reg().list({ includeDisabled: true }).some((t) => t.category === category)) throw notFound(`Category ${category} does not exist`)
    await reg().setCategoryEnabled(category, enabled)
    return { category, enabled: reg().isCategoryEnabled(category) }
  }))
  r.post('/builtin/tool/toggle', B(async (ctx) => {
    const { toolName, enabled } = parseBody(ctx, toolToggle)
    findTool(toolName)
    await reg().setEnabled(toolName, enabled)
    return { toolName, enabled: reg().isEnabled(toolName) }
  }))
  r.post('/builtin/refresh', B(() => { kitOf(rt).builtin.refresh(); return { count: builtinTools(rt).length } }))
  r.post('/builtin/enable-all', B(async () => ({ count: await setMany(rt, builtinTools(rt), true) })))
  r.post('/builtin/disable-all', B(async () => ({ count: await setMany(rt, builtinTools(rt), false) })))
  r.post('/refresh', B(() => { kitOf(rt).builtin.refresh(); reg().refresh(); return { count: reg().list({ includeDisabled: true }).length } }))
  r.post('/reload-all', B(async () => {
    kitOf(rt).builtin.refresh()
    const scripts = await kitOf(rt).scripts.reloadAll()
    reg().refresh()
    return { count: reg().list({ includeDisabled: true }).length, scripts }
  }))

  // Spec 6.4: `start`, then `result` or `error`; administrator context.
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
      const result = await reg().call(toolName, args, adminTestContext(ctx))
      sse.send('result', { toolName, result, isError: result.isError, duration: Math.round(performance.now() - started) })
    } catch (err) {
      sse.send('error', { toolName, error: errorText(err), message: errorText(err) })
    }
    sse.close()
  }))

  r.get('/logs', B((ctx) => {
    const q = parseWith(logsQuery, ctx.query)
    const toolName = q.toolName ?? q.tool
    return reg().log.query({
      ...(toolName ? { toolName } : {}),
      ...(q.userId ? { userId: q.userId } : {}),
      ...(q.status ? { status: q.status } : {}),
      limit: intParam(ctx.query.limit, 50, 1, 1000),
      offset: intParam(ctx.query.offset, 0, 0, 1_000_000)
    })
  }))
  r.delete('/logs', B(() => reply({ cleared: reg().log.clear() }, { message: 'Tool logs cleared' })))

  r.get('/dangerous', B(() => {
    const c = rt.config.get().tools
    return {
      dangerousTools: c.dangerousTools,
      allowDangerous: c.allowDangerous,
      tools: reg().list({ includeDisabled: true }).filter((t) => reg().isDangerous(t)).map((t) => ({ name: t.name, risk: reg().riskOf(t), configured: c.dangerousTools.includes(t.name), builtin: t.dangerous }))
    }
  }))
  r.put('/dangerous', B(async (ctx) => {
    const body = parseBody(ctx, dangerousPut)
    const patch: Record<string, unknown> = {}
    if (body.dangerousTools) patch.dangerousTools = [...new Set(body.dangerousTools)]
    if (body.allowDangerous !== undefined) patch.allowDangerous = body.allowDangerous
    if (Object.keys(patch).length === 0) throw new AppError('INVALID_ARGS', 'dangerousTools or allowDangerous is required')
    await rt.config.update({ tools: patch })
    const c = rt.config.get().tools
    return { dangerousTools: c.dangerousTools, allowDangerous: c.allowDangerous }
  }))
  r.post('/dangerous/toggle', B(async (ctx) => {
    const { toolName, dangerous } = parseBody(ctx, dangerousToggle)
    const t = findTool(toolName)
    const next = dangerous ?? !rt.config.get().tools.dangerousTools.includes(toolName)
    await reg().setDangerous(toolName, next)
    return { toolName, dangerous: reg().isDangerous(t) }
  }))

  r.get('/event-probability', B(() => ({ probability: rt.config.get().tools.eventProbability })))
  r.put('/event-probability', B(async (ctx) => {
    const { probability } = parseBody(ctx, probabilityBody)
    await rt.config.update({ tools: { eventProbability: probability } })
    return { probability }
  }))

  const watcherStatus = (): Record<string, unknown> => {
    const s = kitOf(rt).scripts
    return { watching: s.watching, enabled: rt.config.get().tools.watchScripts, dir: 'tools', scripts: s.list().length }
  }
  r.get('/watcher/status', B(() => watcherStatus()))
  r.post('/watcher/toggle', B(async (ctx) => {
    const { enabled } = parseBody(ctx, watcherToggle)
    const next = enabled ?? !kitOf(rt).scripts.watching
    await updateBuiltinConfig(rt, { watchScripts: next })
    return watcherStatus()
  }))

  r.get('/stats', B(() => {
    const all = reg().list({ includeDisabled: true })
    const bySource: Record<string, number> = { builtin: 0, custom: 0, script: 0, mcp: 0 }
    for (const t of all) bySource[t.source] = (bySource[t.source] ?? 0) + 1
    const logs = reg().log.all()
    const errors = logs.filter((l) => l.status === 'error').length
    return {
      totalTools: all.length,
      enabledTools: reg().list().length,
      categories: new Set(all.map((t) => t.category)).size,
      mcpServers: new Set(all.filter((t) => t.server).map((t) => t.server)).size,
      bySource,
      dangerousTools: all.filter((t) => reg().isDangerous(t)).length,
      recentCalls: { total: logs.length, success: logs.length - errors, error: errors, avgDuration: logs.length ? Math.round(logs.reduce((a, l) => a + l.duration, 0) / logs.length * 100) / 100 : 0 },
      usage: rt.stats.tools()
    }
  }))

  // Variant A and the deprecated endpoints come after B's fixed paths (their /:name would take them).
  return [r, toolFileRoutes(rt), toolRoutesA(rt)]
}
