// Which skills are active in a turn and what that means for the tools offered to the model.
import type { Skill } from './types.js'

/** The skills' own tools stay usable whatever an active skill allows, so a skill can always be left or switched. */
const SKILL_TOOL_NAMES = ['list_skills', 'load_skill', 'get_skill_info'] as const

// Triggers are checked on every message: each `/re/` trigger is compiled once (null: not a regex or invalid).
const compiled = new Map<string, RegExp | null>()
function triggerRegex (trigger: string): RegExp | null {
  let re = compiled.get(trigger)
  if (re !== undefined) return re
  const m = /^\/(.+)\/([a-z]*)$/.exec(trigger)
  re = null
  if (m) {
    try { re = new RegExp(m[1] as string, (m[2] ?? '').replace(/[gy]/g, '')) } catch { re = /(?!)/ } // invalid: matches nothing
  }
  if (compiled.size > 1000) compiled.clear()
  compiled.set(trigger, re)
  return re
}

/** True when a trigger matches the input: `/re/flags` is a regular expression, anything else a case-insensitive substring. */
export function triggerMatches (trigger: string, input: string): boolean {
  const re = triggerRegex(trigger)
  if (re) return re.test(input)
  return trigger.length > 0 && input.toLowerCase().includes(trigger.toLowerCase())
}

/** Higher priority first, then by name (stable prompt order). */
export function byPriority (a: Skill, b: Skill): number {
  return b.priority - a.priority || a.name.localeCompare(b.name)
}

export interface ToolPolicy {
  /** When set, only these tools (plus the skill tools) may be offered. */
  allowed?: Set<string>
  /** Never offered while one of the active skills forbids them. */
  disallowed: Set<string>
}

/** Union of the active skills' tool rules: an allow-list exists when any active skill has one; a deny always wins. */
export function toolPolicy (active: Skill[]): ToolPolicy {
  const disallowed = new Set(active.flatMap((s) => s.disallowedTools))
  const withAllow = active.filter((s) => s.allowedTools.length > 0)
  if (withAllow.length === 0) return { disallowed }
  return { allowed: new Set(withAllow.flatMap((s) => s.allowedTools)), disallowed }
}

/** A rule matches a tool by exact name or by a `prefix*` wildcard (e.g. `mcp:github:*`). */
function ruleMatches (rules: Set<string>, tool: string): boolean {
  if (rules.has(tool)) return true
  for (const r of rules) if (r.endsWith('*') && tool.startsWith(r.slice(0, -1))) return true
  return false
}

export function policyAllows (policy: ToolPolicy, tool: string): boolean {
  if ((SKILL_TOOL_NAMES as readonly string[]).includes(tool)) return true
  if (ruleMatches(policy.disallowed, tool)) return false
  return policy.allowed ? ruleMatches(policy.allowed, tool) : true
}

/** The system prompt section for the active skills (bounded so a huge skill cannot crowd out the chat). */
export function skillsPromptSection (active: Skill[], maxChars = 12_000): string | undefined {
  const parts: string[] = []
  let used = 0
  for (const s of active) {
    if (!s.instructions) continue
    const text = `### ${s.name}${s.description ? `：${s.description}` : ''}\n${s.instructions}`
    if (used + text.length > maxChars) {
      const room = maxChars - used
      if (room > 200) parts.push(`${text.slice(0, room)}\n…`)
      break
    }
    parts.push(text)
    used += text.length
  }
  if (parts.length === 0) return undefined
  return `## 已启用的技能 (Active skills)\n按以下技能说明行事：\n\n${parts.join('\n\n')}`
}
