// Skills (docs/api.md, Groups of routes): variant B at /api/skills (style B) with the live stream, plus variant A's
// POST /toggle-category and /toggle-tool (style A). The tool-side routes are in skills-tools.ts
// (mounted after this router by routes/index.ts);
// /api/skills/mcp/servers* belong to the MCP routes.
import Router from '@koa/router'
import { z } from 'zod'
import { AppError, notFound } from '../lib/core/errors.js'
import { updateContextSettings } from '../lib/chat/context.js'
import type { Runtime } from '../lib/runtime.js'
import { attachSkillTools } from '../lib/skills/index.js'
import type { SkillService } from '../lib/skills/service.js'
import { requireToolAdmin, toolAdminOf } from '../lib/skills/tool-admin.js'
import { A, B, reply, styledRouter } from './_http/envelope.js'
import { openSse } from './_http/sse.js'
import { parseBody, parseWith } from './_http/validate.js'
import { skillDocument, toolCategory, toolCounts } from './_http/answers.js'
import { routeDoc } from './_http/route-docs.js'

const HEARTBEAT_MS = 30_000


/** The seven context fields of a skill that POST /context-config may change. */
const contextFields = z.object({
  maxTokens: z.number({ error: 'maxTokens must be a number' }).int('maxTokens must be an integer').min(0, 'maxTokens must be >= 0'),
  maxMessages: z.number({ error: 'maxMessages must be a number' }).int('maxMessages must be an integer').min(1, 'maxMessages must be >= 1').max(1000, 'maxMessages must be <= 1000'),
  compressionThreshold: z.number({ error: 'compressionThreshold must be a number' }).min(0, 'compressionThreshold must be between 0 and 1').max(1, 'compressionThreshold must be between 0 and 1'),
  compressionStrategy: z.enum(['summarize', 'truncate', 'sliding-window'], { error: 'compressionStrategy must be summarize, truncate or sliding-window' }),
  preserveSystemPrompt: z.boolean({ error: 'preserveSystemPrompt must be a boolean' }),
  preserveRecentMessages: z.number({ error: 'preserveRecentMessages must be a number' }).int().min(0).max(1000, 'preserveRecentMessages must be <= 1000'),
  autoReloadSkills: z.boolean({ error: 'autoReloadSkills must be a boolean' })
})
type ContextFields = z.infer<typeof contextFields>
const CONTEXT_KEYS = Object.keys(contextFields.shape) as Array<keyof ContextFields>

const statusData = z.object({
  servers: z.array(z.object({ name: z.string(), status: z.string(), type: z.string(), toolsCount: z.number(), connectedAt: z.number().nullable() })),
  stats: toolCounts,
  categories: z.array(toolCategory),
  timestamp: z.number()
})
const documentsData = z.object({ count: z.number(), documents: z.array(skillDocument), errors: z.array(z.object({ file: z.string(), message: z.string() })) })

const toggleCategoryBody = z.object({
  category: z.string({ error: 'category is required' }).min(1, 'category is required'),
  enabled: z.boolean({ error: 'enabled must be a boolean' })
}, { error: 'body must be a JSON object' })
const toggleToolBody = z.object({
  toolName: z.string({ error: 'toolName is required' }).min(1, 'toolName is required'),
  enabled: z.boolean({ error: 'enabled must be a boolean' })
}, { error: 'body must be a JSON object' })

/** The service, or a 500 when the skills domain did not start. */
function skillsOf (rt: Runtime): SkillService {
  const s = rt.optional('skills')
  if (!s) throw new AppError('INTERNAL_ERROR', 'Skills are not initialized')
  return s
}

export function skillsRoutes (rt: Runtime): Router {
  attachSkillTools(rt)
  const r = styledRouter('B', { prefix: '/api/skills' })

  r.get('/sse', (ctx) => {
    const sse = openSse(ctx, rt.bus)
    sse.send('connected', { time: rt.clock.now() })
    const beat = rt.clock.setInterval(() => { sse.send('heartbeat', { time: rt.clock.now() }) }, HEARTBEAT_MS)
    const off = rt.bus.on('skills', (name, data) => { sse.send(name, data) })
    sse.onClose(() => { rt.clock.clearInterval(beat); off() })
  })
  routeDoc(r, 'GET', '/sse', { summary: 'Skill, tool and MCP server events (SSE)', contentType: 'text/event-stream', events: ['connected', 'heartbeat (every 30 s)', 'skill events', 'tool events', 'MCP server events'] })

  r.get('/status', B(() => {
    const admin = toolAdminOf(rt)
    const byServer = new Map<string, number>()
    for (const t of admin?.all() ?? []) if (t.source === 'mcp') byServer.set(t.server ?? 'unknown', (byServer.get(t.server ?? 'unknown') ?? 0) + 1)
    // The MCP manager's own view when it runs; else derived from the MCP tools.
    const mcp = rt.optional('mcp')
    const servers = mcp
      ? mcp.list().map((v) => ({ name: v.name, status: v.status, type: v.type, toolsCount: v.toolsCount ?? 0, connectedAt: v.connectedAt ?? null }))
      : [...byServer].map(([name, toolsCount]) => ({ name, status: 'connected', type: 'mcp', toolsCount, connectedAt: null }))
    const stats = admin?.stats() ?? { totalTools: 0, enabledTools: 0, categories: 0, mcpServers: rt.optional('mcp')?.count() ?? 0 }
    return { servers, stats, categories: admin?.categories().map(({ key, name, toolCount, enabled }) => ({ key, name, toolCount, enabled })) ?? [], timestamp: rt.clock.now() }
  }))
  routeDoc(r, 'GET', '/status', { summary: 'MCP servers, tool counts and categories', data: statusData })

  r.get('/documents', B(() => {
    const skills = skillsOf(rt)
    const documents = skills.list().map((s) => skills.document(s))
    return { count: documents.length, documents, errors: skills.errors().map((e) => ({ file: e.path.split(/[\\/]/).slice(-2).join('/'), message: e.message })) }
  }))
  routeDoc(r, 'GET', '/documents', { summary: 'The skill documents and the files that failed to load', data: documentsData, errors: [500] })

  r.post('/reload', B(async () => {
    const skills = skillsOf(rt)
    await skills.reload()
    const admin = toolAdminOf(rt)
    await admin?.reload()
    const result = { skills: skills.list().length, errors: skills.errors().length, tools: admin?.all().length ?? 0 }
    rt.bus.emit('skills', 'tools-reloaded', { ...result, timestamp: rt.clock.now() })
    return result
  }))
  routeDoc(r, 'POST', '/reload', { summary: 'Reload the skills and tools', data: z.object({ skills: z.number(), errors: z.number(), tools: z.number() }) })

  r.get('/context-config', B(() => pickContext(rt.config.get().context as Partial<ContextFields>)))
  routeDoc(r, 'GET', '/context-config', { summary: 'The context settings', data: contextFields.partial() })

  r.post('/context-config', B(async (ctx) => {
    const body = parseWith(z.record(z.string(), z.unknown(), { error: 'body must be a JSON object' }), ctx.request.body ?? {})
    const present = Object.fromEntries(CONTEXT_KEYS.filter((k) => body[k] !== undefined).map((k) => [k, body[k]]))
    const fields = parseWith(contextFields.partial(), present)
    if (Object.keys(fields).length > 0) await updateContextSettings(rt.config, fields)
    return reply(fields, { message: 'Context config updated' })
  }))
  routeDoc(r, 'POST', '/context-config', { body: contextFields.partial(), summary: 'Update the context settings', data: contextFields.partial() })

  r.get('/loaded', B(() => {
    const skills = rt.optional('skills')
    if (!skills) return { skills: [], loaded: [] }
    const loaded = skills.loadedNames()
    return { skills: loaded.map((n) => skills.get(n)).filter((s) => s !== undefined).map((s) => skills.document(s)), loaded }
  }))
  routeDoc(r, 'GET', '/loaded', { summary: 'The loaded skills', data: z.object({ skills: z.array(skillDocument), loaded: z.array(z.string()) }) })

  r.post('/load/:name', B(async (ctx) => {
    const skills = skillsOf(rt)
    const name = ctx.params.name ?? ''
    if (!(await skills.load(name))) throw notFound(`Skill ${name} does not exist`)
    return { name, loaded: true }
  }))
  routeDoc(r, 'POST', '/load/:name', { summary: 'Load a skill', data: z.object({ name: z.string(), loaded: z.literal(true) }) })

  r.post('/unload/:name', B(async (ctx) => {
    const skills = skillsOf(rt)
    const name = ctx.params.name ?? ''
    if (!skills.get(name) && !skills.isLoaded(name)) throw notFound(`Skill ${name} does not exist`)
    await skills.unload(name)
    return { name, loaded: false }
  }))
  routeDoc(r, 'POST', '/unload/:name', { summary: 'Unload a skill', data: z.object({ name: z.string(), loaded: z.literal(false) }) })

  // Variant A (style A).
  r.post('/toggle-category', A(async (ctx) => {
    const body = parseBody(ctx, toggleCategoryBody)
    await requireToolAdmin(rt).setCategory(body.category, body.enabled)
    return { category: body.category, enabled: body.enabled }
  }))
  routeDoc(r, 'POST', '/toggle-category', { body: toggleCategoryBody, summary: 'Switch a tool category on or off', data: toggleCategoryBody })
  r.post('/toggle-tool', A(async (ctx) => {
    const body = parseBody(ctx, toggleToolBody)
    await requireToolAdmin(rt).setTool(body.toolName, body.enabled)
    return { toolName: body.toolName, enabled: body.enabled }
  }))
  routeDoc(r, 'POST', '/toggle-tool', { body: toggleToolBody, summary: 'Switch a tool on or off', data: toggleToolBody })

  return r
}

function pickContext (c: Partial<ContextFields>): Partial<ContextFields> {
  return Object.fromEntries(CONTEXT_KEYS.filter((k) => c[k] !== undefined).map((k) => [k, c[k]])) as Partial<ContextFields>
}
