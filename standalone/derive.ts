// Fields the hosts derive on every event (the hosts' loader does so before plugins run): msg, img, at,
// atBot, isGroup/isPrivate, isMaster, sender defaults, alias stripping, the @/alias gate and the
// game-prefix rewrite.
import type { GroupConfig, Id, Profile, StandaloneEvent } from './types.js'
import { sameId } from './ids.js'

export interface DeriveOptions {
  profile: Profile
  isMaster: (userId: StandaloneEvent['user_id'], selfId: StandaloneEvent['self_id']) => boolean
  /** TRSS bot.yaml `/→#` */
  slashToHash: boolean
}

/** One text segment, trimmed, with a leading `＃`/`井` run made `#` and `＊`/`※` made `*`. */
function normaliseText(text: string): string {
  return text.replace(/^\s*[＃井#]+\s*/, '#').replace(/^\s*[＊※*]+\s*/, '*').trim()
}

export function deriveFields(e: StandaloneEvent, opts: DeriveOptions): void {
  let msg: string | undefined
  const img: string[] = []
  for (const seg of e.message) {
    switch (seg.type) {
      case 'text': msg = (msg ?? '') + normaliseText(String(seg.text ?? '')); break
      case 'json': case 'xml': msg = (msg ?? '') + (typeof seg.data === 'string' ? seg.data : JSON.stringify(seg.data)); break
      case 'image': {
        const src = seg.url ?? seg.file
        if (typeof src === 'string') img.push(src)
        break
      }
      case 'at':
        if (sameId(seg.qq as Id, e.self_id)) e.atBot = true
        else if (seg.qq !== 'all') e.at = seg.qq as Id
        break
    }
  }
  if (msg !== undefined && opts.profile === 'trss' && opts.slashToHash) msg = msg.replace(/^\s*\/\s*/, '#')
  e.msg = msg
  if (img.length) e.img = img

  if (e.message_type === 'group' || (e.group_id !== undefined && e.post_type !== 'message')) e.isGroup = true
  else if (e.message_type === 'private' || e.post_type !== 'message') e.isPrivate = true
  // isMaster is only ever set to true, never false
  if (opts.isMaster(e.user_id, e.self_id)) e.isMaster = true

  const nickname = e.sender.nickname ?? ''
  e.sender = { user_id: e.user_id, nickname, ...e.sender, card: e.sender.card || nickname }
  e.logText = e.isGroup
    ? `[${e.group_name ?? ''}(${e.group_id})][${nickname}(${e.user_id})]`
    : `[${nickname}(${e.user_id})]`
}

/** Strips a leading bot alias from e.msg and sets hasAlias. */
export function stripAlias(e: StandaloneEvent, aliases: string[]): void {
  if (typeof e.msg !== 'string') return
  const msg = e.msg
  const alias = aliases.find((a) => a && msg.startsWith(a))
  if (alias === undefined) return
  e.msg = msg.slice(alias.length).trim()
  e.hasAlias = true
}

/** onlyReplyAt: 0 everything, 1 only @bot or alias, 2 like 1 but masters are exempt; private chat always passes. */
export function passesGate(e: StandaloneEvent, group: GroupConfig, hasAlias = Boolean(e.hasAlias)): boolean {
  if (!e.isGroup || !group.onlyReplyAt) return true
  if (group.onlyReplyAt === 2 && e.isMaster) return true
  return Boolean(e.atBot || hasAlias)
}

const SR_PREFIX = /^#?(\*|星铁|崩铁|崩坏星穹铁道)\s*/
const ZZZ_PREFIX = /^#?(%|绝区零|绝区)\s*/

/** Star Rail (`*`…) and Zenless Zone Zero (`%`…) prefixes become `#星铁…` / `#绝区零…`. */
export function rewriteGamePrefix(e: StandaloneEvent): void {
  if (typeof e.msg !== 'string') return
  if (SR_PREFIX.test(e.msg)) {
    e.msg = e.msg.replace(SR_PREFIX, '#星铁')
    e.game = 'sr'
  } else if (ZZZ_PREFIX.test(e.msg)) {
    e.msg = e.msg.replace(ZZZ_PREFIX, '#绝区零')
    e.game = 'zzz'
  } else {
    e.game = 'gs'
  }
  e.isSr = e.game === 'sr'
  e.isGs = e.game === 'gs'
}
