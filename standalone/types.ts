// Types shared by the standalone host (a clean-room emulation of Miao-Yunzai and TRSS-Yunzai).
import type { HostEvent, Id, ReplyOpts, RuleSpec, Seg, Sendable, SendResult } from '../lib/host/types.js'

export type { Id, ReplyOpts, RuleSpec, Seg, Sendable, SendResult }

/** Which host the standalone host emulates. */
export type Profile = 'miao' | 'trss'

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'mark'
export const LOG_LEVELS: readonly LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'mark']

export interface LogEntry { level: LogLevel; text: string; time: number }

/** One message the bot sent (or tried to send). */
export interface TranscriptEntry {
  target: 'private' | 'group'
  /** user id (private) or group id (group), as a string */
  targetId: string
  botId: string
  message: Seg[]
  /** readable rendering of `message` */
  text: string
  message_id: string
  /** id of the quoted message, when the reply quoted one */
  quote?: Id
  time: number
  recalled?: boolean
}

export interface Refusal {
  plugin: string
  fnc: string
  permission: string
  user_id: Id
  group_id?: Id
  text: string
}

export interface Member {
  user_id: Id
  group_id: Id
  nickname: string
  card: string
  role: 'owner' | 'admin' | 'member'
  is_owner: boolean
  is_admin: boolean
  /** Miao checks this before owner/admin permissions ("data loaded"). */
  _info?: { role: string }
  info?: { role: string }
}

interface Target {
  sendMsg(msg: Sendable, quote?: Id): Promise<SendResult>
  recallMsg(id: Id): Promise<boolean>
  makeForwardMsg(nodes: ForwardNode[]): Promise<Seg>
  getInfo(): Record<string, unknown>
}
export interface ForwardNode { message: Sendable; nickname?: string; user_id?: Id }
export interface GroupTarget extends Target {
  group_id: Id
  name: string
  pickMember(userId: Id): Member
  /** seconds the bot is still muted in this group (Miao's reply returns false while muted) */
  mute_left: number
}
export interface FriendTarget extends Target { user_id: Id }

/** The event object handed to plugins: the port's HostEvent plus host-specific extras. */
export interface StandaloneEvent extends HostEvent {
  member?: Member
  group?: GroupTarget
  friend?: FriendTarget
  logText?: string
  logFnc?: string
  game?: 'gs' | 'sr' | 'zzz'
  isSr?: boolean
  isGs?: boolean
  reply_id?: Id
  adapter_id?: string
  adapter_name?: string
  recall?(): Promise<boolean>
  [extra: string]: unknown
}

export interface TaskOption { name?: string; fnc?: unknown; cron?: string; log?: boolean }

export interface PluginOptions {
  name?: string
  dsc?: string
  event?: string
  priority?: number
  rule?: RuleSpec[]
  task?: TaskOption | TaskOption[]
  handler?: unknown
  namespace?: string
}

/** Instance surface of the emulated global `plugin` class (methods named by rules are looked up dynamically). */
export interface PluginInstance {
  name: string
  dsc: string
  event: string
  priority: number
  rule: RuleSpec[]
  task: TaskOption | TaskOption[]
  e?: StandaloneEvent
  init?(): unknown
  accept?(e: StandaloneEvent): unknown
  reply(msg?: Sendable, quote?: boolean, data?: ReplyOpts): ReturnType<StandaloneEvent['reply']> | false
  conKey(isGroup?: boolean): string
  setContext(type: string, isGroup?: boolean, time?: number, timeout?: string): StandaloneEvent
  getContext(type?: string, isGroup?: boolean): StandaloneEvent | Record<string, StandaloneEvent> | undefined
  finish(type: string, isGroup?: boolean): void
  awaitContext(isGroup?: boolean, time?: number, timeout?: string): Promise<StandaloneEvent | false>
  [method: string]: unknown
}
export type PluginClass = new (opts?: PluginOptions, e?: StandaloneEvent) => PluginInstance

/** Per-group settings (`config/config/group.yaml`; key `default` applies to every group and to private chat). */
export interface GroupConfig {
  onlyReplyAt: 0 | 1 | 2
  botAlias: string[]
  enable: string[]
  disable: string[]
}

/** `config/config/other.yaml` lists. */
export interface OtherConfig {
  blackQQ: Id[]
  whiteQQ: Id[]
  blackGroup: Id[]
  whiteGroup: Id[]
}

/** How a dispatch ended; `stage` names the step that stopped it. */
type DealStage =
  | 'blacklist' | 'cooldown' | 'duplicate' | 'context' | 'gate' | 'accept'
  | 'handled' | 'refused' | 'error' | 'unhandled'
export interface DealResult { stage: DealStage; plugin?: string; fnc?: string; error?: unknown }
