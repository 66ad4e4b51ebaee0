// Custom tools (`/api/tools/custom`): JSON configurations kept in `<data>/custom-tools.json`.
// An action is a fixed text reply or an HTTP request; both are templates where `{{arg}}` is replaced by
// the call's argument, encoded for where it stands (`fillUrl`, `fillBody`): the model's text can never
// add a field, a parameter or a path. Header values are secrets (masked when read, and never sent on
// to another origin). The request goes through the outbound fetcher (lib/web/outbound.ts): public
// addresses only (web.allowPrivateHosts names exceptions), every redirect checked.
import { join } from 'node:path'
import { z } from 'zod'
import type { ToolResult } from '../chat/contracts.js'
import { notReserved, own } from '../core/dict.js'
import { AppError } from '../core/errors.js'
import { Store } from '../core/store.js'
import type { Runtime } from '../runtime.js'
import { outboundAccess, outboundFetch, type OutboundAccess } from '../web/outbound.js'
import { toolNameSchema } from './names.js'
import type { RegisteredTool, ToolSource } from './types.js'

const templateText = z.string().max(20_000)
export const customToolSchema = z.strictObject({
  name: toolNameSchema.refine(...notReserved),
  description: z.string({ error: 'description is required' }).trim().min(1, 'description is required').max(1000),
  category: z.string().regex(/^[a-zA-Z0-9_-]{1,32}$/, 'category must be 1-32 letters, digits, _ or -').refine(...notReserved).default('custom'),
  inputSchema: z.looseObject({ type: z.literal('object', { error: 'inputSchema.type must be "object"' }) })
    .default({ type: 'object', properties: {} }),
  dangerous: z.boolean().default(false),
  risk: z.enum(['low', 'medium', 'high']).default('low'),
  action: z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('text'), text: templateText }),
    z.strictObject({
      type: z.literal('http'),
      method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).default('GET'),
      url: z.string().max(2000).regex(/^https?:\/\//, 'url must start with http:// or https://'),
      headers: z.record(z.string(), z.string().max(4000)).default({}),
      body: templateText.optional(),
      timeoutMs: z.number().int().min(100).max(120_000).default(10_000)
    })
  ], { error: 'action must be { type: "text", text } or { type: "http", url, ... }' })
}, { error: 'body must be a JSON object' })

export type CustomToolConfig = z.infer<typeof customToolSchema>
export interface StoredCustomTool extends CustomToolConfig { createdAt: string; updatedAt: string }

const PLACEHOLDER = /\{\{\s*([a-zA-Z0-9_]+)\s*\}\}/g

/** The argument `k` (arguments come from the model: never an inherited member), undefined when absent. */
const arg = (args: Record<string, unknown>, k: string): unknown => {
  const v = own(args, k)
  return v === null ? undefined : v
}
const asText = (v: unknown): string => v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v)

/** A text template (the `text` action, a plain-text body): the arguments as they are. */
const fillText = (tpl: string, args: Record<string, unknown>): string =>
  tpl.replace(PLACEHOLDER, (_m, k: string) => asText(arg(args, k)))

/** A URL template: every argument percent-encoded as one component (no `/`, `?`, `&`, `#` of its own). */
const fillUrl = (tpl: string, args: Record<string, unknown>): string =>
  tpl.replace(PLACEHOLDER, (_m, k: string) => encodeURIComponent(asText(arg(args, k))))

/** A form body template (application/x-www-form-urlencoded): every argument form-encoded. */
const fillForm = (tpl: string, args: Record<string, unknown>): string =>
  tpl.replace(PLACEHOLDER, (_m, k: string) => encodeURIComponent(asText(arg(args, k))).replace(/%20/g, '+'))

/**
 * A JSON body template: a placeholder inside a JSON string gets the argument JSON-string-escaped (its
 * quotes and backslashes cannot end the string), a bare placeholder gets the argument as a JSON value
 * (a string quoted, a number or object as JSON, a missing one `null`).
 */
function fillJson (tpl: string, args: Record<string, unknown>): string {
  let out = ''
  let inString = false
  for (let i = 0; i < tpl.length;) {
    PLACEHOLDER.lastIndex = i
    const m = tpl[i] === '{' ? PLACEHOLDER.exec(tpl) : null
    if (m && m.index === i) {
      const v = arg(args, m[1]!)
      out += inString ? JSON.stringify(asText(v)).slice(1, -1) : (v === undefined ? 'null' : JSON.stringify(v))
      i += m[0].length
      continue
    }
    const c = tpl[i]!
    if (inString && c === '\\') { out += tpl.slice(i, i + 2); i += 2; continue }
    if (c === '"') inString = !inString
    out += c
    i++
  }
  return out
}

type BodyKind = 'json' | 'form' | 'text'
/** How a body template is filled: by its Content-Type header, else JSON when it looks like JSON. */
function bodyKind (headers: Record<string, string>, tpl: string): BodyKind {
  const type = Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1]?.toLowerCase()
  if (type) return /[/+]json\b/.test(type) ? 'json' : type.startsWith('application/x-www-form-urlencoded') ? 'form' : 'text'
  return /^\s*[{[]/.test(tpl) ? 'json' : 'text'
}

/** The body of a call, and the Content-Type to send when the configuration names none. */
function fillBody (headers: Record<string, string>, tpl: string, args: Record<string, unknown>): { body: string; type: string } {
  const kind = bodyKind(headers, tpl)
  if (kind === 'json') return { body: fillJson(tpl, args), type: 'application/json' }
  if (kind === 'form') return { body: fillForm(tpl, args), type: 'application/x-www-form-urlencoded' }
  return { body: fillText(tpl, args), type: 'text/plain;charset=UTF-8' }
}

const MAX_REPLY = 20_000
/** Configured headers that are no credential: sent on after a redirect to another origin. */
const PLAIN_HEADERS = new Set(['content-type', 'accept', 'accept-language', 'user-agent'])

async function runAction (c: CustomToolConfig, args: Record<string, unknown>, access: OutboundAccess, signal?: AbortSignal): Promise<ToolResult> {
  const a = c.action
  if (a.type === 'text') return { content: [{ type: 'text', text: fillText(a.text, args) }], isError: false }
  const headers = { ...a.headers }
  let body: string | undefined
  if (a.method !== 'GET' && a.body !== undefined) {
    const filled = fillBody(a.headers, a.body, args)
    body = filled.body
    if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['content-type'] = filled.type
  }
  const res = await outboundFetch(fillUrl(a.url, args), {
    method: a.method,
    headers,
    ...(body !== undefined ? { body } : {}),
    // every configured header is a secret (masked when read) except the plain ones
    secretHeaders: Object.keys(a.headers).filter((k) => !PLAIN_HEADERS.has(k.toLowerCase())),
    // a UTF-8 character is at most 4 bytes: MAX_REPLY characters are within the first MAX_REPLY * 4 bytes
    maxBytes: MAX_REPLY * 4,
    overLimit: 'truncate',
    timeoutMs: a.timeoutMs,
    ...(signal ? { signal } : {})
  }, access)
  const text = res.body.toString('utf8').slice(0, MAX_REPLY)
  return { content: [{ type: 'text', text: res.ok ? text : `HTTP ${res.status}: ${text}` }], isError: !res.ok }
}

export class CustomTools implements ToolSource {
  readonly id = 'custom'
  readonly kind = 'custom' as const
  private listeners: Array<() => void> = []
  private cached: RegisteredTool[] | undefined

  private constructor (private readonly store: Store<{ tools: StoredCustomTool[] }>, private readonly rt: Runtime) {}

  static async open (rt: Runtime): Promise<CustomTools> {
    const store = await Store.open(join(rt.paths.dataDir, 'custom-tools.json'), { tools: [] as StoredCustomTool[] }, { log: rt.log, pretty: true })
    if (!Array.isArray(store.data.tools)) await store.update((d) => { d.tools = [] })
    return new CustomTools(store, rt)
  }

  onChange (fn: () => void): void { this.listeners.push(fn) }
  private changed (): void { this.cached = undefined; for (const fn of this.listeners) fn() }

  configs (): StoredCustomTool[] { return this.store.data.tools }
  find (name: string): StoredCustomTool | undefined { return this.store.data.tools.find((t) => t.name === name) }

  list (): RegisteredTool[] {
    return (this.cached ??= this.store.data.tools.map((c): RegisteredTool => ({
      name: c.name,
      description: c.description,
      category: c.category,
      source: 'custom',
      inputSchema: c.inputSchema as RegisteredTool['inputSchema'],
      risk: c.risk,
      dangerous: c.dangerous,
      execute: (args, ctx) => runAction(c, args, outboundAccess(this.rt.config.get()), ctx.signal)
    })))
  }

  async create (c: CustomToolConfig, taken: (name: string) => boolean): Promise<StoredCustomTool> {
    if (this.find(c.name) || taken(c.name)) throw new AppError('CONFLICT', `Tool ${c.name} already exists`)
    const now = new Date(this.rt.clock.now()).toISOString()
    const stored: StoredCustomTool = { ...c, createdAt: now, updatedAt: now }
    await this.store.update((d) => { d.tools.push(stored) })
    this.changed()
    return stored
  }

  async replace (name: string, c: CustomToolConfig): Promise<StoredCustomTool> {
    const old = this.find(name)
    if (!old) throw new AppError('TOOL_NOT_FOUND', `Custom tool ${name} does not exist`)
    if (c.name !== name) throw new AppError('INVALID_ARGS', 'name cannot be changed')
    const stored: StoredCustomTool = { ...c, createdAt: old.createdAt, updatedAt: new Date(this.rt.clock.now()).toISOString() }
    await this.store.update((d) => { d.tools = d.tools.map((t) => t.name === name ? stored : t) })
    this.changed()
    return stored
  }

  async remove (name: string): Promise<void> {
    if (!this.find(name)) throw new AppError('TOOL_NOT_FOUND', `Custom tool ${name} does not exist`)
    await this.store.update((d) => { d.tools = d.tools.filter((t) => t.name !== name) })
    this.changed()
  }
}
