// The name of a group member an event is about, when the event does not carry it: TRSS's notices name
// a new member or a recall's operator only by id until the member is in its cache, so the host's member
// object is asked (its cached card or nickname, else its getInfo(): get_group_member_info on OneBot).
import type { Clock } from '../core/clock.js'
import type { HostChat } from '../host/session.js'
import type { Id } from '../host/types.js'

/** How long the host may take to say a member's name before the id is used instead. */
const NAME_WAIT_MS = 2000

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined)

function nameIn (o: unknown): string | undefined {
  if (!o || typeof o !== 'object') return undefined
  const r = o as { card?: unknown; nickname?: unknown }
  return text(r.card) ?? text(r.nickname)
}

interface MemberLike { card?: unknown; nickname?: unknown; info?: unknown; getInfo?: () => unknown }

/** The member's group card or nickname as the host knows it; undefined when it does not say in time. */
export async function memberName (clock: Clock, chat: Pick<HostChat, 'member'>, userId: Id): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined
  try {
    const m = chat.member(userId) as MemberLike | undefined
    if (!m || typeof m !== 'object') return undefined
    const cached = nameIn(m) ?? nameIn(m.info)
    if (cached || typeof m.getInfo !== 'function') return cached
    const late = new Promise<undefined>((resolve) => { timer = clock.setTimeout(() => resolve(undefined), NAME_WAIT_MS) })
    return nameIn(await Promise.race([Promise.resolve(m.getInfo()), late]))
  } catch {
    return undefined
  } finally {
    if (timer) clock.clearTimeout(timer)
  }
}
