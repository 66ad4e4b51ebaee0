// What the dashboard sees of a tool, who calls a tool from the dashboard, and the argument check of
// a direct call. Used by the tool routes (routes/tools*.ts); no HTTP here.
import type { ChatScope } from '../chat/contracts.js'
import { AppError } from '../core/errors.js'
import type { RegistryToolProvider } from './provider.js'
import type { ToolRegistry } from './registry.js'
import type { RegisteredTool, ToolCallContext } from './types.js'

/** The signed-in dashboard user (routes/_http/auth.ts `sessionOf`). */
export interface DashboardUser { sub: string; isMaster: boolean }

/** A tool as the dashboard sees it (its definition plus switches and where it comes from). */
export function toolView (registry: ToolRegistry, t: RegisteredTool): Record<string, unknown> {
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
export function identityOf (provider: RegistryToolProvider, t: RegisteredTool): Record<string, unknown> {
  return { source: t.source, ...(t.server ? { server: t.server } : {}), category: t.category, modelName: provider.aliasOf(t.name) }
}

/** Administrator context of the test panel (`POST /api/tools/test`): the master testing a tool. */
export function adminTestContext (user: DashboardUser): ToolCallContext {
  const scope: ChatScope = { userId: user.sub, isMaster: true, via: 'admin-test', conversationId: `admin:${user.sub}` }
  return { scope, userPermission: 'master', isMaster: true, isAdminTest: true }
}

/** Context of a dashboard API call (variant A `POST /api/tools/call`). */
export function apiContext (user: DashboardUser): ToolCallContext {
  const scope: ChatScope = { userId: user.sub, isMaster: user.isMaster, via: 'api', conversationId: `api:${user.sub}` }
  return { scope, userPermission: user.isMaster ? 'master' : 'admin', isMaster: user.isMaster }
}

/** Checks the required fields of a tool's input schema (INVALID_ARGS names the missing ones). */
export function checkArgs (t: RegisteredTool, args: Record<string, unknown>): void {
  const missing = (t.inputSchema.required ?? []).filter((k) => !Object.hasOwn(args, k) || args[k] === undefined)
  if (missing.length) throw new AppError('INVALID_ARGS', `Missing required argument(s): ${missing.join(', ')}`)
}

/** GET /api/tools/dangerous: the master's list, the global switch and every tool that is dangerous now. */
export function dangerousView (registry: ToolRegistry): Record<string, unknown> {
  const c = registry.config
  return {
    dangerousTools: c.dangerousTools,
    allowDangerous: c.allowDangerous,
    tools: registry.list({ includeDisabled: true }).filter((t) => registry.isDangerous(t))
      .map((t) => ({ name: t.name, risk: registry.riskOf(t), configured: c.dangerousTools.includes(t.name), builtin: t.dangerous }))
  }
}

/** GET /api/tools/stats: counts by source and switch, the recent calls of the log, and the usage figures. */
export function toolStats (registry: ToolRegistry, usage: unknown): Record<string, unknown> {
  const all = registry.list({ includeDisabled: true })
  const bySource: Record<string, number> = { builtin: 0, custom: 0, script: 0, mcp: 0 }
  for (const t of all) bySource[t.source] = (bySource[t.source] ?? 0) + 1
  const logs = registry.log.all()
  const errors = logs.filter((l) => l.status === 'error').length
  return {
    totalTools: all.length,
    enabledTools: registry.list().length,
    categories: new Set(all.map((t) => t.category)).size,
    mcpServers: new Set(all.filter((t) => t.server).map((t) => t.server)).size,
    bySource,
    dangerousTools: all.filter((t) => registry.isDangerous(t)).length,
    recentCalls: { total: logs.length, success: logs.length - errors, error: errors, avgDuration: logs.length ? Math.round(logs.reduce((a, l) => a + l.duration, 0) / logs.length * 100) / 100 : 0 },
    usage
  }
}
