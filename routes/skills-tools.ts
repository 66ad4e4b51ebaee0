// Skills variant B (docs/api.md), the tool side of /api/skills: listing, search, discovery, recommendation,
// execution and switches. Each handler parses and calls lib/skills (tool-admin.ts, search.ts); the
// switches write through the tools domain (lib/tools/switches.ts). Mounted after skills.ts.
import type Router from '@koa/router'
import { z } from 'zod'
import { dict } from '../lib/core/dict.js'
import { notFound } from '../lib/core/errors.js'
import type { Runtime } from '../lib/runtime.js'
import { recommend, searchSkillsAndTools } from '../lib/skills/search.js'
import { requireToolAdmin, toolAdminOf } from '../lib/skills/tool-admin.js'
import { sessionOf } from './_http/auth.js'
import { B, styledRouter } from './_http/envelope.js'
import { intParam, parseBody, parseQuery } from './_http/validate.js'
import { skillDocument, toolCategory, toolCounts, toolResult, toolView } from './_http/answers.js'
import { routeDoc } from './_http/route-docs.js'

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
const optionalText = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined)

const toolsData = z.object({ count: z.number(), tools: z.array(toolView) })
const nameAndText = z.object({ name: z.string(), description: z.string() })
const bySource = z.object({ count: z.number(), tools: z.array(nameAndText) })
const bySourceData = z.object({ builtin: bySource, custom: bySource, script: bySource, mcp: z.record(z.string(), bySource) })
// a hit is a tool (its view) or a skill (its document), with its score
const searchData = z.object({ query: z.string(), count: z.number(), results: z.array(z.looseObject({ type: z.enum(['tool', 'skill']), name: z.string(), score: z.number() })) })
const discoverData = z.object({
  total: z.number(),
  categories: z.record(z.string(), z.object({ name: z.string(), count: z.number(), enabled: z.boolean(), tools: z.array(nameAndText.extend({ enabled: z.boolean() })) })),
  documents: z.number()
})
const detailData = z.union([toolView.extend({ type: z.literal('tool') }), skillDocument.extend({ type: z.literal('skill'), instructions: z.string() })])
const recommendData = z.object({
  context: z.string(), count: z.number(),
  recommendations: z.array(z.object({ type: z.enum(['tool', 'skill']), name: z.string(), description: z.string(), category: z.string(), score: z.number(), reason: z.string() }))
})

export function skillToolRoutes (rt: Runtime): Router {
  const r = styledRouter('B', { prefix: '/api/skills' })

  r.get('/tools', B(async (ctx) => {
    const q = parseQuery(ctx, toolsQuery)
    const admin = toolAdminOf(rt)
    if (!admin) return { count: 0, tools: [] }
    const tools = await admin.listEnabled(sessionOf(ctx), { includeBuiltin: q.includeBuiltin === 'true', includeMcp: q.includeMcp === 'true', presetId: q.presetId })
    return { count: tools.length, tools }
  }))
  routeDoc(r, 'GET', '/tools', { query: toolsQuery, summary: 'List tools', data: toolsData })

  r.get('/tools/by-source', B(() => {
    const group = () => ({ count: 0, tools: [] as Array<{ name: string; description: string }> })
    const out = { builtin: group(), custom: group(), script: group(), mcp: dict<ReturnType<typeof group>>() } // keyed by server name
    for (const t of toolAdminOf(rt)?.all() ?? []) {
      const g = t.source === 'mcp' ? (out.mcp[t.server ?? 'unknown'] ??= group()) : out[t.source]
      g.tools.push({ name: t.name, description: t.description })
      g.count++
    }
    return out
  }))
  routeDoc(r, 'GET', '/tools/by-source', { summary: 'The tools by where they come from (MCP: by server)', data: bySourceData })

  r.post('/execute', B(async (ctx) => {
    const body = parseBody(ctx, executeBody)
    const result = await requireToolAdmin(rt).execute(sessionOf(ctx), body.toolName, body.args, body.presetId)
    return { content: result.content, isError: result.isError }
  }))
  routeDoc(r, 'POST', '/execute', { body: executeBody, summary: 'Run a tool', data: toolResult })

  r.post('/execute/batch', B(async (ctx) => {
    const body = parseBody(ctx, batchBody)
    return requireToolAdmin(rt).executeBatch(sessionOf(ctx), body.calls)
  }))
  routeDoc(r, 'POST', '/execute/batch', { body: batchBody, summary: 'Run several tools', data: z.object({ count: z.number(), results: z.array(z.record(z.string(), z.unknown())) }) })

  r.get('/search', B((ctx) => searchSkillsAndTools(toolAdminOf(rt), rt.need('skills'), {
    q: typeof ctx.query.q === 'string' ? ctx.query.q.trim() : '',
    limit: intParam(ctx.query.limit, 20, 1, 200),
    category: optionalText(ctx.query.category),
    source: optionalText(ctx.query.source)
  })))
  routeDoc(r, 'GET', '/search', { summary: 'Search the tools and skills (q, limit, category, source)', data: searchData })

  r.get('/discover', B(() => {
    const admin = toolAdminOf(rt)
    const categories = dict<{ name: string; count: number; enabled: boolean; tools: Array<{ name: string; description: string; enabled: boolean }> }>()
    const all = admin?.all() ?? []
    for (const c of admin?.categories() ?? []) categories[c.key] = { name: c.name, count: c.toolCount, enabled: c.enabled, tools: [] }
    for (const t of all) categories[t.category]?.tools.push({ name: t.name, description: t.description, enabled: admin?.enabled(t.name) ?? false })
    return { total: all.length, categories, documents: rt.need('skills').list().length }
  }))
  routeDoc(r, 'GET', '/discover', { summary: 'The tools by category, and the skill count', data: discoverData })

  r.get('/tools/:name/detail', B((ctx) => {
    const name = ctx.params.name ?? ''
    const admin = toolAdminOf(rt)
    const tool = admin?.find(name)
    if (admin && tool) return { type: 'tool', ...admin.view(tool) }
    const skill = rt.need('skills').get(name)
    if (skill) return { type: 'skill', ...rt.need('skills').document(skill), instructions: skill.instructions }
    throw notFound(`Skill ${name} does not exist`)
  }))
  routeDoc(r, 'GET', '/tools/:name/detail', { summary: 'A tool or a skill by name', data: detailData })

  r.post('/recommend', B((ctx) => {
    const body = parseBody(ctx, recommendBody)
    return recommend(toolAdminOf(rt), rt.need('skills'), body.context, body.limit)
  }))
  routeDoc(r, 'POST', '/recommend', { body: recommendBody, summary: 'Recommend tools for a text', data: recommendData })

  r.get('/categories', B(() => (toolAdminOf(rt)?.categories() ?? []).map(({ key, name, toolCount, enabled }) => ({ key, name, toolCount, enabled }))))
  routeDoc(r, 'GET', '/categories', { summary: 'The tool categories', data: z.array(toolCategory) })

  r.post('/categories/:key/toggle', B(async (ctx) => {
    const { enabled } = parseBody(ctx, enabledBody)
    const key = ctx.params.key ?? ''
    await requireToolAdmin(rt).setCategory(key, enabled)
    return { category: key, enabled }
  }))
  routeDoc(r, 'POST', '/categories/:key/toggle', { body: enabledBody, summary: 'Switch a tool category on or off', data: z.object({ category: z.string(), enabled: z.boolean() }) })

  r.post('/tools/:name/toggle', B(async (ctx) => {
    const { enabled } = parseBody(ctx, enabledBody)
    const name = ctx.params.name ?? ''
    await requireToolAdmin(rt).setTool(name, enabled)
    return { tool: name, name, enabled }
  }))
  routeDoc(r, 'POST', '/tools/:name/toggle', { body: enabledBody, summary: 'Switch a tool on or off', data: z.object({ tool: z.string(), name: z.string(), enabled: z.boolean() }) })

  r.post('/enable-all', B(async () => requireToolAdmin(rt).setAll(true)))
  routeDoc(r, 'POST', '/enable-all', { summary: 'Switch every tool on', data: z.object({ count: z.number(), enabled: z.boolean() }) })
  r.post('/disable-all', B(async () => requireToolAdmin(rt).setAll(false)))
  routeDoc(r, 'POST', '/disable-all', { summary: 'Switch every tool off', data: z.object({ count: z.number(), enabled: z.boolean() }) })

  r.get('/stats', B(() => toolAdminOf(rt)?.stats() ?? { totalTools: 0, enabledTools: 0, categories: 0, mcpServers: rt.optional('mcp')?.count() ?? 0 }))
  routeDoc(r, 'GET', '/stats', { summary: 'The tool counts', data: toolCounts })
  return r
}
