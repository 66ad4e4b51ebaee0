// Spec 4.6 variant B, the tool side of /api/skills: listing, search, discovery, recommendation,
// execution and switches, all through the tool registry (rt.tools, lib/tools/types.ts).
import type Router from '@koa/router'
import type { Context } from 'koa'
import { z } from 'zod'
import type { ChatScope, ToolResult } from '../lib/chat/contracts.js'
import { dict } from '../lib/core/dict.js'
import { AppError, errorText, notFound } from '../lib/core/errors.js'
import type { Runtime } from '../lib/runtime.js'
import { triggerMatches } from '../lib/skills/activation.js'
import { type ToolAdmin, toolAdminOf } from '../lib/skills/tool-admin.js'
import type { RegisteredTool, ToolCallContext } from '../lib/tools/types.js'
import { sessionOf } from './_http/auth.js'
import { B } from './_http/envelope.js'
import { intParam, parseBody, parseQuery } from './_http/validate.js'

const enabledBody = z.object({ enabled: z.boolean({ error: 'enabled must be a boolean' }) }, { error: 'body must be a JSON object' })
const argsSchema = z.record(z.string(), z.unknown(), { error: 'args must be an object' }).default({})
const executeBody = z.object({
  toolName: z.string({ error: 'toolName is required' }).trim().min(1, 'toolName is required'),
  args: argsSchema,
  presetId: z.string({ error: 'presetId must be a string' }).max(100).optional()
}, { error: 'body must be a JSON object' })
const batchBody = z.object({
  calls: z.array(z.object({
    toolName: z.string({ error: 'toolName is required' }).trim().min(1, 'toolName is required'),
    args: argsSchema
  }, { error: 'each call must be an object { toolName, args }' }), { error: 'calls must be a non-empty array' })
    .min(1, 'calls must be a non-empty array').max(50, 'at most 50 calls per batch'),
  presetId: z.string().max(100).default('default')
}, { error: 'body must be a JSON object' })
const recommendBody = z.object({
  context: z.string({ error: 'context is required' }).trim().min(1, 'context is required').max(10_000, 'context is too long'),
  limit: z.number({ error: 'limit must be a number' }).int().min(1).max(50).default(5)
}, { error: 'body must be a JSON object' })
const toolsQuery = z.object({
  includeBuiltin: z.string().default('true'),
  includeMcp: z.string().default('true'),
  presetId: z.string().max(100).default('default')
})

export interface ToolView {
  name: string
  description: string
  category: string
  source: string
  server?: string
  enabled: boolean
  dangerous: boolean
  risk: string
  inputSchema: RegisteredTool['inputSchema']
}

export function toolView (admin: ToolAdmin, t: RegisteredTool): ToolView {
  return {
    name: t.name,
    description: t.description,
    category: t.category,
    source: t.source,
    ...(t.server ? { server: t.server } : {}),
    enabled: admin.enabled(t.name),
    dangerous: t.dangerous,
    risk: t.risk,
    inputSchema: t.inputSchema
  }
}

const now = (rt: Runtime): number => rt.clock.now()
const emit = (rt: Runtime, name: string, data: Record<string, unknown>): void => { rt.bus.emit('skills', name, { ...data, timestamp: now(rt) }) }

function requireAdmin (rt: Runtime): ToolAdmin {
  const admin = toolAdminOf(rt)
  if (!admin) throw new AppError('SERVICE_UNAVAILABLE', 'The tool registry is not available')
  return admin
}

/** Administrator context of the dashboard (spec 4.5 tool test: master, admin test). */
function adminContext (ctx: Context): ToolCallContext {
  const s = sessionOf(ctx)
  const scope: ChatScope = { userId: s.sub, isMaster: true, via: 'admin-test', conversationId: `admin:${s.sub}` }
  return { scope, userPermission: 'master', isMaster: true, isAdminTest: true }
}

/** Tool names a preset lets the model use (spec 2.9 tools); undefined = no preset filter. */
async function presetFilter (rt: Runtime, ctx: Context, presetId: string): Promise<((name: string) => boolean) | undefined> {
  const resolver = rt.chat.presets
  if (!resolver) return undefined
  const s = sessionOf(ctx)
  const scope: ChatScope = { userId: s.sub, isMaster: true, via: 'api', conversationId: `admin:${s.sub}` }
  // An unknown preset named by the client is a 404; the implicit default never blocks the listing.
  const preset = presetId === 'default'
    ? await resolver.resolve(scope, presetId).catch(() => undefined)
    : await resolver.resolve(scope, presetId)
  if (!preset) return undefined
  const { enabled, allowedTools, excludedTools } = preset.tools
  return (name) => enabled && !excludedTools.includes(name) && (allowedTools.length === 0 || allowedTools.includes(name))
}

async function runTool (rt: Runtime, ctx: Context, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  const admin = requireAdmin(rt)
  if (!admin.registry.get(name)) throw notFound(`Tool ${name} does not exist`, 'TOOL_NOT_FOUND')
  try {
    return await admin.registry.call(name, args, adminContext(ctx))
  } catch (err) {
    if (err instanceof AppError && err.status < 500) throw err
    rt.log.warn('Tool execution failed', { tool: name, error: errorText(err) })
    return { content: [{ type: 'text', text: `Tool ${name} failed: ${errorText(err).slice(0, 500)}` }], isError: true }
  }
}

/** Lower-case words and CJK character pairs: a cheap bag of terms for search and recommendation. */
export function terms (text: string): Set<string> {
  const out = new Set<string>()
  const lower = text.toLowerCase()
  for (const w of lower.match(/[a-z0-9_]{2,}/g) ?? []) out.add(w)
  for (const run of lower.match(/[\u4e00-\u9fff]+/g) ?? []) {
    if (run.length === 1) out.add(run)
    for (let i = 0; i + 1 < run.length; i++) out.add(run.slice(i, i + 2))
  }
  return out
}

function overlap (a: Set<string>, b: Set<string>): number {
  let n = 0
  for (const x of a) if (b.has(x)) n++
  return n
}

export function registerSkillToolRoutes (r: Router, rt: Runtime): void {
  r.get('/tools', B(async (ctx) => {
    const q = parseQuery(ctx, toolsQuery)
    const admin = toolAdminOf(rt)
    if (!admin) return { count: 0, tools: [] }
    const allow = await presetFilter(rt, ctx, q.presetId)
    const tools = admin.all().filter((t) => admin.enabled(t.name) &&
      (t.source !== 'builtin' || q.includeBuiltin === 'true') &&
      (t.source !== 'mcp' || q.includeMcp === 'true') &&
      (allow ? allow(t.name) : true)).map((t) => toolView(admin, t))
    return { count: tools.length, tools }
  }))

  r.get('/tools/by-source', B(() => {
    const admin = toolAdminOf(rt)
    const group = () => ({ count: 0, tools: [] as Array<{ name: string; description: string }> })
    const out = { builtin: group(), custom: group(), script: group(), mcp: dict<ReturnType<typeof group>>() } // keyed by server name
    for (const t of admin?.all() ?? []) {
      const g = t.source === 'mcp' ? (out.mcp[t.server ?? 'unknown'] ??= group()) : out[t.source]
      g.tools.push({ name: t.name, description: t.description })
      g.count++
    }
    return out
  }))

  r.post('/execute', B(async (ctx) => {
    const body = parseBody(ctx, executeBody)
    let success = false
    try {
      // An explicit preset limits the call to the tools that preset offers (spec 2.9 tools).
      const allow = body.presetId ? await presetFilter(rt, ctx, body.presetId) : undefined
      if (allow && !allow(body.toolName)) throw new AppError('TOOL_DISABLED', `Tool ${body.toolName} is not enabled for preset ${body.presetId}`)
      const result = await runTool(rt, ctx, body.toolName, body.args)
      success = !result.isError
      return { content: result.content, isError: result.isError }
    } finally {
      emit(rt, 'tool-executed', { toolName: body.toolName, success })
    }
  }))

  r.post('/execute/batch', B(async (ctx) => {
    const body = parseBody(ctx, batchBody)
    requireAdmin(rt)
    const results = await Promise.all(body.calls.map(async (c) => {
      try {
        const result = await runTool(rt, ctx, c.toolName, c.args)
        return { toolName: c.toolName, success: !result.isError, result }
      } catch (err) {
        return { toolName: c.toolName, success: false, error: err instanceof AppError ? err.message : 'Tool execution failed' }
      }
    }))
    emit(rt, 'batch-executed', { count: results.length })
    return { count: results.length, results }
  }))

  r.get('/search', B((ctx) => {
    const q = typeof ctx.query.q === 'string' ? ctx.query.q.trim() : ''
    const limit = intParam(ctx.query.limit, 20, 1, 200)
    const category = typeof ctx.query.category === 'string' && ctx.query.category ? ctx.query.category : undefined
    const source = typeof ctx.query.source === 'string' && ctx.query.source ? ctx.query.source : undefined
    const needle = q.toLowerCase()
    const score = (name: string, description: string): number => {
      if (!needle) return 1
      return (name.toLowerCase() === needle ? 10 : 0) + (name.toLowerCase().includes(needle) ? 5 : 0) + (description.toLowerCase().includes(needle) ? 2 : 0)
    }
    const admin = toolAdminOf(rt)
    const results: Array<Record<string, unknown> & { score: number; name: string }> = []
    for (const t of admin ? admin.all() : []) {
      if (!admin || (category && t.category !== category) || (source && t.source !== source)) continue
      const s = score(t.name, t.description)
      if (s > 0) results.push({ type: 'tool', ...toolView(admin, t), score: s })
    }
    if ((!category || category === 'documents') && (!source || source === 'skill')) {
      for (const s of rt.skills.list()) {
        const sc = score(s.name, `${s.description} ${s.triggers.join(' ')}`)
        if (sc > 0) results.push({ type: 'skill', ...rt.skills.document(s), category: 'documents', source: 'skill', score: sc })
      }
    }
    results.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name))
    return { query: q, count: Math.min(limit, results.length), results: results.slice(0, limit) }
  }))

  r.get('/discover', B(() => {
    const admin = toolAdminOf(rt)
    const categories = dict<{ name: string; count: number; enabled: boolean; tools: Array<{ name: string; description: string; enabled: boolean }> }>()
    const all = admin?.all() ?? []
    for (const c of admin?.categories() ?? []) categories[c.key] = { name: c.name, count: c.toolCount, enabled: c.enabled, tools: [] }
    for (const t of all) categories[t.category]?.tools.push({ name: t.name, description: t.description, enabled: admin?.enabled(t.name) ?? false })
    return { total: all.length, categories, documents: rt.skills.list().length }
  }))

  r.get('/tools/:name/detail', B((ctx) => {
    const name = ctx.params.name ?? ''
    const admin = toolAdminOf(rt)
    const tool = admin?.registry.get(name) ?? admin?.all().find((t) => t.name === name)
    if (admin && tool) return { type: 'tool', ...toolView(admin, tool) }
    const skill = rt.skills.get(name)
    if (skill) return { type: 'skill', ...rt.skills.document(skill), instructions: skill.instructions }
    throw notFound(`Skill ${name} does not exist`)
  }))

  r.post('/recommend', B((ctx) => {
    const body = parseBody(ctx, recommendBody)
    const want = terms(body.context)
    const recs: Array<{ type: 'tool' | 'skill'; name: string; description: string; category: string; score: number; reason: string }> = []
    for (const s of rt.skills.list()) {
      const triggered = s.triggers.filter((t) => triggerMatches(t, body.context))
      const score = triggered.length * 5 + overlap(want, terms(`${s.name} ${s.description} ${s.capabilities.join(' ')}`))
      if (score > 0) recs.push({ type: 'skill', name: s.name, description: s.description, category: 'documents', score, reason: triggered.length ? `trigger: ${triggered.join(', ')}` : 'matching words' })
    }
    const admin = toolAdminOf(rt)
    for (const t of admin?.all() ?? []) {
      if (!admin?.enabled(t.name)) continue
      const score = overlap(want, terms(`${t.name.replace(/[_:]/g, ' ')} ${t.description} ${t.category}`))
      if (score > 0) recs.push({ type: 'tool', name: t.name, description: t.description, category: t.category, score, reason: 'matching words' })
    }
    recs.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name))
    const recommendations = recs.slice(0, body.limit)
    return { context: body.context, count: recommendations.length, recommendations }
  }))

  r.get('/categories', B(() => (toolAdminOf(rt)?.categories() ?? []).map(({ key, name, toolCount, enabled }) => ({ key, name, toolCount, enabled }))))

  r.post('/categories/:key/toggle', B(async (ctx) => {
    const { enabled } = parseBody(ctx, enabledBody)
    const key = ctx.params.key ?? ''
    await toggleCategory(rt, key, enabled)
    return { category: key, enabled }
  }))

  r.post('/tools/:name/toggle', B(async (ctx) => {
    const { enabled } = parseBody(ctx, enabledBody)
    const name = ctx.params.name ?? ''
    await toggleTool(rt, name, enabled)
    return { tool: name, name, enabled }
  }))

  r.post('/enable-all', B(async () => setAll(rt, true)))
  r.post('/disable-all', B(async () => setAll(rt, false)))

  r.get('/stats', B(() => toolStats(rt)))
}

export async function toggleCategory (rt: Runtime, key: string, enabled: boolean): Promise<void> {
  const admin = requireAdmin(rt)
  if (!admin.hasCategory(key)) throw notFound(`Category ${key} does not exist`)
  await admin.setCategory(key, enabled)
  emit(rt, 'category-toggled', { category: key, enabled })
}

export async function toggleTool (rt: Runtime, name: string, enabled: boolean): Promise<void> {
  const admin = requireAdmin(rt)
  if (!admin.all().some((t) => t.name === name)) throw notFound(`Tool ${name} does not exist`, 'TOOL_NOT_FOUND')
  await admin.setTool(name, enabled)
  emit(rt, 'tool-toggled', { tool: name, enabled })
}

async function setAll (rt: Runtime, enabled: boolean): Promise<{ count: number; enabled: boolean }> {
  const count = await requireAdmin(rt).setAll(enabled)
  const result = { count, enabled }
  emit(rt, enabled ? 'tools-enabled-all' : 'tools-disabled-all', result)
  return result
}

export function toolStats (rt: Runtime): { totalTools: number; enabledTools: number; categories: number; mcpServers: number } {
  const admin = toolAdminOf(rt)
  const all = admin?.all() ?? []
  const servers = new Set(all.filter((t) => t.source === 'mcp').map((t) => t.server ?? ''))
  return {
    totalTools: all.length,
    enabledTools: all.filter((t) => admin?.enabled(t.name)).length,
    categories: new Set(all.map((t) => t.category)).size,
    mcpServers: rt.providers.mcpServerCount?.() ?? servers.size
  }
}
