// Zod schemas of answer data that several route groups share (a tool as listed, a tool's result, a memory
// record, a preset): each route names them in its `routeDoc(..., { data })`, so the OpenAPI document
// describes one shape once. Routes' own answers are declared next to the route.
import { z } from 'zod'

/** A tool call's result (lib/chat/contracts.ts ToolResult). */
export const toolResult = z.object({
  content: z.array(z.union([z.object({ type: z.literal('text'), text: z.string() }), z.object({ type: z.literal('image'), data: z.string(), mimeType: z.string() })])),
  isError: z.boolean()
})

/** A tool call in the tool log (lib/tools/log.ts ToolLogEntry). */
export const toolLogEntry = z.object({
  id: z.string(),
  toolName: z.string(),
  args: z.record(z.string(), z.unknown()),
  result: z.union([toolResult, z.object({ error: z.string() })]),
  status: z.enum(['success', 'error']),
  duration: z.number(),
  userId: z.string(),
  groupId: z.string().optional(),
  timestamp: z.string()
})

/** A stored chat message (lib/chat/store.ts StoredMessage). */
export const storedMessage = z.object({ role: z.enum(['user', 'assistant']), content: z.string(), timestamp: z.number() })

/** The `{ success: true }` answer of a removal. */
export const done = z.object({ success: z.literal(true) })

const risk = z.enum(['low', 'medium', 'high'])
const toolSource = z.enum(['builtin', 'custom', 'script', 'mcp'])
/** A tool's input schema (JSON Schema of an object). */
const inputSchema = z.looseObject({ type: z.literal('object'), properties: z.record(z.string(), z.unknown()).optional(), required: z.array(z.string()).optional() })

/** A tool as the dashboard sees it (lib/tools/views.ts toolView, lib/skills/tool-admin.ts SkillToolView). */
export const toolView = z.object({
  name: z.string(),
  description: z.string(),
  category: z.string(),
  source: toolSource,
  server: z.string().optional(),
  enabled: z.boolean(),
  dangerous: z.boolean(),
  risk,
  inputSchema
})

/** A tool category with its tool count and switch (ToolRegistry.categories). */
export const toolCategory = z.object({ key: z.string(), name: z.string(), toolCount: z.number(), enabled: z.boolean() })

/** The tool counts (lib/skills/tool-admin.ts ToolStats). */
export const toolCounts = z.object({ totalTools: z.number(), enabledTools: z.number(), categories: z.number(), mcpServers: z.number() })

/** A script tool's file and settings (lib/tools/scripts.ts ScriptFile). */
export const scriptFile = z.object({
  name: z.string(), filename: z.string(), size: z.number(), modifiedAt: z.string(), loaded: z.boolean(), error: z.string().optional(),
  enabled: z.boolean(), risk, dangerous: z.boolean(),
  declared: z.object({ risk: risk.optional(), dangerous: z.boolean().optional() }).optional()
})

/** A skill as the skills routes answer it (lib/skills/types.ts SkillDocument). */
export const skillDocument = z.object({
  name: z.string(), description: z.string(), triggers: z.array(z.string()), allowedTools: z.array(z.string()), disallowedTools: z.array(z.string()),
  priority: z.number(), autoActivate: z.boolean(), capabilities: z.array(z.string()), path: z.string(), directory: z.string(),
  origin: z.enum(['bundled', 'user']), loaded: z.boolean()
})
