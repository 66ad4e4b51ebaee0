// MCP server configurations and their validation. Stored in config `mcp.servers`
// (name -> config); env and headers are secrets (masked on read by lib/config/secrets.ts).
import { z } from 'zod'

const SERVER_TYPES = ['stdio', 'npm', 'npx', 'sse', 'http', 'streamable-http'] as const
type ServerType = typeof SERVER_TYPES[number]

/** Server names become part of tool names (`mcp:<server>:<tool>`), so no colons. */
export const SERVER_NAME = /^[\w.-]{1,64}$/
export const SERVER_NAME_MESSAGE = 'name must be 1-64 letters, digits, _ - or .'

const stringMap = z.record(z.string(), z.string({ error: 'values must be strings' }))
const common = {
  /** Connect and request timeout in ms. */
  timeoutMs: z.number({ error: 'timeoutMs must be a number' }).int().min(1000, 'timeoutMs must be >= 1000').max(600_000, 'timeoutMs must be <= 600000').optional(),
  enabled: z.boolean({ error: 'enabled must be a boolean' }).optional(),
  description: z.string().max(500).optional(),
  /** The master's trust in the server (default untrusted: its tools need approval, see lib/tools/README.md). */
  trust: z.union([z.boolean(), z.enum(['trusted', 'untrusted'])], { error: 'trust must be true, false, "trusted" or "untrusted"' }).optional()
}
const args = z.array(z.string({ error: 'args must be strings' }), { error: 'args must be an array of strings' }).optional()
const env = stringMap.optional()
const url = z.url({ protocol: /^https?$/, error: 'url must be a valid http(s) URL' })

const stdioConfig = z.strictObject({
  type: z.literal('stdio'),
  command: z.string({ error: 'command is required' }).min(1, 'command is required'),
  args, env, cwd: z.string().optional(), ...common
})
const packageConfig = z.strictObject({
  type: z.enum(['npm', 'npx']),
  package: z.string({ error: 'package is required' }).min(1, 'package is required').regex(/^[^\s]+$/, 'package must not contain spaces'),
  args, env, ...common
})
const remoteConfig = z.strictObject({
  type: z.enum(['sse', 'http', 'streamable-http']),
  url: z.string({ error: 'url is required' }).min(1, 'url is required').pipe(url),
  headers: stringMap.optional(),
  ...common
})

export const serverConfigSchema = z.discriminatedUnion('type', [stdioConfig, packageConfig, remoteConfig])
export type ServerConfig = z.infer<typeof serverConfigSchema>

/** Whether the master trusts a server's tools (absent: untrusted). */
export const isTrusted = (c: { trust?: unknown } | undefined): boolean => c?.trust === true || c?.trust === 'trusted'

/** A `trust` value from input: true/'trusted' or false/'untrusted'; anything else is undefined (invalid). */
export function parseTrust (v: unknown): boolean | undefined {
  if (v === true || v === 'trusted') return true
  if (v === false || v === 'untrusted') return false
  return undefined
}

export type ServerStatus = 'connecting' | 'connected' | 'disconnected' | 'error'

/**
 * Fills in `type` the way desktop clients do (a `command` means stdio, a `url` streamable HTTP unless
 * the config says `sse`), so `{ command, args, env }` of variant A is accepted as is.
 */
export function withInferredType (raw: unknown): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw
  const r = raw as Record<string, unknown>
  if (r.type !== undefined) {
    // Desktop-client spellings.
    if (r.type === 'streamableHttp' || r.type === 'streamable_http') return { ...r, type: 'streamable-http' }
    return r
  }
  if (typeof r.command === 'string') return { ...r, type: 'stdio' }
  if (typeof r.package === 'string') return { ...r, type: 'npx' }
  if (typeof r.url === 'string') return { ...r, type: 'streamable-http' }
  return r
}

/** The type of a raw config, or an error message for a missing/unsupported type. */
export function checkType (raw: unknown): { ok: true } | { ok: false; message: string } {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, message: 'config must be an object' }
  const t = (raw as { type?: unknown }).type
  if (t === undefined) return { ok: false, message: 'config needs a type, a command or a url' }
  if (typeof t !== 'string' || !(SERVER_TYPES as readonly string[]).includes(t)) return { ok: false, message: `Unsupported server type: ${String(t)}` }
  return { ok: true }
}

export interface McpToolInfo { name: string; description: string; inputSchema: Record<string, unknown> }

/** A tool a server offers and a server as the routes answer them (ServerView): the OpenAPI document's data schemas. */
export const mcpToolInfo = z.object({ name: z.string(), description: z.string(), inputSchema: z.record(z.string(), z.unknown()) })
export const serverViewSchema = z.object({
  name: z.string(),
  type: z.enum(SERVER_TYPES),
  transport: z.enum(SERVER_TYPES),
  status: z.enum(['connecting', 'connected', 'disconnected', 'error']),
  enabled: z.boolean(),
  trusted: z.boolean(),
  trust: z.enum(['trusted', 'untrusted']),
  toolCount: z.number(),
  toolsCount: z.number(),
  isBuiltin: z.boolean(),
  connectedAt: z.number().nullable(),
  error: z.string().optional(),
  // as stored, secrets masked (a stored config that is not valid is shown as it is)
  config: z.record(z.string(), z.unknown()),
  tools: z.array(mcpToolInfo),
  serverInfo: z.object({ name: z.string(), version: z.string() }).optional(),
  reconnectAttempts: z.number()
})

/** A server as listed by the routes (its config and state plus variant B extras). Config is masked. */
export interface ServerView {
  name: string
  type: ServerType
  transport: ServerType
  status: ServerStatus
  enabled: boolean
  /** The master's trust: untrusted servers' tools are dangerous (approval in chat, refused to MCP clients). */
  trusted: boolean
  trust: 'trusted' | 'untrusted'
  toolCount: number
  toolsCount: number
  isBuiltin: boolean
  connectedAt: number | null
  error?: string
  config: ServerConfig
  tools: McpToolInfo[]
  serverInfo?: { name: string; version: string }
  reconnectAttempts: number
}
