// The OpenAPI 3.1 document of the API, built from the routers the app has mounted (their layers give
// every method and path), each route's declared envelope style (envelope.ts), the gate's path rule
// (auth.ts gateOf) and what each route declares it accepts (route-docs.ts). Served at
// GET /api/openapi.json, public like health: it describes the interface and holds no secret values.
import type Router from '@koa/router'
import type Koa from 'koa'
import { z } from 'zod'
import { inputJsonSchema } from '../../lib/config/schema-json.js'
import { CODE_STATUS } from '../../lib/core/errors.js'
import type { Runtime } from '../../lib/runtime.js'
import { gateOf, SESSION_COOKIE } from './auth.js'
import { A, declaredStyle, mountedRouters, styledRouter, type Style } from './envelope.js'
import { docsOf, type RouteDoc } from './route-docs.js'

type Json = Record<string, unknown>

export interface OpenApiDocument {
  openapi: '3.1.0'
  info: { title: string; version: string; description: string }
  tags: Array<{ name: string }>
  paths: Record<string, Record<string, Json>>
  components: { schemas: Record<string, Json>; securitySchemes: Record<string, Json> }
  security: Array<Record<string, string[]>>
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

/** `/api/x/:name` (and `*rest`) as OpenAPI writes it: `/api/x/{name}`. */
export function openApiPath (path: string): string {
  return path.replace(/[:*]([A-Za-z_$][\w$]*)/g, '{$1}')
}

/** A zod schema as JSON Schema (what a client sends: the input side); {} when it cannot be expressed. */
function jsonSchema (schema: z.ZodType): Json {
  try { return inputJsonSchema(schema) } catch { return {} }
}

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` })

const COMPONENT_SCHEMAS: Record<string, Json> = {
  ErrorCode: {
    type: 'string',
    enum: Object.keys(CODE_STATUS),
    description: `The named error codes and their HTTP statuses: ${Object.entries(CODE_STATUS).map(([c, s]) => `${c} ${s}`).join(', ')}.`
  },
  FieldError: { type: 'object', required: ['path', 'message'], properties: { path: { type: 'string' }, message: { type: 'string' } } },
  EnvelopeA: {
    type: 'object',
    description: 'Style A success: { success: true, data?, message? }',
    required: ['success'],
    properties: { success: { const: true }, data: {}, message: { type: 'string' } }
  },
  EnvelopeB: {
    type: 'object',
    description: 'Style B success: { code: 0, data, message }',
    required: ['code', 'data', 'message'],
    properties: { code: { const: 0 }, data: {}, message: { type: 'string' } }
  },
  ErrorA: {
    type: 'object',
    description: 'Style A failure: { success: false, code, message, errors? } with a named code (ErrorCode)',
    required: ['success', 'code', 'message'],
    properties: { success: { const: false }, code: ref('ErrorCode'), message: { type: 'string' }, errors: { type: 'array', items: ref('FieldError') } }
  },
  ErrorB: {
    type: 'object',
    description: 'Style B failure: { code: -1, data: null, message }; the HTTP status carries the named code\'s status (ErrorCode)',
    required: ['code', 'data', 'message'],
    properties: { code: { const: -1 }, data: { type: 'null' }, message: { type: 'string' } }
  }
}

const SECURITY_SCHEMES: Record<string, Json> = {
  bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The session token from POST /api/auth/login' },
  cookieAuth: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'The HttpOnly session cookie set at login (state-changing requests must come from the dashboard\'s origin)' },
  mcpBearer: { type: 'http', scheme: 'bearer', description: 'The MCP endpoint\'s API key (config mcp.server.apiKey)' },
  mcpApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The MCP endpoint\'s API key (config mcp.server.apiKey)' }
}

/** The group a route belongs to: the last segment of its router's prefix, else its first segment under /api. */
function tagOf (r: Router, path: string): string {
  if (path === '/mcp' || path.startsWith('/mcp/')) return 'mcp-endpoint'
  const prefix = (r.opts.prefix ?? '').split('/').filter(Boolean)
  if (prefix.length > 1) return prefix.at(-1) as string
  return (path.split('/').filter(Boolean)[1] ?? 'api').replace(/\.json$/, '')
}

function securityOf (path: string): Array<Record<string, string[]>> | undefined {
  if (path === '/mcp' || path.startsWith('/mcp/')) return [{ mcpBearer: [] }, { mcpApiKey: [] }]
  return gateOf(path) === 'public' ? [] : undefined // undefined: the document's default (session)
}

function success (style: Style | undefined, doc: RouteDoc | undefined): Json {
  if (!style) return { description: 'Success (not wrapped in an envelope)', content: { 'application/json': { schema: {} } } }
  const envelope = ref(style === 'A' ? 'EnvelopeA' : 'EnvelopeB')
  const schema = doc?.data ? { allOf: [envelope, { type: 'object', properties: { data: jsonSchema(doc.data) } }] } : envelope
  return { description: `Success (style ${style} envelope)`, content: { 'application/json': { schema } } }
}

function failure (style: Style | undefined, description: string): Json {
  const schema = style === 'B' ? ref('ErrorB') : ref('ErrorA')
  return { description, content: { 'application/json': { schema } } }
}

function queryParameters (schema: z.ZodType): Json[] {
  const s = jsonSchema(schema)
  const props = (s.properties ?? {}) as Record<string, Json>
  const required = new Set(Array.isArray(s.required) ? s.required as string[] : [])
  return Object.entries(props).map(([name, p]) => ({ name, in: 'query', required: required.has(name), schema: p }))
}

function operation (r: Router, layer: Router['stack'][number], method: string, path: string): Json {
  const doc = docsOf(r).get(`${method} ${path}`)
  const style = path.startsWith('/api/') ? declaredStyle(r, layer) : undefined
  const security = securityOf(path)
  const parameters: Json[] = layer.paramNames.map((p) => ({ name: String(p.name), in: 'path', required: true, schema: { type: 'string' } }))
  if (doc?.query) parameters.push(...queryParameters(doc.query))
  const responses: Record<string, Json> = { 200: success(style, doc) }
  if (doc?.body || doc?.query || parameters.length) responses[400] = failure(style, 'Invalid input (INVALID_ARGS, or the group\'s own code)')
  if (security === undefined || security.length) responses[401] = failure(style, 'Not authenticated (UNAUTHORIZED)')
  responses.default = failure(style, 'Any other error: a named ErrorCode and its status')
  const op: Json = {
    tags: [tagOf(r, path)],
    operationId: `${method.toLowerCase()}${openApiPath(path).replace(/[^A-Za-z0-9]+(.)?/g, (_m, c?: string) => (c ?? '').toUpperCase())}${path.endsWith('/') ? 'Slash' : ''}`,
    ...(doc?.summary ? { summary: doc.summary } : {}),
    'x-envelope': style ?? 'none',
    ...(parameters.length ? { parameters } : {}),
    ...(doc?.body ? { requestBody: { content: { 'application/json': { schema: jsonSchema(doc.body) } } } } : {}),
    responses
  }
  if (security !== undefined) op.security = security
  return op
}

/** The document of these routers; where two routers hold one method and path, the first (the one that answers) wins. */
export function buildOpenApi (routers: Router[], version: string): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {}
  const tags = new Set<string>()
  for (const r of routers) {
    for (const layer of r.stack) {
      if (typeof layer.path !== 'string') continue
      for (const method of METHODS) {
        if (!layer.methods.includes(method)) continue
        const key = openApiPath(layer.path)
        const item = paths[key] ??= {}
        const verb = method.toLowerCase()
        if (item[verb]) continue
        const op = operation(r, layer, method, layer.path)
        item[verb] = op
        for (const t of op.tags as string[]) tags.add(t)
      }
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'lingxi-plugin API',
      version,
      description: 'The management API of the lingxi-plugin web server and its MCP endpoint. Each group answers in one of two envelopes (x-envelope: A or B); see docs/api.md.'
    },
    tags: [...tags].sort().map((name) => ({ name })),
    paths,
    components: { schemas: COMPONENT_SCHEMAS, securitySchemes: SECURITY_SCHEMES },
    security: [{ bearerAuth: [] }, { cookieAuth: [] }]
  }
}

/** GET /api/openapi.json: the document of the routers mounted on the app that answers, built once per app. */
export function openapiRoutes (rt: Runtime): Router {
  const r = styledRouter('A', { prefix: '/api' })
  const built = new WeakMap<Koa, OpenApiDocument>()
  r.get('/openapi.json', A((ctx) => {
    let doc = built.get(ctx.app)
    if (!doc) { doc = buildOpenApi(mountedRouters(ctx.app), rt.version); built.set(ctx.app, doc) }
    ctx.type = 'application/json'
    ctx.body = doc
  }))
  return r
}
