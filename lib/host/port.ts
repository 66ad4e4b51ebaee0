// The one module through which the plugin reaches the host (Miao-Yunzai, TRSS-Yunzai or the standalone
// host). Globals are read lazily inside functions, never at import time, except the `plugin` base class.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ForwardNode, HostAccount, HostEvent, HostLogger, HostSegments, HostTarget, Id, PluginCtor, Seg, Sendable, SendResult, SharedExpress } from './types.js'

export type HostKind = 'miao' | 'trss' | 'standalone'

interface BotLike extends Partial<Omit<HostAccount, 'uin'>> {
  uin?: Id | Id[]
  express?: SharedExpress
  server?: unknown
  url?: string
  makeForwardMsg?(nodes: ForwardNode[]): unknown
  [id: string]: unknown
}

// The host's globals (each may be missing: tests, a host that lacks one).
declare global {
  var plugin: PluginCtor | undefined
  var Bot: BotLike | undefined
  var logger: HostLogger | undefined
  var segment: HostSegments | undefined
  /** the host's node-redis v4 client; only where it connects is read (hostRedisUrl) */
  var redis: { options?: HostRedisOptions } | undefined
  var __lingxiHostKind: HostKind | undefined
}

const g = globalThis

/** The host's global `plugin` class; the only global needed when a module is evaluated. */
export function pluginBase(): PluginCtor {
  if (typeof g.plugin !== 'function') {
    throw new Error('lingxi-plugin must be loaded by a Yunzai host (global `plugin` is missing)')
  }
  return g.plugin
}

/** Root folder of the host (its cwd). */
function hostRoot(): string {
  return process.cwd()
}

let kindCache: HostKind | undefined
export function hostKind(): HostKind {
  if (g.__lingxiHostKind) return g.__lingxiHostKind
  if (kindCache) return kindCache
  let name = ''
  try {
    name = String((JSON.parse(readFileSync(join(hostRoot(), 'package.json'), 'utf8')) as { name?: unknown }).name ?? '')
  } catch { /* no package.json: treat by features */ }
  kindCache = name === 'trss-yunzai' || (g.Bot?.express && g.Bot?.server) ? 'trss' : 'miao'
  return kindCache
}

// Outside a host (tests, scripts). LINGXI_QUIET=1 keeps test output readable.
const quiet = (): boolean => process.env.LINGXI_QUIET === '1'
const fallbackLogger: HostLogger = {
  trace: () => {}, debug: () => {},
  info: (...a) => { if (!quiet()) console.log(...a) },
  warn: (...a) => { if (!quiet()) console.warn(...a) },
  error: (...a) => { if (!quiet()) console.error(...a) },
  fatal: (...a) => console.error(...a),
  mark: (...a) => { if (!quiet()) console.log(...a) }
}

export function hostLogger(): HostLogger {
  return g.logger ?? fallbackLogger
}

export function segment(): HostSegments {
  return g.segment ?? {
    image: (file) => ({ type: 'image', file: typeof file === 'string' ? file : `base64://${file.toString('base64')}` }),
    at: (id) => ({ type: 'at', qq: id })
  }
}

function account(botId?: Id): BotLike | undefined {
  const bot = g.Bot
  if (!bot) return undefined
  if (botId !== undefined && bot[String(botId)] && typeof bot[String(botId)] === 'object') return bot[String(botId)] as BotLike
  return bot
}

/** Ids of the bot's accounts (TRSS: array; Miao: one number). */
export function botIds(): string[] {
  const uin = g.Bot?.uin
  if (Array.isArray(uin)) return uin.map(String)
  return uin === undefined || uin === null || uin === '' ? [] : [String(uin)]
}

export function botNickname(botId?: Id): string {
  const acc = account(botId)
  return typeof acc?.nickname === 'string' ? acc.nickname : ''
}

/** One message the plugin sent (or tried to), as the watchers of outgoing messages see it (lib/guard). */
export interface OutgoingSend {
  /** set for a group chat; absent for a private one */
  groupId?: string
  userId?: string
  botId?: string
  msg: Sendable
  /** false: the host said it failed (threw, `{error}` on TRSS, nothing on Miao) */
  ok: boolean
}

type SendWatcher = (send: OutgoingSend) => void
const sendWatchers = new Set<SendWatcher>()

/** Calls `fn` after every message the plugin sends through the host; returns the unsubscribe. */
export function watchSends(fn: SendWatcher): () => void {
  sendWatchers.add(fn)
  return () => { sendWatchers.delete(fn) }
}

/** Where a send goes: a group (with the user it is for, if any) or a private chat. */
export interface SendChat { groupId?: string | undefined; userId?: string | undefined; botId?: string | undefined }

/**
 * The outbound gate: every text the bot account sends passes it before the host gets it (lib/governance
 * registers the output moderation): it gives the message to send (maybe masked), or undefined to
 * withhold it. One at a time; the last registered wins.
 */
type OutboundGate = (chat: SendChat, msg: Sendable) => Promise<Sendable | undefined>
let outboundGate: OutboundGate | undefined

/** Sets the outbound gate; returns its removal. */
export function setOutboundGate(gate: OutboundGate): () => void {
  outboundGate = gate
  return () => { if (outboundGate === gate) outboundGate = undefined }
}

/**
 * The send pacer: waits, before a message that passed the gate goes to the host, as long as the chat's
 * send rate asks (lib/guard registers the account-risk pacing). Not called for forward nodes (they are
 * parts of one send). One at a time; the last registered wins.
 */
type SendPacer = (chat: SendChat) => Promise<void>
let sendPacer: SendPacer | undefined

/** Sets the send pacer; returns its removal. */
export function setSendPacer(pacer: SendPacer): () => void {
  sendPacer = pacer
  return () => { if (sendPacer === pacer) sendPacer = undefined }
}

/**
 * Every send of the plugin goes through here (session replies, sendPrivate/sendGroup, pickChat's
 * chats): first the outbound gate (a withheld message is not sent: `false`, as the hosts answer a send
 * that sent nothing), then the send pacer, then the host, and the watchers see them all. `false` (an
 * empty message, a muted group on Miao) sent nothing.
 */
export async function watchedSend<R>(chat: SendChat, original: Sendable, sendIt: (msg: Sendable) => Promise<R>): Promise<R | false> {
  const msg = outboundGate ? await outboundGate(chat, original) : original
  if (msg === undefined) return false
  // after the gate: a withheld message takes no slot; a pacer's bug never costs a send
  if (sendPacer) { try { await sendPacer(chat) } catch { /* ignored */ } }
  const tell = (ok: boolean): void => {
    const out: OutgoingSend = { msg, ok }
    if (chat.groupId !== undefined) out.groupId = chat.groupId
    if (chat.userId !== undefined) out.userId = chat.userId
    if (chat.botId !== undefined) out.botId = chat.botId
    // a watcher's bug never costs a send
    for (const w of sendWatchers) { try { w(out) } catch { /* ignored */ } }
  }
  let r: R
  try {
    r = await sendIt(msg)
  } catch (err) {
    tell(false)
    throw err
  }
  if (r !== false) {
    const error: unknown = typeof r === 'object' && r !== null ? (r as { error?: unknown }).error : undefined
    const failed = r === undefined || r === null || (Array.isArray(error) && error.length > 0)
    tell(!failed)
  }
  return r
}

async function send(target: HostTarget | undefined, msg: Sendable, chat: { groupId?: string; userId?: string; botId?: string }): Promise<SendResult | undefined> {
  if (!target) return undefined
  const r = await watchedSend(chat, msg, (m) => target.sendMsg(m))
  return r === false ? undefined : r
}

/**
 * The host's object of a chat with no event at hand (a reminder at its time): the group, else the
 * friend. Throws when the host has no account for it yet (TRSS before its adapter connected).
 */
export function pickChat(chat: { groupId?: string; userId: string }, botId?: Id): HostTarget {
  const acc = account(botId)
  const target = chat.groupId !== undefined ? acc?.pickGroup?.(chat.groupId) : acc?.pickFriend?.(chat.userId)
  if (!target || typeof target.sendMsg !== 'function') throw new Error('The host has no account for this chat (yet)')
  // the chat as it is (its other methods called on the host's own object), with its sends watched
  const where = { ...(chat.groupId !== undefined ? { groupId: chat.groupId } : {}), userId: chat.userId, ...(botId !== undefined ? { botId: String(botId) } : {}) }
  const sendMsg = async (msg: Sendable): Promise<SendResult | undefined> => {
    const r = await watchedSend(where, msg, (m) => target.sendMsg(m))
    return r === false ? undefined : r
  }
  return new Proxy(target, {
    get: (t, key) => {
      if (key === 'sendMsg') return sendMsg
      const v: unknown = Reflect.get(t, key, t)
      return typeof v === 'function' ? v.bind(t) : v
    }
  })
}

/**
 * Whether the host can message the user privately with no event at hand: the user is in the account's
 * friend list (`fl`, icqq's and TRSS's keyed by number, the standalone host's by string); for a host
 * that keeps no list, whether it can pick the user at all.
 */
export function canMessagePrivately(userId: Id, botId?: Id): boolean {
  const acc = account(botId)
  const fl = acc?.fl
  if (fl instanceof Map) return fl.has(String(userId)) || fl.has(Number(userId))
  return typeof acc?.pickFriend === 'function'
}

export async function sendPrivate(userId: Id, msg: Sendable, botId?: Id): Promise<SendResult | undefined> {
  const acc = account(botId)
  return send(acc?.pickFriend?.(userId), msg, { userId: String(userId), ...(botId !== undefined ? { botId: String(botId) } : {}) })
}

export async function sendGroup(groupId: Id, msg: Sendable, botId?: Id): Promise<SendResult | undefined> {
  const acc = account(botId)
  return send(acc?.pickGroup?.(groupId), msg, { groupId: String(groupId), ...(botId !== undefined ? { botId: String(botId) } : {}) })
}

interface HostCfg { masterQQ?: unknown[]; master?: Record<string, unknown[]> }

/** Master ids from the host configuration. For events, `e.isMaster` is the authority. */
export async function masters(botId?: Id): Promise<string[]> {
  try {
    const mod = await import(pathToFileURL(join(hostRoot(), 'lib/config/config.js')).href) as { default?: HostCfg }
    const cfg = mod.default ?? {}
    if (hostKind() === 'trss' && cfg.master) {
      const ids = botId !== undefined ? cfg.master[String(botId)] : Object.values(cfg.master).flat()
      if (ids && ids.length) return [...new Set(ids.map(String))]
    }
    return (cfg.masterQQ ?? []).map(String)
  } catch {
    return []
  }
}

/** TRSS shared HTTP server (Bot.express) when present. */
/** What a node-redis v4 client says of where it connects (the part hostRedisUrl reads). */
interface HostRedisOptions {
  url?: string
  socket?: { host?: string; port?: number; tls?: boolean }
  username?: string
  password?: string
  database?: number
}

/**
 * The address of the host's own Redis (storage.redis: host, lib/storage/README.md "Redis"), or undefined
 * outside a host. The plugin opens its own connections there and never uses the host's client.
 */
export function hostRedisUrl(): string | undefined {
  const o = g.redis?.options
  if (!o) return undefined
  if (o.url) return o.url
  const auth = o.password ? `${encodeURIComponent(o.username ?? '')}:${encodeURIComponent(o.password)}@` : ''
  return `${o.socket?.tls ? 'rediss' : 'redis'}://${auth}${o.socket?.host ?? '127.0.0.1'}:${o.socket?.port ?? 6379}/${o.database ?? 0}`
}

export function sharedExpress(): SharedExpress | undefined {
  const bot = g.Bot
  return hostKind() === 'trss' && bot?.express && typeof bot.express.use === 'function' ? bot.express : undefined
}

/** TRSS advertised base URL (Bot.url). */
export function sharedBaseUrl(): string | undefined {
  const url = g.Bot?.url
  return typeof url === 'string' && url ? url.replace(/\/$/, '') : undefined
}

/** Waits at most `ms` for a host call (a protocol implementation may never answer); undefined when late. */
export async function bounded (call: () => Promise<unknown> | undefined, ms: number): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    return await Promise.race([call(), new Promise<undefined>((resolve) => { timer = setTimeout(() => resolve(undefined), ms) })])
  } finally {
    clearTimeout(timer)
  }
}

const firstOf = (v: unknown): unknown => (Array.isArray(v) ? v[0] : v)
/** OneBot answers `{status, retcode, data}` through sendApi; adapters' own methods give the data. */
const dataOf = (v: unknown): unknown => (v && typeof v === 'object' && 'retcode' in v && 'data' in v ? (v as { data: unknown }).data : v)

/** What of an event (or of a chat written to on the plugin's own) the chat handle reads (lib/host/session.ts hostChat). */
export type ChatSource = Partial<Pick<HostEvent, 'message' | 'reply_id' | 'getReply' | 'source' | 'group' | 'friend' | 'bot'>>

/** True when the event replies to an earlier message (a reply segment, TRSS's reply_id, icqq's source). */
export function quotesMessage (e: ChatSource): boolean {
  return e.reply_id !== undefined || e.source !== undefined || (e.message ?? []).some((m) => m.type === 'reply')
}

/**
 * The message the event replies to (quotes), as the host gives it (lib/input normalises it), or
 * undefined. TRSS: e.getReply() (its loader's, through the adapter's get_msg), else getMsg of the chat;
 * icqq (Miao): e.source with the chat history at its seq (groups) or time (friends), else its text.
 */
export async function quotedMessage (e: ChatSource, timeoutMs = 5000): Promise<unknown> {
  const seg = e.message?.find((m) => m.type === 'reply')
  const segId = seg ? (seg.id ?? (seg.data as { id?: unknown } | undefined)?.id) : undefined
  const id = e.reply_id ?? (typeof segId === 'string' || typeof segId === 'number' ? segId : undefined)
  const chat = e.group ?? e.friend
  if (id !== undefined) {
    if (typeof e.getReply === 'function') return firstOf(await bounded(() => e.getReply?.(), timeoutMs))
    if (chat?.getMsg) return firstOf(await bounded(() => chat.getMsg?.(id), timeoutMs))
    if (e.bot?.getMsg) return firstOf(await bounded(() => e.bot?.getMsg?.(id), timeoutMs))
    if (e.bot?.sendApi) return dataOf(await bounded(() => e.bot?.sendApi?.('get_msg', { message_id: id }), timeoutMs))
  }
  const src = e.source
  if (!src) return undefined
  // groups: the history up to the quoted seq; friends: up to its time (seconds: a few more, matched by seq)
  const at = e.group ? src.seq : src.time
  if (chat?.getChatHistory && typeof at === 'number') {
    const list = await bounded(() => chat.getChatHistory?.(at, e.group ? 1 : 10), timeoutMs)
    const found = Array.isArray(list) ? (list.find((m: { seq?: unknown }) => m?.seq === src.seq) ?? (e.group ? list.at(-1) : undefined)) : undefined
    if (found) return found
  }
  return { user_id: src.user_id, message: src.message }
}

/** The messages of a forwarded bundle (`forward` segment id / icqq resid), as the host gives them. */
export async function forwardMessages (e: ChatSource, id: Id, timeoutMs = 5000): Promise<unknown[]> {
  const chat = e.group ?? e.friend
  let got: unknown
  if (chat?.getForwardMsg) got = await bounded(() => chat.getForwardMsg?.(id), timeoutMs)
  else if (e.bot?.getForwardMsg) got = await bounded(() => e.bot?.getForwardMsg?.(id), timeoutMs)
  else if (e.bot?.sendApi) got = dataOf(await bounded(() => e.bot?.sendApi?.('get_forward_msg', { message_id: id }), timeoutMs))
  if (got && typeof got === 'object' && !Array.isArray(got) && Array.isArray((got as { messages?: unknown }).messages)) got = (got as { messages: unknown[] }).messages
  return Array.isArray(got) ? got : []
}

/**
 * One forward (merged) message of `nodes`, ready to send in the event's chat: the chat's own
 * makeForwardMsg (icqq groups and friends; TRSS fills it in on every target), else the host's
 * `Bot.makeForwardMsg` (TRSS). Undefined when the host has neither.
 */
export async function makeForwardMsg (e: ChatSource, given: ForwardNode[]): Promise<Sendable | undefined> {
  const chat = e.group ?? e.friend
  // each node's text passes the outbound gate as a message of its own would; a withheld node is left out
  let nodes = given
  if (outboundGate) {
    const where: SendChat = { groupId: idOf(e.group, 'group_id'), userId: idOf(e.friend, 'user_id') }
    const gated: ForwardNode[] = []
    for (const n of given) {
      const message = await outboundGate(where, n.message)
      if (message !== undefined) gated.push({ ...n, message })
    }
    if (!gated.length) return undefined
    nodes = gated
  }
  const made = chat?.makeForwardMsg ? await chat.makeForwardMsg(nodes)
    : typeof g.Bot?.makeForwardMsg === 'function' ? await g.Bot.makeForwardMsg(nodes) : undefined
  return made === undefined || made === null || made === false ? undefined : made as Sendable
}

export type RenderResult = { image: Seg } | { failed: 'none' | 'failed'; error?: unknown }

interface HostRenderer { screenshot?: (name: string, data: Record<string, unknown>) => Promise<unknown> }

/**
 * An image of an HTML template through the host's renderer: `<root>/lib/puppeteer/puppeteer.js`, the
 * module Miao-Yunzai and TRSS-Yunzai give plugins (chromium through puppeteer; `data.tplFile` is an
 * art-template file, the page's `#container` is shot). `none` when the host has no renderer, `failed`
 * when it gave no image (it logs why: chromium missing, a timeout).
 */
export async function renderImage (name: string, data: Record<string, unknown>): Promise<RenderResult> {
  let renderer: HostRenderer | undefined
  try {
    const mod = await import(pathToFileURL(join(hostRoot(), 'lib/puppeteer/puppeteer.js')).href) as { default?: HostRenderer }
    renderer = mod.default
  } catch (error) {
    return { failed: 'none', error }
  }
  if (typeof renderer?.screenshot !== 'function') return { failed: 'none' }
  try {
    const img = await renderer.screenshot(name, data)
    if (img && typeof img === 'object' && (img as Seg).type === 'image') return { image: img as Seg }
    return { failed: 'failed' }
  } catch (error) {
    return { failed: 'failed', error }
  }
}

export type { HostEvent, Id, Sendable }

/** The hosts' own restart command (Miao-Yunzai and TRSS-Yunzai alike), named in texts that ask for a restart. */
export const HOST_RESTART_COMMAND = '#重启'

/** A chat object's id field as a string (icqq and TRSS objects carry group_id / user_id), or undefined. */
function idOf (obj: unknown, key: 'group_id' | 'user_id'): string | undefined {
  const v = obj && typeof obj === 'object' ? (obj as Record<string, unknown>)[key] : undefined
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined
}

type RestartCtor = new (e: HostEvent) => { restart(): Promise<unknown> | unknown }

/**
 * Restarts the bot the way the host's own `#重启` does, through its `plugins/other/restart.js` (both
 * Miao-Yunzai and TRSS-Yunzai export `Restart`: TRSS replaces its process, Miao asks its runner, pm2 or
 * `pnpm run ksr`, for a new one), answering in the chat of `e` as that command would. False when the
 * host has no such module (the standalone host).
 */
export async function restartHost (e: HostEvent): Promise<boolean> {
  let Restart: unknown
  try {
    Restart = (await import(pathToFileURL(join(hostRoot(), 'plugins/other/restart.js')).href) as { Restart?: unknown }).Restart
  } catch {
    return false
  }
  if (typeof Restart !== 'function') return false
  await new (Restart as RestartCtor)(e).restart()
  return true
}
