// The fake OneBot v11 implementation with what a real one (NapCat, go-cqhttp) keeps: every message it
// pushed or the bot sent, answered by get_msg, and forwarded bundles answered by get_forward_msg; plus
// messages of any segments (a reply, a forward, an image, a voice message).
import { FakeOneBot } from './onebot.js'

export interface Segment { type: string; data: Record<string, unknown> }
/** One message of a forwarded bundle, as get_forward_msg answers it (NapCat: `message`; go-cqhttp: `content`). */
interface ForwardNode { user_id: number; nickname: string; message: Segment[] }

interface Stored { message_id: number; time: number; message_type: string; user_id: number; group_id?: number; sender: { user_id: number; nickname: string; card?: string }; message: Segment[]; raw_message: string }

/** The CQ-code form of a message (what implementations put in raw_message: the host's duplicate throttle compares it). */
const plain = (segs: Segment[]): string => segs.map((s) => (s.type === 'text'
  ? String(s.data.text ?? '')
  : `[CQ:${[s.type, ...Object.entries(s.data).map(([k, v]) => `${k}=${String(v)}`)].join(',')}]`)).join('')

export class HistoryOneBot extends FakeOneBot {
  private readonly stored = new Map<number, Stored>()
  private readonly forwards = new Map<string, ForwardNode[]>()
  /** the get_* calls answered here, in order (what the adapter asked for) */
  readonly lookups: Array<{ action: string; params: Record<string, unknown> }> = []
  /** the message id each send got (keyed by the `params` of its Sent record) */
  readonly sentIds = new WeakMap<object, number>()

  /** Keeps a bundle under `id`, as the implementation keeps what the QQ client uploaded. */
  addForward (id: string, nodes: ForwardNode[]): void { this.forwards.set(id, nodes) }

  protected override answer (action: string, params: Record<string, unknown>): unknown {
    if (action === 'get_msg') {
      this.lookups.push({ action, params })
      return this.stored.get(Number(params.message_id))
    }
    if (action === 'get_forward_msg') {
      this.lookups.push({ action, params })
      const nodes = this.forwards.get(String(params.message_id ?? params.id))
      if (!nodes) return undefined
      return { messages: nodes.map((n) => ({ sender: { user_id: n.user_id, nickname: n.nickname }, user_id: n.user_id, time: Math.floor(Date.now() / 1000), message_type: 'group', message: n.message })) }
    }
    const out = super.answer(action, params)
    if (action.startsWith('send_') && out && typeof out === 'object') {
      const id = (out as { message_id: number }).message_id
      this.sentIds.set(params, id)
      const message = (Array.isArray(params.message) ? params.message : [{ type: 'text', data: { text: String(params.message ?? '') } }]) as Segment[]
      this.stored.set(id, {
        message_id: id, time: Math.floor(Date.now() / 1000), message_type: params.group_id !== undefined ? 'group' : 'private', user_id: this.botId,
        ...(params.group_id !== undefined ? { group_id: Number(params.group_id) } : {}),
        sender: { user_id: this.botId, nickname: 'bot' }, message, raw_message: plain(message)
      })
    }
    return out
  }

  /** A message of any segments from `userId`, privately or in `groupId`; returns its id. */
  message (userId: number, message: Segment[], opts: { groupId?: number; nickname?: string } = {}): number {
    const id = this.nextId++
    const nickname = opts.nickname ?? `user${userId}`
    const group = opts.groupId !== undefined
    const event: Stored = {
      message_id: id, time: Math.floor(Date.now() / 1000), message_type: group ? 'group' : 'private', user_id: userId,
      ...(group ? { group_id: opts.groupId } : {}),
      sender: { user_id: userId, nickname, ...(group ? { card: '' } : {}) }, message, raw_message: plain(message)
    }
    this.stored.set(id, event)
    this.push({ post_type: 'message', sub_type: group ? 'normal' : 'friend', font: 0, ...event, sender: { ...event.sender, ...(group ? { role: 'member' } : {}) } })
    return id
  }
}
