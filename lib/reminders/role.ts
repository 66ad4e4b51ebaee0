// Is the one setting a recurring reminder in a group its owner or an admin? The chat scope does not
// carry the role, so the host's member object is asked: its cached role (icqq, TRSS's member cache),
// else its getInfo() (TRSS: get_group_member_info), waited for at most ROLE_WAIT_MS on the runtime clock.
// (lib/host/actions.ts, being written beside this, has a fuller memberRole; this one only needs yes/no.)
import type { Clock } from '../core/clock.js'
import { pickChat } from '../host/port.js'

const ROLE_WAIT_MS = 3000

interface MemberLike { role?: unknown; is_admin?: unknown; is_owner?: unknown; info?: unknown; getInfo?: () => unknown }

function adminIn (o: unknown): boolean | undefined {
  if (!o || typeof o !== 'object') return undefined
  const m = o as MemberLike
  if (m.is_owner === true || m.is_admin === true) return true
  if (m.role === 'owner' || m.role === 'admin') return true
  if (m.role === 'member') return false
  return undefined
}

export async function isGroupAdmin (clock: Clock, groupId: string, userId: string, botId?: string): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  try {
    const group = pickChat({ groupId, userId }, botId) as { pickMember?: (id: string | number) => unknown }
    const m = group.pickMember?.(Number(userId) || userId) as MemberLike | undefined
    if (!m || typeof m !== 'object') return false
    const cached = adminIn(m) ?? adminIn(m.info)
    if (cached !== undefined || typeof m.getInfo !== 'function') return cached ?? false
    const late = new Promise<undefined>((resolve) => { timer = clock.setTimeout(() => resolve(undefined), ROLE_WAIT_MS) })
    return adminIn(await Promise.race([Promise.resolve(m.getInfo()), late])) ?? false
  } catch {
    return false
  } finally {
    if (timer) clock.clearTimeout(timer)
  }
}
