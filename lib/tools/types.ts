// Contract of the live tool registry. The tools domain owns the registry (lib/tools/registry.ts);
// tool sources plug into it: built-in, custom (JSON), script (files) and MCP servers (one source per
// server, tools named `mcp:<server>:<tool>`).
import type { ApprovalState, ChatScope, TaintSource, ToolResult } from '../chat/contracts.js'
import type { Language } from '../i18n.js'

/** Where a tool comes from. @public (part of the tool registry contract) */
export type ToolSourceKind = 'builtin' | 'custom' | 'script' | 'mcp'
export type ToolRisk = 'low' | 'medium' | 'high'

/** Who is calling a tool: the chat scope plus the flags of the admin test panel. */
export interface ToolCallContext {
  scope: ChatScope
  userPermission: 'master' | 'admin' | 'member'
  isMaster: boolean
  isAdminTest?: boolean
  signal?: AbortSignal
  /** Told where the call's approval stands (the answer's "why" record, the chat stream's events). */
  onApproval?: (state: ApprovalState) => void
  /** What of the turn so far the asker did not write, when the call was made (the approval policy, policy.ts). */
  taint?: ReadonlySet<TaintSource>
}

export interface RegisteredTool {
  /** Unique name in the registry (MCP tools: `mcp:<server>:<tool>`). */
  name: string
  description: string
  category: string
  source: ToolSourceKind
  /** MCP server name for MCP tools. */
  server?: string
  inputSchema: { type: 'object'; properties?: Record<string, unknown>; required?: string[]; [k: string]: unknown }
  /** Default risk; the configuration may override (dangerous list, approval risk lists). */
  risk: ToolRisk
  dangerous: boolean
  /**
   * From an external MCP server the master has not marked trusted: dangerous (every call by someone
   * other than the master waits for the master's approval), yet offered in chat without
   * `allowDangerous`, since the master added the server to be used.
   */
  untrusted?: boolean
  /**
   * Where the tool can work at all (e.g. QQ group actions: a group chat through the bot). Elsewhere it
   * is not offered to the model: a call could only fail, and its definition costs every request.
   */
  offeredIn?: (scope: ChatScope) => boolean
  /** The action and its target in the user's words, for the asker's confirmation (`禁言 @20004 120 秒`). */
  describe?: (args: Record<string, unknown>, lang: Language) => string
  /** Its result holds no text of others (the time, an action's own outcome): it does not taint later calls. */
  cleanResult?: boolean
  /**
   * It only reads and changes nothing for anyone (fetch_url): not confirmed in a tainted turn whatever its
   * risk, since anyone may ask for it anyway and a confirmation per page would end search-then-read.
   */
  readOnly?: boolean
  execute(args: Record<string, unknown>, ctx: ToolCallContext): Promise<ToolResult>
}

/** A source's own per-tool switch (script tools: off until the master enables them; see switches.ts). */
export interface SourceSwitch {
  isOn(name: string): boolean
  setOn(name: string, on: boolean): Promise<void>
}

export interface ToolSource {
  id: string
  kind: ToolSourceKind
  list(): RegisteredTool[]
  /** The source's own switch for its tools, when it keeps one (honoured beside the `tools` config). */
  readonly ownSwitch?: SourceSwitch
  /** Called by the source when its tool list changed (MCP listChanged, file edits). */
  onChange?(fn: () => void): void
  /** Optional: false when the list is out of date (checked on each listing; the registry re-lists). */
  isCurrent?(): boolean
}

/** The registry surface other domains use (MCP manager, MCP endpoint, memory/knowledge tools). */
export interface ToolRegistryApi {
  addSource(source: ToolSource): void
  removeSource(id: string): void
  get(name: string): RegisteredTool | undefined
  list(opts?: { includeDisabled?: boolean }): RegisteredTool[]
  isEnabled(name: string): boolean
  /** Forgets the cached tool lists: the next list reads every source again (the dashboard's reload) */
  refresh?(): void
  /** Runs a tool through the permission, dangerous-tool and approval gate; logs and records stats. */
  call(name: string, args: Record<string, unknown>, ctx: ToolCallContext): Promise<ToolResult>
}
