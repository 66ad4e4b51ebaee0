// Custom tools (`/api/tools/custom`): JSON configurations kept in `<data>/custom-tools.json`.
// An action is a fixed text reply or an HTTP request; both are templates where `{{arg}}` is replaced by
// the call's argument (URL parts are URL-encoded). Header values are secrets (masked when read).
import { join } from 'node:path'
import { z } from 'zod'
import type { ToolResult } from '../chat/contracts.js'
import { notReserved, own } from '../core/dict.js'
import { AppError } from '../core/errors.js'
import { readStart } from '../core/read-body.js'
import { Store } from '../core/store.js'
import type { Runtime } from '../runtime.js'
import type { RegisteredTool, ToolSource } from './types.js'

const templateText = z.string().max(20_000)
export const customToolSchema = z.strictObject({
  name: z.string({ error: 'name is required' }).regex(/^[a-zA-Z0-9_-]{1,64}$/, 'name must be 1-64 letters, digits, _ or -').refine(...notReserved),
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

const fill = (tpl: string, args: Record<string, unknown>, enc: (s: string) => string = (s) => s): string =>
  tpl.replace(/\{\{\s*([a-zA-Z0-9_]+)\s*\}\}/g, (_m, k: string) => {
    const v = own(args, k) // arguments come from the model: never an inherited member
    return v === undefined || v === null ? '' : enc(typeof v === 'string' ? v : JSON.stringify(v))
  })

const MAX_REPLY = 20_000

async function runAction (c: CustomToolConfig, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolResult> {
  const a = c.action
  if (a.type === 'text') return { content: [{ type: 'text', text: fill(a.text, args) }], isError: false }
  const timeout = AbortSignal.timeout(a.timeoutMs)
  const res = await fetch(fill(a.url, args, encodeURIComponent), {
    method: a.method,
    headers: a.headers,
    body: a.method === 'GET' || a.body === undefined ? null : fill(a.body, args),
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout
  })
  // a UTF-8 character is at most 4 bytes: MAX_REPLY characters are within the first MAX_REPLY * 4 bytes
  const body = (await readStart(res, MAX_REPLY * 4)).body.toString('utf8').slice(0, MAX_REPLY)
  return { content: [{ type: 'text', text: res.ok ? body : `HTTP ${res.status}: ${body}` }], isError: !res.ok }
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
      execute: (args, ctx) => runAction(c, args, ctx.signal)
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
