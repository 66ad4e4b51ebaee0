// Helpers shared by the tool routes (tools.ts, tools-files.ts, tools-a.ts).
import type { Context } from 'koa'
import { z } from 'zod'
import type { ChatScope } from '../lib/chat/contracts.js'
import { AppError } from '../lib/core/errors.js'
import type { Runtime } from '../lib/runtime.js'
import type { ToolKit } from '../lib/tools/index.js'
import type { ToolRegistry } from '../lib/tools/registry.js'
import type { RegisteredTool, ToolCallContext } from '../lib/tools/types.js'
import { sessionOf } from './_http/auth.js'

export function kitOf (rt: Runtime): ToolKit & { registry: ToolRegistry } {
  const kit = (rt as Partial<Pick<Runtime, 'toolKit'>>).toolKit
  if (!kit) throw new AppError('SERVICE_UNAVAILABLE', 'The tools service is not running')
  return kit
}

/** A tool as the dashboard sees it (spec 2.11 plus switches and where it comes from). */
export function toolView (rt: Runtime, t: RegisteredTool): Record<string, unknown> {
  const { registry } = kitOf(rt)
  return {
    name: t.name,
    description: t.description,
    category: t.category,
    source: t.source,
    ...(t.server ? { server: t.server } : {}),
    enabled: registry.isEnabled(t.name),
    dangerous: registry.isDangerous(t),
    risk: registry.riskOf(t),
    inputSchema: t.inputSchema
  }
}

/** `identity` of variant B's full list: where the tool comes from and the name models see. */
export function identityOf (rt: Runtime, t: RegisteredTool): Record<string, unknown> {
  return { source: t.source, ...(t.server ? { server: t.server } : {}), category: t.category, modelName: kitOf(rt).provider.aliasOf(t.name) }
}

/** Administrator context of the test panel (spec 4.5 `test`). */
export function adminTestContext (ctx: Context): ToolCallContext {
  const s = sessionOf(ctx)
  const scope: ChatScope = { userId: s.sub, isMaster: true, via: 'admin-test', conversationId: `admin:${s.sub}` }
  return { scope, userPermission: 'master', isMaster: true, isAdminTest: true }
}

/** Context of a dashboard API call (variant A `POST /api/tools/call`). */
export function apiContext (ctx: Context): ToolCallContext {
  const s = sessionOf(ctx)
  const scope: ChatScope = { userId: s.sub, isMaster: s.isMaster, via: 'api', conversationId: `api:${s.sub}` }
  return { scope, userPermission: s.isMaster ? 'master' : 'admin', isMaster: s.isMaster }
}

export const toolNameField = z.string({ error: 'toolName is required' }).trim().min(1, 'toolName is required').max(200, 'toolName is too long')
export const enabledField = z.boolean({ error: 'enabled must be a boolean' })
export const argsField = z.record(z.string(), z.unknown(), { error: 'arguments must be an object' })

/** Checks the required fields of a tool's input schema (INVALID_ARGS names the missing ones). */
export function checkArgs (t: RegisteredTool, args: Record<string, unknown>): void {
  const missing = (t.inputSchema.required ?? []).filter((k) => !Object.hasOwn(args, k) || args[k] === undefined)
  if (missing.length) throw new AppError('INVALID_ARGS', `Missing required argument(s): ${missing.join(', ')}`)
}
