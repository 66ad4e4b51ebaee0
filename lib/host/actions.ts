// QQ group actions through the host (the QQ-action tools, lib/tools/builtin/qq-*.ts): the one place that
// maps them onto each host's objects. TRSS's OneBot adapter and icqq (Miao-Yunzai) mostly share names on
// the group object (pickGroup(id).muteMember / muteAll / kickMember / recallMsg / setCard / setTitle /
// pokeMember); they differ for notices (TRSS sendNotice, icqq announce), music (a OneBot `music` segment
// vs icqq's group.shareMusic) and files (TRSS's file segment vs icqq's group.sendFile). A host without a
// method answers `unsupported`, never a guess.
import { bounded, segment } from './port.js'
import type { Id, Seg, Sendable } from './types.js'

export type MemberRole = 'owner' | 'admin' | 'member'

/** What a host call came to: done, the host has no such action, or it refused / failed (its reason). */
export type ActionOutcome = { ok: true; messageId?: string } | { ok: false; unsupported: true } | { ok: false; error: string }

type Fn = (...a: unknown[]) => unknown
/** A host object read by the names of its methods (each host has its own). */
type Loose = Record<string, unknown>
const isObj = (v: unknown): v is Loose => !!v && typeof v === 'object'
/** `o[name]` as a function bound to `o`, when it is one. */
function method (o: Loose | undefined, name: string): Fn | undefined {
  const f = o?.[name]
  return typeof f === 'function' ? (f as Fn).bind(o) : undefined
}

/** How long a host may take for one action before it counts as failed (a protocol may never answer). */
const ACTION_MS = 15_000

/** QQ ids are numbers to icqq and to OneBot implementations; non-numeric ids (guild channels) stay strings. */
const qid = (id: Id): Id => (typeof id === 'string' && /^\d{1,20}$/.test(id) && Number.isSafeInteger(Number(id)) ? Number(id) : id)

/** The account `botId` (TRSS: Bot[id]), else the global Bot (Miao's one account; TRSS's proxy picks one). */
function hostAccount (botId?: Id): Loose | undefined {
  const bot = globalThis.Bot
  if (!bot) return undefined
  const own = botId === undefined ? undefined : bot[String(botId)]
  return isObj(own) ? own : bot
}

function groupOf (groupId: Id, botId?: Id): Loose | undefined {
  const g = method(hostAccount(botId), 'pickGroup')?.(qid(groupId))
  return isObj(g) ? g : undefined
}

const reason = (err: unknown): string => {
  if (err instanceof Error) return err.message || err.name
  if (err && typeof err === 'object') {
    const o = err as { wording?: unknown; msg?: unknown; message?: unknown; error?: unknown }
    for (const v of [o.wording, o.msg, o.message]) if (typeof v === 'string' && v) return v
    if (o.error !== undefined) return reason(o.error)
  }
  return String(err)
}

/** A host's answer that says the action failed (TRSS collects errors instead of throwing; icqq answers false). */
function failureIn (res: unknown): string | undefined {
  if (res === false) return 'the host refused'
  if (res instanceof Error) return reason(res)
  if (Array.isArray(res)) {
    for (const r of res) { const f = failureIn(r); if (f) return f }
    return undefined
  }
  if (res && typeof res === 'object') {
    const o = res as { error?: unknown; retcode?: unknown; status?: unknown }
    if (Array.isArray(o.error) ? o.error.length > 0 : o.error) return reason(Array.isArray(o.error) ? o.error[0] : o.error)
    if (o.status === 'failed' || (typeof o.retcode === 'number' && o.retcode !== 0 && o.retcode !== 1)) return reason(res)
  }
  return undefined
}

async function run (call: () => unknown): Promise<ActionOutcome> {
  let timer: NodeJS.Timeout | undefined
  try {
    const late = new Promise<never>((_resolve, reject) => { timer = setTimeout(() => reject(new Error('the host did not answer in time')), ACTION_MS) })
    const res = await Promise.race([Promise.resolve(call()), late])
    const failed = failureIn(res)
    if (failed) return { ok: false, error: failed }
    const id = res && typeof res === 'object' ? (res as { message_id?: unknown }).message_id : undefined
    return { ok: true, ...(typeof id === 'string' || typeof id === 'number' ? { messageId: String(id) } : {}) }
  } catch (err) {
    return { ok: false, error: reason(err) }
  } finally {
    clearTimeout(timer)
  }
}

/** Calls the first of `names` the group object has; `unsupported` when it has none. */
function onGroup (groupId: Id, botId: Id | undefined, names: string[], args: unknown[]): Promise<ActionOutcome> {
  const g = groupOf(groupId, botId)
  const fn = names.map((n) => method(g, n)).find((f) => f !== undefined)
  if (!fn) return Promise.resolve({ ok: false, unsupported: true })
  return run(() => fn(...args))
}

const roleIn = (o: unknown): MemberRole | undefined => {
  const r = o && typeof o === 'object' ? (o as { role?: unknown }).role : undefined
  return r === 'owner' || r === 'admin' || r === 'member' ? r : undefined
}

/**
 * A member's role in a group as the host knows it now: its fresh member info where it can ask (TRSS
 * getInfo: get_group_member_info; icqq renew), else its cache. Undefined when the host cannot say.
 */
export async function memberRole (groupId: Id, userId: Id, botId?: Id): Promise<MemberRole | undefined> {
  const onAccount = method(hostAccount(botId), 'pickMember')
  const onGroup = method(groupOf(groupId, botId), 'pickMember')
  let m: unknown
  try {
    m = onAccount ? onAccount(qid(groupId), qid(userId)) : onGroup?.(qid(userId))
  } catch { return undefined }
  if (!isObj(m)) return undefined
  const fresh = method(m, 'getInfo') ?? method(m, 'renew')
  if (fresh) {
    try {
      const got = roleIn(await bounded(() => Promise.resolve(fresh(true)), ACTION_MS))
      if (got) return got
    } catch { /* fall back to the cache */ }
  }
  return roleIn(m) ?? roleIn(m.info)
}

export const muteMember = (groupId: Id, userId: Id, seconds: number, botId?: Id): Promise<ActionOutcome> =>
  onGroup(groupId, botId, ['muteMember'], [qid(userId), seconds])
export const muteAll = (groupId: Id, on: boolean, botId?: Id): Promise<ActionOutcome> => onGroup(groupId, botId, ['muteAll'], [on])
/** Only the member: icqq's second argument is a message, TRSS's "refuse a new request". */
export const kickMember = (groupId: Id, userId: Id, botId?: Id): Promise<ActionOutcome> => onGroup(groupId, botId, ['kickMember'], [qid(userId)])
export const recallMessage = (groupId: Id, messageId: string, botId?: Id): Promise<ActionOutcome> => onGroup(groupId, botId, ['recallMsg'], [qid(messageId)])
export const setCard = (groupId: Id, userId: Id, card: string, botId?: Id): Promise<ActionOutcome> => onGroup(groupId, botId, ['setCard'], [qid(userId), card])
/** A special title for `seconds` (-1: for good). */
export const setTitle = (groupId: Id, userId: Id, title: string, seconds: number, botId?: Id): Promise<ActionOutcome> =>
  onGroup(groupId, botId, ['setTitle'], [qid(userId), title, seconds])
export const sendNotice = (groupId: Id, content: string, botId?: Id): Promise<ActionOutcome> => onGroup(groupId, botId, ['sendNotice', 'announce'], [content])
export const pokeMember = (groupId: Id, userId: Id, botId?: Id): Promise<ActionOutcome> => onGroup(groupId, botId, ['pokeMember'], [qid(userId)])

/** Sets a message as the group's essence: the account's setEssenceMessage (TRSS and icqq), else the group's. */
export function setEssence (groupId: Id, messageId: string, botId?: Id): Promise<ActionOutcome> {
  const onAccount = method(hostAccount(botId), 'setEssenceMessage')
  if (onAccount) return run(() => onAccount(qid(messageId)))
  return onGroup(groupId, botId, ['setEssence', 'addEssence'], [qid(messageId)])
}

/** Sends segments to the group (image, voice record, face...). */
const sendToGroup = (groupId: Id, msg: Sendable, botId?: Id): Promise<ActionOutcome> => onGroup(groupId, botId, ['sendMsg'], [msg])

export type MediaKind = 'image' | 'record' | 'file' | 'face' | 'music'

/** The segment of a media kind on this host, or undefined when the host has none (music and files: see sendMedia). */
function mediaSegment (kind: 'image' | 'record' | 'face', value: string | number): Seg {
  const make = method({ ...segment() }, kind)
  if (make) return make(value) as Seg
  return kind === 'face' ? { type: 'face', id: value } : { type: kind, file: value }
}

/**
 * Sends an image, a voice record, a file, a QQ face or a music card to the group, the way its host can:
 * music as a OneBot `music` segment where the account speaks OneBot (TRSS), icqq's shareMusic (Miao);
 * files as the host's file segment (TRSS) or icqq's group.sendFile; `unsupported` otherwise.
 */
export function sendMedia (groupId: Id, kind: MediaKind, value: string, botId?: Id, opts: { name?: string; platform?: string } = {}): Promise<ActionOutcome> {
  if (kind === 'image' || kind === 'record') return sendToGroup(groupId, mediaSegment(kind, value), botId)
  if (kind === 'face') return sendToGroup(groupId, mediaSegment('face', Number(value)), botId)
  const g = groupOf(groupId, botId)
  if (!g) return Promise.resolve({ ok: false, unsupported: true })
  if (kind === 'file') {
    const file = segment().file
    if (typeof file === 'function') return sendToGroup(groupId, file(value, opts.name), botId)
    const sendFile = method(g, 'sendFile')
    if (sendFile) return run(() => sendFile(value, undefined, opts.name))
    return Promise.resolve({ ok: false, unsupported: true })
  }
  const platform = opts.platform ?? 'qq'
  const shareMusic = method(g, 'shareMusic')
  if (shareMusic) return run(() => shareMusic(platform, value))
  if (method(hostAccount(botId), 'sendApi')) return sendToGroup(groupId, { type: 'music', data: { type: platform, id: value } }, botId)
  return Promise.resolve({ ok: false, unsupported: true })
}
