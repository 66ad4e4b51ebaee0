// Plays the OneBot v11 implementation (what NapCat or go-cqhttp are to real users) against the host's
// own adapter: a reverse WebSocket to /OneBotv11, the lifecycle event, answers to the adapter's API
// calls, and message events in array format. What the bot sends arrives as send_* calls.
import WebSocket from 'ws'

interface Segment { type: string; data: Record<string, unknown> }
export interface Sent { action: string; userId?: string; groupId?: string; text: string; time: number; params: Record<string, unknown> }
export interface World { nickname: string; friends: Array<{ user_id: number; nickname: string }>; groups: Array<{ group_id: number; group_name: string }> }

/** The usual world of a suite: friends named `user<id>`, groups named `group <id>`. */
export function worldOf (friends: number[], groups: number[], nickname = '灵犀测试机'): World {
  return {
    nickname,
    friends: friends.map((id) => ({ user_id: id, nickname: `user${id}` })),
    groups: groups.map((id) => ({ group_id: id, group_name: `group ${id}` }))
  }
}

const textOf = (segs: unknown): string => {
  if (typeof segs === 'string') return segs
  if (!Array.isArray(segs)) return ''
  return segs.map((s: Segment) => {
    if (s.type === 'text') return String(s.data.text ?? '')
    if (s.type === 'node') return textOf(s.data.content ?? s.data.message)
    if (s.type === 'at') return `@${String(s.data.qq)} `
    return ''
  }).join('')
}

export class FakeOneBot {
  readonly sent: Sent[] = []
  readonly calls: string[] = []
  private ws!: WebSocket
  protected nextId = 1000
  private waiters: Array<{ match: (s: Sent) => boolean; since: number; resolve: (s: Sent) => void }> = []
  private readyResolve!: () => void
  /** resolves when the adapter has finished its connect sequence */
  readonly ready = new Promise<void>((resolve) => { this.readyResolve = resolve })

  constructor (readonly botId: number, private readonly world: World, private readonly ackDelayMs = 300) {}

  private closedResolve!: () => void
  /** resolves when the host closes the connection (its process ended or was replaced) */
  readonly closed = new Promise<void>((resolve) => { this.closedResolve = resolve })

  /**
   * Connects to the host's adapter on `serverPort` and waits until it has finished its connect sequence;
   * after 30 s fails with the adapter's calls so far and the end of the host's output (`output`).
   */
  async connectToHost (serverPort: number, output: () => string = () => ''): Promise<void> {
    await this.connect(`ws://127.0.0.1:${serverPort}/OneBotv11`)
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`the adapter did not finish connecting; calls: ${this.calls.join(', ')}\n${output().slice(-3000)}`)), 30_000)
    })
    try { await Promise.race([this.ready, late]) } finally { clearTimeout(timer) }
  }

  async connect (url: string): Promise<void> {
    this.ws = new WebSocket(url, { headers: { 'X-Self-ID': String(this.botId), 'X-Client-Role': 'Universal' } })
    this.ws.on('close', () => this.closedResolve())
    this.ws.on('message', (raw) => { void this.onRequest(String(raw)) })
    await new Promise<void>((resolve, reject) => { this.ws.once('open', resolve); this.ws.once('error', reject) })
    this.push({ post_type: 'meta_event', meta_event_type: 'lifecycle', sub_type: 'connect' })
  }

  protected push (event: Record<string, unknown>): void {
    this.ws.send(JSON.stringify({ time: Math.floor(Date.now() / 1000), self_id: this.botId, ...event }))
  }

  protected answer (action: string, params: Record<string, unknown>): unknown {
    const member = (groupId: unknown, userId: unknown): Record<string, unknown> => {
      const f = this.world.friends.find((x) => String(x.user_id) === String(userId))
      return { group_id: Number(groupId), user_id: Number(userId), nickname: f?.nickname ?? `user${String(userId)}`, card: '', role: 'member' }
    }
    switch (action) {
      case 'get_login_info': return { user_id: this.botId, nickname: this.world.nickname }
      case 'get_version_info': return { app_name: 'lingxi-fake-onebot', app_version: '1.0.0', protocol_version: 'v11' }
      case 'get_friend_list': return this.world.friends
      case 'get_stranger_info': return { user_id: Number(params.user_id), nickname: `user${String(params.user_id)}` }
      case 'get_group_list': return this.world.groups.map((g) => ({ ...g, member_count: this.world.friends.length + 1, max_member_count: 500 }))
      case 'get_group_info': return { ...(this.world.groups.find((g) => String(g.group_id) === String(params.group_id)) ?? { group_id: Number(params.group_id), group_name: 'group' }), member_count: 3 }
      case 'get_group_member_list': return [member(params.group_id, this.botId), ...this.world.friends.map((f) => member(params.group_id, f.user_id))]
      case 'get_group_member_info': return member(params.group_id, params.user_id)
      case 'get_cookies': return { cookies: '' }
      case 'get_csrf_token': return { token: 0 }
      case 'send_msg': case 'send_private_msg': case 'send_group_msg':
      case 'send_private_forward_msg': case 'send_group_forward_msg': {
        const s: Sent = {
          action,
          ...(params.user_id !== undefined ? { userId: String(params.user_id) } : {}),
          ...(params.group_id !== undefined ? { groupId: String(params.group_id) } : {}),
          text: textOf(params.message ?? params.messages),
          time: Date.now(),
          params
        }
        this.sent.push(s)
        for (const w of this.waiters.splice(0)) {
          if (s.time >= w.since && w.match(s)) w.resolve(s)
          else this.waiters.push(w)
        }
        return { message_id: this.nextId++ }
      }
      case 'delete_msg': return {}
      default: return undefined
    }
  }

  private async onRequest (raw: string): Promise<void> {
    let req: { action?: string; params?: Record<string, unknown>; echo?: unknown }
    try { req = JSON.parse(raw) } catch { return }
    if (!req.action) return
    this.calls.push(req.action)
    const data = this.answer(req.action, req.params ?? {})
    // A real implementation acknowledges a send once QQ's server took it (a few hundred ms later); the
    // message itself is seen (this.sent) at once, as the user would see it.
    if (req.action.startsWith('send_') && this.ackDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.ackDelayMs))
    if (this.ws.readyState !== WebSocket.OPEN) return
    const reply = data === undefined
      ? { status: 'failed', retcode: 1404, msg: 'unsupported action', wording: 'unsupported action', data: null, echo: req.echo }
      : { status: 'ok', retcode: 0, data, echo: req.echo }
    this.ws.send(JSON.stringify(reply))
    // get_friend_list comes right after the connect sequence (the adapter has then emitted connect)
    if (req.action === 'get_friend_list') this.readyResolve()
  }

  /**
   * TRSS drops a message whose text repeats the same user's previous one within 1 s (its duplicate
   * throttle runs before the event is known to be private): a repeat waits that out, as a person would.
   */
  private async spaced (key: string): Promise<void> {
    const wait = (this.lastText.get(key) ?? 0) + 1100 - Date.now()
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
    this.lastText.set(key, Date.now())
  }

  private readonly lastText = new Map<string, number>()

  async privateMessage (userId: number, text: string, nickname = `user${userId}`): Promise<number> {
    await this.spaced(`${userId}:${text}`)
    const id = this.nextId++
    this.push({
      post_type: 'message', message_type: 'private', sub_type: 'friend', message_id: id, user_id: userId, font: 0,
      message: [{ type: 'text', data: { text } }], raw_message: text, sender: { user_id: userId, nickname }
    })
    return id
  }

  /** A group message; `atBot` puts an @ of the bot first, as a QQ client does. */
  async groupMessage (groupId: number, userId: number, text: string, opts: { atBot?: boolean; nickname?: string } = {}): Promise<number> {
    await this.spaced(`${userId}:${text}`)
    const id = this.nextId++
    const message: Segment[] = [...(opts.atBot ? [{ type: 'at', data: { qq: String(this.botId) } }] : []), { type: 'text', data: { text } }]
    this.push({
      post_type: 'message', message_type: 'group', sub_type: 'normal', message_id: id, group_id: groupId, user_id: userId, font: 0,
      message, raw_message: `${opts.atBot ? `[CQ:at,qq=${this.botId}] ` : ''}${text}`,
      sender: { user_id: userId, nickname: opts.nickname ?? `user${userId}`, card: '', role: 'member' }
    })
    return id
  }

  /** A notice as the implementation pushes it: `notice_type` notify + `sub_type` poke (a poke),
   * group_increase, group_recall, friend_recall, ... with their fields (OneBot v11). */
  notice (fields: Record<string, unknown>): void {
    this.push({ post_type: 'notice', ...fields })
  }

  /** The first message the bot sends at or after `since` that matches. */
  waitForSent (match: (s: Sent) => boolean, timeoutMs: number, since = 0): Promise<Sent> {
    const found = this.sent.find((s) => s.time >= since && match(s))
    if (found) return Promise.resolve(found)
    return new Promise((resolve, reject) => {
      const w = { match, since, resolve: (s: Sent) => { clearTimeout(t); resolve(s) } }
      const t = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== w)
        reject(new Error(`no matching message from the bot within ${timeoutMs} ms; sent so far:\n${this.sent.map((s) => `${s.action} ${s.userId ?? s.groupId}: ${s.text.slice(0, 200)}`).join('\n')}`))
      }, timeoutMs)
      this.waiters.push(w)
    })
  }

  close (): void {
    this.ws?.removeAllListeners('message')
    this.ws?.terminate()
  }
}
