// The dashboard's side of the API contract: the request and response types of the pages, taken from
// the server's own schemas and domain types (`import type` only: nothing of the server is bundled, the
// imports vanish at build time). The routes answer with these; GET /api/openapi.json describes them.
import type { ChannelView } from '../../lib/channels/service'
import type { ChannelInput, Config, DeliverySettings, GroupConfig, ProactiveSettings } from '../../lib/config/schema'
import type { EventKind } from '../../lib/config/group-settings'
import type { KnowledgeBaseView, KnowledgeDoc, KnowledgeHit, KnowledgeListItem, PassageView } from '../../lib/knowledge/types'
import type { MemoryCategory, MemoryHit, MemoryRecord, NewMemory, MemoryPatch, UserEntry } from '../../lib/memory/types'
import type { RegisteredTool, ToolRisk } from '../../lib/tools/types'
import type { SkillDocument } from '../../lib/skills/types'
import type { ToolResult } from '../../lib/chat/contracts'
import type { Conversation, StoredMessage } from '../../lib/chat/store'
import type { ScriptFile } from '../../lib/tools/scripts'
import type { ToolLogEntry } from '../../lib/tools/log'
import type { LogEntry } from '../../lib/core/event-bus'
import type { ImagePreset, RemotePresets } from '../../lib/drawing/types'
import type { CharacterPreset } from '../../lib/game/types'
import type { PresetView } from '../../lib/presets/types'
import type { StatsStore } from '../../lib/stats/store'
import type { McpToolInfo, ServerView } from '../../lib/mcp/types'
import type { ImportResult as McpImportResult } from '../../lib/mcp/manager'
import type { RemoteCheck, VersionInfo } from '../../lib/update/version'
import type { DependencyView } from '../../lib/update/service'
import type { InstallOutcome } from '../../boot/deps.mjs'

export type { ChannelView, ChannelInput, Config, GroupConfig, KnowledgeBaseView, KnowledgeDoc, KnowledgeHit, KnowledgeListItem, PassageView, MemoryCategory, MemoryHit, MemoryRecord, NewMemory, MemoryPatch, UserEntry, StoredMessage, ScriptFile, SkillDocument, CharacterPreset, ImagePreset, PresetView, McpToolInfo, ServerView, McpImportResult }

// ---- channels (/api/config/channels, style A) ----
/** POST /api/config/channels/:name/test */
export interface ChannelTestResult { latency: number, model: string, response: string }

// ---- config (/api/config, style A) ----
export type ConfigSection = keyof Config
/** GET /api/config/groups/:groupId: the group's own entry as stored (`overrides`, unset fields absent) and
 * the bot-in-a-chat settings in force there (`effective`, lib/config/group-settings.ts). */
export interface GroupView {
  groupId: string, preset: string, enabled: boolean, trigger: { type: string, randomRate: number }, custom: boolean
  overrides: Partial<GroupConfig>
  effective: {
    delivery: DeliverySettings, conversation: 'user' | 'group', burstWindowMs: number, contextMessages: number,
    proactive: ProactiveSettings, events: Record<EventKind, number>, keywords: string[]
  }
}
/** POST /api/config/import */
export interface ImportResult { imported: boolean, changes: number }

// ---- tools and skills (/api/tools, /api/skills, style B) ----
/** GET /api/skills/categories */
export interface ToolCategory { key: string, name: string, toolCount: number, enabled: boolean }
/** A tool as the dashboard sees it (lib/tools/views.ts toolView): its definition plus its switches. */
export type ToolView = Pick<RegisteredTool, 'name' | 'description' | 'category' | 'source' | 'server' | 'inputSchema'> & { enabled: boolean, dangerous: boolean, risk: ToolRisk }
/** GET /api/tools/list: the tool view plus where it comes from. */
export type ToolListItem = ToolView & { identity: { source: string, server?: string, category: string, modelName: string } }
/** A tool of variant A (GET /api/tools, GET /api/tools/:name): the tool view plus its "offered on /mcp" switch. */
export type ToolItem = ToolView & { offeredOnMcp: boolean }
/** GET /api/tools (style A): every tool, disabled ones too, and the categories by key. */
export interface ToolsList { tools: ToolItem[], categories: Record<string, { name: string, enabled: boolean }> }
/** PUT /api/tools/:name/mcp `{offered}`: whether the tool is now offered to the key holders of our /mcp. */
export interface McpOffer { name: string, offeredOnMcp: boolean }
/** GET /api/tools/js/:name */
export type ScriptSource = Omit<ScriptFile, 'loaded'> & { source: string, loaded: boolean }
export interface SkillDocuments { count: number, documents: SkillDocument[], errors: Array<{ file: string, message: string }> }
/** GET /api/skills/loaded */
export interface LoadedSkills { skills: SkillDocument[], loaded: string[] }
/** POST /api/skills/execute */
export type ExecuteResult = ToolResult

// ---- conversations (/api/conversations, style B) ----
/** GET /api/conversations/list: a conversation without its messages. */
export type ConversationItem = Omit<Conversation, 'messages'> & { messageCount: number, lastMessage: string }

// ---- presets (/api/presets, style A) ----
/** GET /api/presets?type=all&search= */
export interface PresetList { presets: PresetView[] }

// ---- logs (/api/logs, style A) ----
/** GET /api/logs */
export interface LogList { logs: LogEntry[] }
/** GET /api/logs/tools: tool log entries; `tool` repeats `toolName` for variant A clients. */
export interface ToolLogList { logs: Array<ToolLogEntry & { tool: string }> }

// ---- drawing and game (/api/image, /api/game, style B) ----
/** GET /api/image/config: the image section without its APIs. */
export type ImageConfig = Omit<Config['image'], 'apis'>
/** GET /api/image/presets */
export interface ImagePresets { builtin: ImagePreset[], custom: ImagePreset[], remote: RemotePresets }
/** GET /api/image/apis: one entry, keys masked (routes/drawing.ts apiEntry; unknown keys kept). */
export interface ImageApi { name?: string, baseUrl: string, apiKey?: string, models?: string[], enabled?: boolean, [key: string]: unknown }
export type GameConfig = Config['game']

// ---- system and stats (/api/system, /api/stats, style A) ----
/** GET /api/stats?period= */
export type StatsSummary = ReturnType<StatsStore['summary']>
/** GET /api/system/status: the fields the overview reads (the server builds it untyped, lib/system/status.ts). */
export interface SystemStatus { status: string, version: string, uptime?: number, memory?: { percentage?: number }, bot?: { connected: boolean, platform?: string } }
/** GET /api/system/health: each check's state (the server builds it untyped, lib/system/status.ts). */
export interface SystemHealth { healthy: boolean, checks?: Record<string, { status?: string, latency?: number, available?: number | string }> }
/** POST /api/system/version/check (also `lastCheck` below): what the remote branch has that this checkout has not. */
export type { RemoteCheck }
/**
 * GET /api/system/version: the checkout (lib/update/version.ts), the packages the loader found missing with
 * the features they turn off (lib/update/service.ts; the install's output stays in the log), the last check.
 */
export interface SystemVersion extends VersionInfo {
  dependencies: Omit<DependencyView, 'install'> & { install?: Omit<InstallOutcome, 'output'> }
  lastCheck?: RemoteCheck
}
