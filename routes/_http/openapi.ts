// The OpenAPI 3.1 document of the API, built from the routers the app has mounted (their layers give
// every method and path), each route's declared envelope style (envelope.ts), the gate's path rule
// (auth.ts gateOf) and what each route declares it accepts and answers (route-docs.ts). Served at
// GET /api/openapi.json, public like health: it describes the interface and holds no secret values.
import type Router from '@koa/router'
import type Koa from 'koa'
import { z } from 'zod'
import { inputJsonSchema } from '../../lib/config/schema-json.js'
import { CODE_STATUS } from '../../lib/core/errors.js'
import type { Runtime } from '../../lib/runtime.js'
import { gateOf, SESSION_COOKIE } from './auth.js'
import { A, declaredStyle, mountedRouters, styledRouter, type Style } from './envelope.js'
import { docsOf, routeDoc, type RouteDoc } from './route-docs.js'

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
    description: 'Style A failure: { success: false, code, message, errors?, details? } with a named code (ErrorCode); details: machine-readable facts of the failure (e.g. reason)',
    required: ['success', 'code', 'message'],
    properties: {
      success: { const: false }, code: ref('ErrorCode'), message: { type: 'string' }, errors: { type: 'array', items: ref('FieldError') },
      details: { type: 'object', properties: { reason: { type: 'string' } } }
    }
  },
  ErrorB: {
    type: 'object',
    description: 'Style B failure: { code: -1, data: null, message }; the HTTP status carries the named code\'s status (ErrorCode)',
    required: ['code', 'data', 'message'],
    properties: { code: { const: -1 }, data: { type: 'null' }, message: { type: 'string' } }
  },
  JsonRpcError: {
    type: 'object',
    description: 'An MCP endpoint failure: a JSON-RPC error',
    required: ['jsonrpc', 'error'],
    properties: { jsonrpc: { const: '2.0' }, error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' } } }, id: {} }
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
  if (path.startsWith('/mcp/.well-known/')) return [] // answered without the key (there is no document)
  if (path === '/mcp' || path.startsWith('/mcp/')) return [{ mcpBearer: [] }, { mcpApiKey: [] }]
  return gateOf(path) === 'public' ? [] : undefined // undefined: the document's default (session)
}

/** An answer's zod schema as JSON Schema, the output side (what the route sends); {} when it cannot be expressed. */
function outputSchema (schema: z.ZodType): Json {
  try {
    const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' }) as Json
    delete out.$schema
    return out
  } catch { return {} }
}

/** The success answers of an operation, keyed by status: the envelope with the declared data, a YAML file, a stream or no body. */
function successes (style: Style | undefined, doc: RouteDoc | undefined): Record<string, Json> {
  const out: Record<string, Json> = {}
  const data = doc?.data
  for (const status of doc?.status === undefined ? [200] : [doc.status].flat()) {
    if (status === 204 || doc?.noBody?.includes(status)) { out[status] = { description: status === 202 ? 'Accepted, no body' : 'Success, no body' }; continue }
    const what = status === 201 ? 'Created' : status === 202 ? 'Accepted' : status >= 400 ? 'The answer (always this status)' : 'Success'
    if (doc?.contentType === 'text/event-stream') {
      const events = doc.events?.length ? `: ${doc.events.join('; ')}` : ''
      out[status] = { description: `${what}: a stream of server-sent events${events}`, content: { 'text/event-stream': { schema: { type: 'string' } } } }
      continue
    }
    if (doc?.contentType === 'text/plain') {
      out[status] = { description: `${what}: a short text`, content: { 'text/plain': { schema: data ? outputSchema(data) : { type: 'string' } } } }
      continue
    }
    if (doc?.contentType) {
      out[status] = { description: `${what}: ${doc.contentType === 'application/gzip' ? 'a gzip file' : 'a YAML file'}`, content: { [doc.contentType]: { schema: { type: 'string', ...(doc.contentType === 'application/gzip' ? { format: 'binary' } : {}) } } } }
      continue
    }
    if (!style || doc?.bare) {
      out[status] = data === null
        ? { description: `${what}, no body` }
        : { description: `${what} (not wrapped in an envelope)`, content: { 'application/json': { schema: data ? outputSchema(data) : {} } } }
      continue
    }
    const envelope = ref(style === 'A' ? 'EnvelopeA' : 'EnvelopeB')
    // data: null, the answer has none: style A leaves `data` out, style B answers `data: null` (envelope.ts)
    const none = style === 'A' ? { not: { required: ['data'] } } : { type: 'object', required: ['data'], properties: { data: { type: 'null' } } }
    const schema = data === null ? { allOf: [envelope, none] } : data ? { allOf: [envelope, { type: 'object', required: ['data'], properties: { data: outputSchema(data) } }] } : envelope
    out[status] = { description: `${what} (style ${style} envelope${data === null ? ', no data' : ''})`, content: { 'application/json': { schema } } }
  }
  return out
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid input (INVALID_ARGS, PARSE_ERROR, or the group\'s own code)',
  401: 'Not authenticated (UNAUTHORIZED, INVALID_TOKEN, TOKEN_EXPIRED)',
  403: 'Refused (FORBIDDEN: a cookie-authenticated change from another origin; or the group\'s own code)',
  404: 'Not found (NOT_FOUND or the group\'s own code)',
  409: 'Conflict (CONFLICT, PRESET_EXISTS, ALREADY_CONNECTED)',
  413: 'Body too large (PAYLOAD_TOO_LARGE)',
  415: 'Body of a type the route does not take (UNSUPPORTED_MEDIA_TYPE)',
  429: 'Too many requests (RATE_LIMITED; Retry-After says when to retry)',
  500: 'Internal error (INTERNAL_ERROR, EXECUTION_ERROR)',
  502: 'The upstream failed (CONNECTION_FAILED, MODEL_ERROR)',
  503: 'Not available now (SERVICE_UNAVAILABLE, CHANNEL_UNAVAILABLE)',
  504: 'Timed out (TIMEOUT)'
}

function failure (style: Style | undefined, description: string): Json {
  const schema = style === 'B' ? ref('ErrorB') : style === 'A' ? ref('ErrorA') : ref('JsonRpcError')
  return { description, content: { 'application/json': { schema } } }
}

/** The error statuses an operation can answer: from its input, its gate and method, and what it declares. */
function errorStatuses (method: string, doc: RouteDoc | undefined, hasParams: boolean, security: Array<Record<string, string[]>> | undefined): number[] {
  const out = new Set<number>()
  const takesBody = method === 'POST' || method === 'PUT' || method === 'PATCH'
  if (doc?.body || doc?.query || hasParams || takesBody) out.add(400)
  if (security === undefined || security.length) out.add(401)
  if (security === undefined && method !== 'GET') out.add(403) // the cookie's cross-site refusal
  if (hasParams) out.add(404)
  if (takesBody) { out.add(413); out.add(415) }
  for (const s of doc?.errors ?? []) out.add(s)
  out.add(500)
  return [...out].sort((a, b) => a - b)
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
  const responses: Record<string, Json> = successes(style, doc)
  for (const status of errorStatuses(method, doc, layer.paramNames.length > 0, security)) responses[status] ??= failure(style, ERROR_TEXT[status] ?? 'Error')
  responses.default = failure(style, 'Any other error: a named ErrorCode and its status')
  const op: Json = {
    tags: [tagOf(r, path)],
    operationId: `${method.toLowerCase()}${openApiPath(path).replace(/[^A-Za-z0-9]+(.)?/g, (_m, c?: string) => (c ?? '').toUpperCase())}${path.endsWith('/') ? 'Slash' : ''}`,
    ...(doc?.summary ? { summary: doc.summary } : {}),
    'x-envelope': (doc?.bare ? undefined : style) ?? 'none',
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
  routeDoc(r, 'GET', '/openapi.json', { summary: 'This document (OpenAPI 3.1), not wrapped in an envelope', bare: true, data: z.looseObject({ openapi: z.literal('3.1.0'), info: z.looseObject({}), paths: z.record(z.string(), z.looseObject({})), components: z.looseObject({}) }) })
  return r
}
