// MCP server management (docs/api.md, Groups of routes: mcp): variant B at /api/mcp (style B) with
// variant A's connect and disconnect (style A), and /api/skills/mcp/servers* (B, plus A's connect,
// disconnect and reload in style A).
import Router from '@koa/router'
import type { Context } from 'koa'
import { z } from 'zod'
import { dict } from '../lib/core/dict.js'
import { AppError } from '../lib/core/errors.js'
import type { McpManager } from '../lib/mcp/manager.js'
import { mcpToolInfo, serverViewSchema } from '../lib/mcp/types.js'
import type { Runtime } from '../lib/runtime.js'
import { A, B, created, styledRouter } from './_http/envelope.js'
import { done } from './_http/answers.js'
import { routeDoc, type Data } from './_http/route-docs.js'
import { bodyOf } from './_http/validate.js'

/** The manager, or a 503 when the MCP domain did not start. */
function mcpOf (rt: Runtime): McpManager {
  const m = rt.optional('mcp')
  if (!m) throw new AppError('SERVICE_UNAVAILABLE', 'MCP is not initialized')
  return m
}

function objectBody (ctx: Context): Record<string, unknown> {
  const b = bodyOf(ctx)
  if (!b || typeof b !== 'object' || Array.isArray(b)) throw new AppError('INVALID_ARGS', 'body must be a JSON object')
  return b as Record<string, unknown>
}

function requiredString (body: Record<string, unknown>, key: string): string {
  const v = body[key]
  if (typeof v !== 'string' || v.trim() === '') throw new AppError('INVALID_ARGS', `${key} is required`)
  return v
}

/**
 * `{ name, config, trust? }`; a body without `config` is read as the config itself (desktop style).
 * `trust` (true/false or 'trusted'/'untrusted', default untrusted) may be top-level or in the config.
 */
function addBody (ctx: Context): { name: unknown; config: unknown; trust?: unknown } {
  const b = objectBody(ctx)
  if (typeof b.name !== 'string' || b.name.trim() === '') throw new AppError('INVALID_ARGS', 'name is required')
  if (b.config !== undefined) return { name: b.name, config: b.config, ...(b.trust !== undefined ? { trust: b.trust } : {}) }
  const { name, ...rest } = b
  if (Object.keys(rest).length === 0) throw new AppError('INVALID_ARGS', 'config is required')
  return { name, config: rest }
}

// what each connected server lists, with the server's name (MCP resources, templates, prompts)
const listedByServers = z.array(z.looseObject({ serverName: z.string() }))
const serverState = z.object({ name: z.string(), status: serverViewSchema.shape.status, toolCount: z.number() })

const param = (ctx: Context): string => String(ctx.params.name)

/** The variant-B server rows shared by /api/mcp and /api/skills/mcp. */
function serverRoutes (rt: Runtime, r: Router): void {
  r.get('/servers', B((): Data<z.ZodArray<typeof serverViewSchema>> => mcpOf(rt).list()))
  routeDoc(r, 'GET', '/servers', { summary: 'The MCP servers with their state and tools (secrets masked)', data: z.array(serverViewSchema), errors: [503] })
  r.get('/servers/:name', B((ctx): Data<typeof serverViewSchema> => mcpOf(rt).get(param(ctx))))
  routeDoc(r, 'GET', '/servers/:name', { summary: 'An MCP server', data: serverViewSchema, errors: [503] })
  r.post('/servers', B(async (ctx) => {
    const { name, config, trust } = addBody(ctx)
    return created(await mcpOf(rt).add(name, config, trust))
  }))
  routeDoc(r, 'POST', '/servers', { summary: 'Add an MCP server', status: 201, errors: [409, 503], data: serverViewSchema })
  r.delete('/servers/:name', B(async (ctx) => {
    await mcpOf(rt).remove(param(ctx))
    return { success: true }
  }))
  routeDoc(r, 'DELETE', '/servers/:name', { summary: 'Remove an MCP server', data: done })
  r.post('/servers/:name/reconnect', B(async (ctx) => {
    const s = await mcpOf(rt).reconnect(param(ctx))
    return { success: true, name: s.name, status: s.status, toolCount: s.toolCount }
  }))
  routeDoc(r, 'POST', '/servers/:name/reconnect', { summary: 'Reconnect an MCP server', data: done.extend(serverState.shape) })
}

/** Variant A's connect/disconnect (style A; states connecting, connected, disconnected, error). */
function connectRoutes (rt: Runtime, r: Router, withReload: boolean): void {
  r.post('/servers/:name/connect', A(async (ctx) => {
    const s = await mcpOf(rt).connect(param(ctx))
    return { name: s.name, status: s.status, toolCount: s.toolCount }
  }))
  routeDoc(r, 'POST', '/servers/:name/connect', { summary: 'Connect an MCP server', data: serverState })
  r.post('/servers/:name/disconnect', A(async (ctx) => {
    const s = await mcpOf(rt).disconnect(param(ctx))
    return { name: s.name, status: s.status }
  }))
  routeDoc(r, 'POST', '/servers/:name/disconnect', { summary: 'Disconnect an MCP server', data: serverState.omit({ toolCount: true }) })
  if (withReload) {
    r.post('/servers/:name/reload', A(async (ctx) => {
      const s = await mcpOf(rt).reconnect(param(ctx))
      return { name: s.name, status: s.status, toolCount: s.toolCount }
    }))
    routeDoc(r, 'POST', '/servers/:name/reload', { summary: 'Reconnect an MCP server', data: serverState })
  }
}

export function mcpRoutes (rt: Runtime): Router[] {
  const r = styledRouter('B', { prefix: '/api/mcp' })
  connectRoutes(rt, r, false)
  serverRoutes(rt, r)
  r.put('/servers/:name', B(async (ctx) => {
    const b = objectBody(ctx)
    // `{ trust }` alone changes only the master's trust (the tools' risk, at once, no reconnect).
    if ((b.config === undefined || b.config === null) && b.trust !== undefined) return mcpOf(rt).setTrust(param(ctx), b.trust)
    if (b.config === undefined || b.config === null) throw new AppError('INVALID_ARGS', 'config is required')
    return mcpOf(rt).update(param(ctx), b.config, b.trust)
  }))
  routeDoc(r, 'PUT', '/servers/:name', { summary: 'Change an MCP server\'s config or trust', data: serverViewSchema })
  r.get('/servers/:name/tools', B((ctx): Data<z.ZodArray<typeof mcpToolInfo>> => mcpOf(rt).tools(param(ctx))))
  routeDoc(r, 'GET', '/servers/:name/tools', { summary: 'The tools an MCP server offers', data: z.array(mcpToolInfo), errors: [503] })
  r.post('/import', B(async (ctx) => {
    const b = objectBody(ctx)
    const servers = b.mcpServers
    if (!servers || typeof servers !== 'object' || Array.isArray(servers)) throw new AppError('INVALID_ARGS', 'mcpServers must be an object')
    return mcpOf(rt).importServers(servers as Record<string, unknown>)
  }))
  routeDoc(r, 'POST', '/import', { summary: 'Add the servers of a desktop client\'s { mcpServers }', data: z.object({ success: z.number(), failed: z.number(), total: z.number(), errors: z.array(z.object({ name: z.string(), error: z.string() })) }), errors: [503] })
  r.get('/resources', B(() => mcpOf(rt).resources()))
  routeDoc(r, 'GET', '/resources', { summary: 'The resources of the connected servers', data: listedByServers, errors: [503] })
  r.get('/resources/templates', B(() => mcpOf(rt).resourceTemplates()))
  routeDoc(r, 'GET', '/resources/templates', { summary: 'The resource templates of the connected servers', data: listedByServers, errors: [503] })
  r.post('/resources/read', B(async (ctx) => {
    const b = objectBody(ctx)
    return mcpOf(rt).readResource(requiredString(b, 'serverName'), requiredString(b, 'uri'))
  }))
  routeDoc(r, 'POST', '/resources/read', { summary: 'Read a resource of a server (the server\'s MCP answer: { contents })', data: z.looseObject({ contents: z.array(z.looseObject({ uri: z.string() })) }), errors: [404, 503] })
  r.get('/prompts', B(() => mcpOf(rt).prompts()))
  routeDoc(r, 'GET', '/prompts', { summary: 'The prompts of the connected servers', data: listedByServers, errors: [503] })
  r.post('/prompts/get', B(async (ctx) => {
    const b = objectBody(ctx)
    const serverName = requiredString(b, 'serverName')
    const name = requiredString(b, 'name')
    const args = b.args ?? b.arguments ?? {}
    if (!args || typeof args !== 'object' || Array.isArray(args)) throw new AppError('INVALID_ARGS', 'args must be an object')
    const strArgs = dict<string>() // keys from the request
    for (const [k, v] of Object.entries(args as Record<string, unknown>)) strArgs[k] = typeof v === 'string' ? v : JSON.stringify(v)
    return mcpOf(rt).getPrompt(serverName, name, strArgs)
  }))
  routeDoc(r, 'POST', '/prompts/get', { summary: 'Get a prompt of a server (the server\'s MCP answer: { messages })', data: z.looseObject({ messages: z.array(z.looseObject({ role: z.string() })) }), errors: [404, 503] })

  const s = styledRouter('B', { prefix: '/api/skills/mcp' })
  connectRoutes(rt, s, true)
  serverRoutes(rt, s)
  return [r, s]
}
