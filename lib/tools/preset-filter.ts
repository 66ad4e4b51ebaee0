// Which tools a preset offers (the preset's `tools` lists): the one rule used by the chat (provider.ts) and by
// the skills routes' preset-limited listing and execution. Tools that are switched off are filtered
// by the registry's listing before this; this adds the preset's lists and the dangerous-tool rule.
import type { ResolvedPreset } from '../chat/contracts.js'
import type { ToolSwitches } from './switches.js'
import type { RegisteredTool } from './types.js'

export type PresetTools = ResolvedPreset['tools']

/**
 * Offered when tools are on globally and in the preset, the tool is in the preset's allow list (empty:
 * every tool) and not excluded, and it is offerable (not dangerous, or dangerous only because its MCP
 * server is untrusted, or `allowDangerous` in the preset or the `tools` configuration).
 */
export function presetOffers (switches: ToolSwitches, p: PresetTools): (t: RegisteredTool) => boolean {
  const cfg = switches.config
  if (!cfg.enabled || !p.enabled) return () => false
  const allowDangerous = p.allowDangerous || cfg.allowDangerous
  return (t) => (p.allowedTools.length === 0 || p.allowedTools.includes(t.name)) &&
    !p.excludedTools.includes(t.name) && switches.offerable(t, allowDangerous)
}
