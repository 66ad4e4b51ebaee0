// Start-up of the tools domain: the tools service (the registry with its built-in, custom and script sources),
// the chat pipeline's ToolProvider, the approval notifier and the figures other domains show.
import type { Domain, Runtime } from '../runtime.js'
import { errorText } from '../core/errors.js'
import { mapSecrets } from '../core/redact.js'
import { t } from '../i18n.js'
import { masters, segment, sendGroup, sendPrivate } from '../host/port.js'
import type { ApprovalRequest } from './approval.js'
import type { ConfirmRequest } from './confirm.js'
import { builtinSource } from './builtin/index.js'
import { CustomTools } from './custom.js'
import { RegistryToolProvider } from './provider.js'
import { ToolRegistry } from './registry.js'
import { ScriptTools } from './scripts.js'
import type { ToolsConfig, ToolsPatch } from './switches.js'

export interface ToolKit {
  /** Every tool by name, with its switches, approvals and call log. */
  registry: ToolRegistry
  builtin: ReturnType<typeof builtinSource>
  custom: CustomTools
  scripts: ScriptTools
  provider: RegistryToolProvider
}

declare module '../runtime.js' {
  interface Services { tools: ToolKit }
}

/** The tools domain's services; SERVICE_UNAVAILABLE when the domain did not start. */
export function toolKitOf (rt: Runtime): ToolKit {
  return rt.need('tools')
}

/**
 * Changes fields of the `tools` configuration (through the switches, the section's only writer) and
 * applies them: the built-in tools and the registry are refreshed (a failure rolls the change back,
 * see ToolSwitches.update), then the script watcher follows `watchScripts`.
 */
export async function updateToolsConfig (kit: ToolKit, patch: ToolsPatch): Promise<ToolsConfig> {
  const { builtin, registry, scripts } = kit
  const cfg = await registry.switches.update(patch, () => { builtin.refresh(); registry.refresh() })
  if (patch.watchScripts === true) await scripts.startWatching()
  if (patch.watchScripts === false) await scripts.stopWatching()
  return cfg
}

/** The chat message asking the master; the answer is `#lx同意 <id>` / `#lx拒绝 <id>` (apps/approval.ts). */
function approvalText (rt: Runtime, req: ApprovalRequest): string {
  const p = rt.config.get().commandPrefix
  const args = JSON.stringify(req.args).slice(0, 300)
  const secs = Math.round((req.expiresAt - req.createdAt) / 1000)
  return t(rt.config.get().language, 'approval.request', { tool: req.toolName, risk: req.risk, who: req.scope.nickname ?? req.scope.userId, args, p, id: req.id, secs })
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

/** The question to the asker, in the chat the call came from (a group: @ the asker); answered in apps/confirm.ts. */
async function askToConfirm (rt: Runtime, req: ConfirmRequest): Promise<void> {
  const lang = rt.config.get().language
  const s = req.scope
  const from = req.sources.map((x) => t(lang, `taint.${x}`)).join(lang === 'en' ? ', ' : '、')
  const text = t(lang, 'confirm.request', { summary: req.summary, from, code: req.code, secs: Math.round((req.expiresAt - req.createdAt) / 1000) })
  const sent = s.groupId
    ? await sendGroup(s.groupId, [segment().at(s.userId), ` ${text}`], s.botId)
    : await sendPrivate(s.userId, text, s.botId)
  if (!sent || (Array.isArray(sent.error) && sent.error.length > 0)) throw new Error('confirmation request could not be sent')
}

async function initTools (rt: Runtime): Promise<void> {
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
  registry.confirms.notify = (req) => askToConfirm(rt, req)
  const provider = new RegistryToolProvider(registry, rt.log)
  rt.provide('tools', { registry, builtin, custom, scripts, provider })
  rt.chat.tools = provider
  rt.onStop.push(async () => { registry.policy.close(); await scripts.stopWatching() })
}

export const toolsDomain: Domain = { name: 'tools', provides: ['tools'], needs: [], optional: ['memory', 'knowledge'], start: initTools }
