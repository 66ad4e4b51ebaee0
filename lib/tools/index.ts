// Start-up of the tools domain: the registry (rt.tools) with its built-in, custom and script sources,
// the chat pipeline's ToolProvider, the approval notifier and the figures other domains show.
import type { Runtime } from '../runtime.js'
import { errorText } from '../core/errors.js'
import { mapSecrets } from '../core/redact.js'
import { masters, sendGroup, sendPrivate } from '../host/port.js'
import type { ApprovalRequest } from './approval.js'
import { builtinSource } from './builtin/index.js'
import { CustomTools } from './custom.js'
import { RegistryToolProvider } from './provider.js'
import { ToolRegistry } from './registry.js'
import { ScriptTools } from './scripts.js'
import type { ToolRegistryApi } from './types.js'

export interface ToolKit {
  /** The full registry (rt.tools is typed as the narrow ToolRegistryApi other domains and tests fake). */
  registry: ToolRegistry
  builtin: ReturnType<typeof builtinSource>
  custom: CustomTools
  scripts: ScriptTools
  provider: RegistryToolProvider
}

declare module '../runtime.js' {
  interface Runtime { tools: ToolRegistryApi; toolKit: ToolKit }
}

/** The chat message asking the master; the answer is `#lx同意 <id>` / `#lx拒绝 <id>` (apps/approval.ts). */
export function approvalText (rt: Runtime, req: ApprovalRequest): string {
  const p = rt.config.get().commandPrefix
  const args = JSON.stringify(req.args).slice(0, 300)
  const secs = Math.round((req.expiresAt - req.createdAt) / 1000)
  return `[灵犀] 工具 ${req.toolName} 需要主人批准 (风险: ${req.risk})\n调用者: ${req.scope.nickname ?? req.scope.userId}\n参数: ${args}\n` +
    `回复 ${p}同意 ${req.id} 批准 (${p}同意 ${req.id} 会话: 本会话内不再询问), ${p}拒绝 ${req.id} 拒绝; ${secs} 秒后自动拒绝`
}

async function notifyInChat (rt: Runtime, req: ApprovalRequest): Promise<void> {
  const text = approvalText(rt, req)
  const s = req.scope
  const sent = s.groupId ? await sendGroup(s.groupId, text, s.botId) : await sendPrivate(s.userId, text, s.botId)
  // In a private chat with someone else, the masters are asked privately too.
  if (!s.groupId && !s.isMaster) {
    for (const m of await masters(s.botId)) await sendPrivate(m, text, s.botId).catch(() => undefined)
  } else if (!sent || sent.error) {
    throw new Error('approval request could not be sent')
  }
}

export async function initTools (rt: Runtime): Promise<void> {
  const registry = new ToolRegistry(rt)
  const builtin = builtinSource(rt)
  const custom = await CustomTools.open(rt)
  // Header values of custom HTTP tools are secrets: the redactor learns them now and on every change.
  const customSecrets = (): void => { rt.redactor?.set('custom-tools', custom.configs().flatMap((c) => (c.action.type === 'http' ? mapSecrets(c.action.headers) : []))) }
  customSecrets()
  custom.onChange(customSecrets)
  const scripts = new ScriptTools(rt)
  registry.addSource(builtin)
  registry.addSource(custom)
  registry.addSource(scripts)
  await scripts.reloadAll()
  if (rt.config.get().tools.watchScripts) {
    await scripts.startWatching().catch((err) => rt.log.warn('Could not watch the script tools folder', { error: errorText(err) }))
  }
  registry.approvals.notify = (req) => notifyInChat(rt, req)
  const provider = new RegistryToolProvider(registry)
  rt.tools = registry
  rt.toolKit = { registry, builtin, custom, scripts, provider }
  rt.chat.tools = provider
  rt.providers.toolCount = () => registry.list().length
  rt.providers.toolLogs = (q) => registry.log.query(q).logs
  rt.onStop.push(async () => { registry.approvals.close(); await scripts.stopWatching() })
}
