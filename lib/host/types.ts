// Types of the host surface the plugin uses (Miao-Yunzai, TRSS-Yunzai, the standalone host).
// Hand-written from what Miao-Yunzai and TRSS-Yunzai give plugins; only what the plugin touches.

export type Id = number | string
export interface Seg { type: string; [k: string]: unknown }
export type Sendable = string | Seg | Array<string | Seg>
export interface ReplyOpts { at?: boolean | Id; recallMsg?: number }
export interface SendResult { message_id?: Id; error?: unknown[] }

/** One message of a forward (merged) message: what it says and whom it shows as the sender. */
export interface ForwardNode { message: Sendable; nickname?: string; user_id?: Id }

export interface HostTarget {
  sendMsg(msg: Sendable): Promise<SendResult | undefined>
  recallMsg?(id: Id): unknown
  makeForwardMsg?(nodes: ForwardNode[]): unknown
  getInfo?(): unknown
  /** a stored message by id (TRSS adapters; icqq) and a forwarded bundle's messages (lib/input) */
  getMsg?(id: Id): Promise<unknown>
  getForwardMsg?(id: Id): Promise<unknown>
  /** icqq (Miao): messages up to a seq (groups) or a time (friends) */
  getChatHistory?(seqOrTime: number, count: number): Promise<unknown>
}

export interface HostAccount {
  uin: Id
  nickname?: string
  pickFriend(id: Id): HostTarget
  pickGroup(id: Id): HostTarget & { pickMember?(id: Id): unknown; name?: string }
  /** icqq's client (Miao) has these; TRSS's OneBot accounts have sendApi (get_msg, get_forward_msg) */
  getMsg?(id: Id): Promise<unknown>
  getForwardMsg?(id: Id): Promise<unknown>
  sendApi?(action: string, params: Record<string, unknown>): Promise<unknown>
}

export interface HostEvent {
  post_type: string
  message_type?: string
  sub_type?: string
  notice_type?: string
  request_type?: string
  self_id: Id
  user_id: Id
  group_id?: Id
  group_name?: string
  /** notices: who acted (a poke's sender) and on whom (the poked one) */
  operator_id?: Id
  target_id?: Id
  message_id?: Id
  time?: number
  raw_message?: string
  message: Seg[]
  /** a reply to an earlier message: TRSS sets reply_id and getReply(); icqq (Miao) sets source */
  reply_id?: Id
  getReply?(): Promise<unknown>
  source?: { user_id?: Id; time?: number; seq?: number; rand?: number; message?: unknown }
  msg?: string
  img?: string[]
  at?: Id
  atBot?: boolean
  hasAlias?: boolean
  isGroup?: boolean
  isPrivate?: boolean
  isMaster?: boolean
  sender: { user_id?: Id; nickname?: string; card?: string; role?: string }
  reply(msg: Sendable, quote?: boolean, opts?: ReplyOpts): Promise<SendResult | false | undefined>
  bot?: HostAccount
  group?: HostTarget
  friend?: HostTarget
}

export interface RuleSpec {
  reg: string | RegExp
  fnc: string
  permission?: 'master' | 'owner' | 'admin' | 'all'
  log?: boolean
  event?: string
}
interface TaskSpec { name: string; cron: string; fnc: () => unknown; log?: boolean }
interface PluginOptions {
  name: string
  dsc?: string
  event?: string
  priority?: number
  rule?: RuleSpec[]
}

/** The instance surface of the host's global `plugin` class that we use. */
interface PluginBase {
  e: HostEvent
  name: string
  dsc: string
  priority: number
  event: string
  rule: RuleSpec[]
  task: TaskSpec | TaskSpec[]
  reply(msg: Sendable, quote?: boolean, opts?: ReplyOpts): Promise<unknown> | false
  setContext(type: string, isGroup?: boolean, timeSec?: number, timeoutText?: string): HostEvent
  getContext(type?: string, isGroup?: boolean): unknown
  finish(type: string, isGroup?: boolean): void
  awaitContext?(isGroup?: boolean, timeSec?: number, timeoutText?: string): Promise<HostEvent | false>
}
export type PluginCtor = new (opts: PluginOptions) => PluginBase

export interface HostLogger {
  trace(...a: unknown[]): void
  debug(...a: unknown[]): void
  info(...a: unknown[]): void
  warn(...a: unknown[]): void
  error(...a: unknown[]): void
  fatal(...a: unknown[]): void
  mark(...a: unknown[]): void
}

export interface HostSegments {
  image(file: string | Buffer): Seg
  at(id: Id): Seg
  /** TRSS only (Miao's icqq segment has no file) */
  file?(file: string | Buffer, name?: string): Seg
}

/** Minimal Express-like app TRSS exposes as Bot.express. */
export interface SharedExpress {
  use(prefix: string, handler: (req: unknown, res: unknown, next?: () => void) => void): unknown
  skip_auth?: string[]
  quiet?: string[]
}
