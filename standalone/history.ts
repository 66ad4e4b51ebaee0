// What the hosts keep of past messages, as plugins reach it: a message by id (TRSS adapters'
// getMsg and the loader's e.getReply(); icqq's getMsg), the messages of a forwarded bundle
// (getForwardMsg), icqq's chat history by seq or time, and the shape of a reply per profile (TRSS: a
// `reply` segment, e.reply_id and e.getReply(); Miao/icqq: no segment, `e.source` with seq and time).
//
// Tests write a reply as `{type:'reply', id}` and a forwarded bundle as `{type:'forward', id, nodes}`
// in either profile: `nodes` is harness-only (it is taken out of the segment and kept under the id, as a
// protocol implementation keeps the bundle the QQ client uploaded).
import type { Account } from './account.js'
import { renderText, toSegments } from './segments.js'
import type { Transcript } from './transcript.js'
import type { ForwardNode, Id, Profile, Seg, StandaloneEvent } from './types.js'

/** A stored message as the adapters' get_msg answers (flat segments). */
interface StoredMessage {
  message_id: string
  /** icqq's sequence number (the number in the harness's message id) */
  seq: number
  time: number
  user_id: Id
  group_id?: Id
  sender: { user_id: Id; nickname: string }
  message: Seg[]
  raw_message: string
}

interface Store { messages: Map<string, StoredMessage>; forwards: Map<string, ForwardNode[]> }

// one store per host: the transcript is the host's own
const stores = new WeakMap<Transcript, Store>()

function storeOf(transcript: Transcript): Store {
  let s = stores.get(transcript)
  if (!s) stores.set(transcript, (s = { messages: new Map(), forwards: new Map() }))
  return s
}

const seqOf = (id: string): number => Number(/\d+$/.exec(id)?.[0] ?? 0)

/** A message by id: one a user sent (an event) or one the bot sent (the transcript). */
function find(store: Store, transcript: Transcript, account: Account, id: Id): StoredMessage | undefined {
  const key = String(id)
  const own = store.messages.get(key)
  if (own) return own
  const sent = transcript.entries.find((x) => x.message_id === key)
  if (!sent) return undefined
  return {
    message_id: sent.message_id, seq: seqOf(sent.message_id), time: Math.floor(sent.time / 1000), user_id: account.uin,
    ...(sent.target === 'group' ? { group_id: sent.targetId } : {}),
    sender: { user_id: account.uin, nickname: account.nickname }, message: sent.message, raw_message: sent.text
  }
}

function forwardOf(store: Store, account: Account, id: Id): Array<Record<string, unknown>> {
  return (store.forwards.get(String(id)) ?? []).map((n, i) => {
    const user_id = n.user_id ?? account.uin
    const nickname = n.nickname ?? `user${user_id}`
    return { user_id, nickname, sender: { user_id, nickname }, time: Math.floor(Date.now() / 1000), seq: i + 1, message: toSegments(n.message) }
  })
}

/**
 * Records the event's message, takes forwarded bundles out of its segments, shapes a reply as the
 * profile's host does and gives the event's chat (and, on Miao, its bot) the lookup methods.
 */
export function attachHistory(e: StandaloneEvent, profile: Profile, account: Account, transcript: Transcript): void {
  const store = storeOf(transcript)
  for (const seg of e.message) {
    if (seg.type === 'forward' && Array.isArray(seg.nodes)) {
      store.forwards.set(String(seg.id), seg.nodes as ForwardNode[])
      delete seg.nodes
    }
  }
  const getMsg = async (id: Id): Promise<StoredMessage | undefined> => find(store, transcript, account, id)
  const getForwardMsg = async (id: Id): Promise<Array<Record<string, unknown>>> => forwardOf(store, account, id)
  const chat = (e.group ?? e.friend) as (StandaloneEvent['group'] & Record<string, unknown>) | undefined
  if (chat) Object.assign(chat, { getMsg, getForwardMsg })

  const reply = e.message.find((m) => m.type === 'reply')
  const quoted = reply ? find(store, transcript, account, reply.id as Id) : undefined
  if (profile === 'trss') {
    if (reply && chat) e.getReply = () => getMsg(reply.id as Id)
  } else {
    // icqq: no reply segment; e.source names the quoted message, the chat history has it
    if (reply) {
      e.message = e.message.filter((m) => m !== reply)
      if (quoted) e.source = { user_id: quoted.user_id, time: quoted.time, seq: quoted.seq, rand: 0, message: quoted.raw_message }
    }
    if (chat) {
      chat.getChatHistory = async (at: number, count: number) => [...store.messages.values(), ...transcript.entries.map((x) => find(store, transcript, account, x.message_id) as StoredMessage)]
        .filter((m) => (e.group ? m.seq <= at : m.time <= at) && String(m.group_id ?? '') === String(e.group_id ?? ''))
        .sort((a, b) => a.seq - b.seq).slice(-count)
    }
    if (e.bot && !(e.bot as unknown as Record<string, unknown>).getMsg) Object.assign(e.bot, { getMsg, getForwardMsg })
  }

  const id = e.message_id === undefined ? '' : String(e.message_id)
  if (id) {
    store.messages.set(id, {
      message_id: id, seq: seqOf(id), time: e.time ?? Math.floor(Date.now() / 1000), user_id: e.user_id,
      ...(e.group_id !== undefined ? { group_id: e.group_id } : {}),
      sender: { user_id: e.user_id, nickname: e.sender.card || e.sender.nickname || String(e.user_id) },
      message: e.message, raw_message: renderText(e.message)
    })
  }
}
