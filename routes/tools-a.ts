// Tools variant A (style A, docs/api.md, Groups of routes): GET /api/tools and GET /api/tools/:name (each tool
// with its "offered on /mcp" switch, `offeredOnMcp`), the toggles
// and POST /api/tools/call; plus variant B's deprecated endpoints (style B, `deprecated: true`).
import type Router from '@koa/router'
import { dict } from '../lib/core/dict.js'
import { z } from 'zod'
import { AppError, notFound } from '../lib/core/errors.js'
import type { Runtime } from '../lib/runtime.js'
import { A, B, reply, styledRouter } from './_http/envelope.js'
import { offeredOnMcp, withMcpOffer } from '../lib/mcp/endpoint.js'
import { toolKitOf, updateToolsConfig } from '../lib/tools/index.js'
import { argsField, enabledField, toolsConfigPatch } from '../lib/tools/schemas.js'
import { apiContext, checkArgs, toolView } from '../lib/tools/views.js'
import { sessionOf } from './_http/auth.js'
import { parseBody } from './_http/validate.js'
import { toolResult, toolView as toolViewData } from './_http/answers.js'
import { routeDoc } from './_http/route-docs.js'
import { configSchema } from '../lib/config/schema.js'

const toggleBody = z.object({ enabled: enabledField }, { error: 'body must be a JSON object' })
const optionalToggle = z.object({ enabled: enabledField.optional() }, { error: 'body must be a JSON object' })
const callBody = z.object({
  name: z.string({ error: 'name is required' }).trim().min(1, 'name is required').max(200),
  args: argsField.default({})
}, { error: 'body must be a JSON object' })

const mcpOfferBody = z.object({ offered: z.boolean({ error: 'offered must be a boolean' }) }, { error: 'body must be a JSON object' })

// the deprecated routes say so beside the data: { deprecated: true, replacement } in the envelope
const toolWithOffer = toolViewData.extend({ offeredOnMcp: z.boolean() })
const toolsData = z.object({ tools: z.array(toolWithOffer), categories: z.record(z.string(), z.object({ name: z.string(), enabled: z.boolean() })) })

const deprecated = (replacement: string) => ({ deprecated: true, replacement })

export function toolRoutesA (rt: Runtime): Router {
  const r = styledRouter('A', { prefix: '/api/tools' })
  const kit = () => toolKitOf(rt)
  const reg = () => kit().registry
  const sw = () => reg().switches

  // Deprecated (variant B): registered before /:name, which would take GET /enabled.
  r.get('/enabled', B(() => reply({ ...sw().config }, { extra: deprecated('GET /api/tools/builtin/config') })))
  routeDoc(r, 'GET', '/enabled', { summary: 'The tools settings (deprecated: GET /api/tools/builtin/config)', data: configSchema.shape.tools })
  r.put('/enabled', B(async (ctx) => reply({ ...await updateToolsConfig(kit(), parseBody(ctx, toolsConfigPatch)) }, { extra: deprecated('PUT /api/tools/builtin/config') })))
  routeDoc(r, 'PUT', '/enabled', { body: toolsConfigPatch, summary: 'Update the tools settings (deprecated)', data: configSchema.shape.tools })
  r.post('/toggle/:name', B(async (ctx) => {
    const name = ctx.params.name ?? ''
    if (!reg().get(name)) throw notFound(`Tool ${name} does not exist`, 'TOOL_NOT_FOUND')
    const { enabled } = parseBody(ctx, optionalToggle)
    await sw().setTool(name, enabled ?? !reg().isEnabled(name))
    return reply({ toolName: name, enabled: reg().isEnabled(name) }, { extra: deprecated('POST /api/tools/builtin/tool/toggle') })
  }))
  routeDoc(r, 'POST', '/toggle/:name', { body: optionalToggle, summary: 'Switch a tool on or off (deprecated)', data: z.object({ toolName: z.string(), enabled: z.boolean() }), errors: [404] })

  r.get('/', A(() => {
    const categories = dict<{ name: string; enabled: boolean }>() // keys: tool categories (scripts choose theirs)
    for (const c of reg().categories()) categories[c.key] = { name: c.name, enabled: c.enabled }
    const offer = rt.config.get().mcp.server
    return { tools: reg().list({ includeDisabled: true }).map((t) => ({ ...toolView(reg(), t), offeredOnMcp: offeredOnMcp(t, offer) })), categories }
  }))
  routeDoc(r, 'GET', '/', { summary: 'Every tool with its switches, and the categories', data: toolsData })
  r.post('/call', A(async (ctx) => {
    const { name, args } = parseBody(ctx, callBody)
    const t = reg().get(name)
    if (!t) throw new AppError('TOOL_NOT_FOUND', `Tool ${name} does not exist`)
    if (!reg().isEnabled(name)) throw new AppError('TOOL_DISABLED', `Tool ${name} is disabled`)
    checkArgs(t, args)
    const started = performance.now()
    const result = await reg().call(name, args, apiContext(sessionOf(ctx)))
    const duration = Math.round((performance.now() - started) * 100) / 100
    if (result.isError) {
      const text = result.content.map((c) => c.type === 'text' ? c.text : '').join('\n').slice(0, 1000)
      throw new AppError('EXECUTION_ERROR', text || `Tool ${name} failed`)
    }
    return { result, duration }
  }))
  routeDoc(r, 'POST', '/call', { body: callBody, summary: 'Call a tool', data: z.object({ result: toolResult, duration: z.number() }), errors: [403, 404] })
  r.put('/category/:category/toggle', A(async (ctx) => {
    const category = ctx.params.category ?? ''
    const { enabled } = parseBody(ctx, toggleBody)
    const toolCount = await sw().setCategory(category, enabled)
    return { category, enabled: reg().isCategoryEnabled(category), toolCount }
  }))
  routeDoc(r, 'PUT', '/category/:category/toggle', { body: toggleBody, summary: 'Switch a tool category on or off', data: z.object({ category: z.string(), enabled: z.boolean(), toolCount: z.number() }) })
  r.get('/:name', A((ctx) => {
    const t = reg().get(ctx.params.name ?? '')
    if (!t) throw new AppError('TOOL_NOT_FOUND', `Tool ${ctx.params.name} does not exist`)
    return { ...toolView(reg(), t), offeredOnMcp: offeredOnMcp(t, rt.config.get().mcp.server) }
  }))
  routeDoc(r, 'GET', '/:name', { summary: 'A tool with its switches', data: toolWithOffer })
  let offerWrites: Promise<void> = Promise.resolve()
  // The tool's "offered on /mcp" switch (config mcp.server.offeredTools / withheldTools; lib/mcp/endpoint.ts).
  r.put('/:name/mcp', A(async (ctx) => {
    const name = ctx.params.name ?? ''
    const { offered } = parseBody(ctx, mcpOfferBody)
    const t = reg().get(name)
    if (!t) throw new AppError('TOOL_NOT_FOUND', `Tool ${name} does not exist`)
    // one switch at a time: each reads the lists the previous one wrote
    const write = offerWrites.then(() => rt.config.update({ mcp: { server: withMcpOffer(rt.config.get().mcp.server, t, offered) } }))
    offerWrites = write.then(() => undefined, () => undefined)
    await write
    return { name, offeredOnMcp: offeredOnMcp(t, rt.config.get().mcp.server) }
  }))
  routeDoc(r, 'PUT', '/:name/mcp', { body: mcpOfferBody, summary: 'Offer a tool on our /mcp endpoint or not', data: z.object({ name: z.string(), offeredOnMcp: z.boolean() }) })
  r.put('/:name/toggle', A(async (ctx) => {
    const name = ctx.params.name ?? ''
    const { enabled } = parseBody(ctx, toggleBody)
    if (!reg().get(name)) throw new AppError('TOOL_NOT_FOUND', `Tool ${name} does not exist`)
    await sw().setTool(name, enabled)
    return { name, enabled: reg().isEnabled(name) }
  }))
  routeDoc(r, 'PUT', '/:name/toggle', { body: toggleBody, summary: 'Switch a tool on or off', data: z.object({ name: z.string(), enabled: z.boolean() }) })
  return r
}
