// Message segments as the hosts give them, read into text and image sources. Hosts differ: icqq and
// TRSS's loaders hand plugins flat segments (`{type:'text', text}`), while a message fetched through a
// OneBot adapter may still be in the protocol's form (`{type:'text', data:{text}}`: TRSS parses
// get_forward_msg's `message` but not go-cqhttp's `content`), a CQ-code string, or icqq's brief text.
import type { Seg } from '../host/types.js'

/** A segment in the flat form; OneBot's `{type, data:{...}}` is flattened, a string is text. */
export function flat (seg: unknown): Seg | undefined {
  if (typeof seg === 'string') return { type: 'text', text: seg }
  if (!seg || typeof seg !== 'object') return undefined
  const s = seg as { type?: unknown; data?: unknown }
  if (typeof s.type !== 'string') return undefined
  if (s.data && typeof s.data === 'object' && !Array.isArray(s.data)) return { ...(s.data as Record<string, unknown>), type: s.type }
  return s as Seg
}

/** A host message's `message` (array, one segment or a string) as flat segments. */
function segmentsOf (message: unknown): Seg[] {
  const list = Array.isArray(message) ? message : message === undefined || message === null || message === '' ? [] : [message]
  const out: Seg[] = []
  for (const m of list) {
    const f = flat(m)
    if (f) out.push(f)
  }
  return out
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined)

/**
 * Where an image segment's picture can be fetched, as the model gateway takes it: http(s) and data:
 * URLs as they are, the hosts' base64:// form as a data: URL. Anything else (a local path) is not given.
 */
function imageSource (seg: Seg): string | undefined {
  for (const v of [str(seg.url), str(seg.file)]) {
    if (!v) continue
    if (/^https?:\/\//i.test(v) || v.startsWith('data:')) return v
    if (v.startsWith('base64://')) return `data:image/png;base64,${v.slice('base64://'.length)}`
  }
  return undefined
}

/** Who sent a fetched message (a quoted one, a forward node): card, nickname, else the id. */
export function senderOf (msg: unknown): { id?: string; name: string } {
  const m = (msg && typeof msg === 'object' ? msg : {}) as { user_id?: unknown; nickname?: unknown; sender?: { user_id?: unknown; nickname?: unknown; card?: unknown }; name?: unknown; uin?: unknown }
  const rawId = m.sender?.user_id ?? m.user_id ?? m.uin
  const id = typeof rawId === 'string' || typeof rawId === 'number' ? String(rawId) : undefined
  const name = str(m.sender?.card) ?? str(m.sender?.nickname) ?? str(m.nickname) ?? str(m.name) ?? id ?? '?'
  return { ...(id ? { id } : {}), name }
}

/** The segments of a fetched message: its `message`, else `content` (go-cqhttp forward nodes). */
export function messageSegments (msg: unknown): Seg[] {
  if (typeof msg === 'string') return segmentsOf(msg)
  const m = (msg && typeof msg === 'object' ? msg : {}) as { message?: unknown; content?: unknown; raw_message?: unknown }
  const segs = segmentsOf(m.message ?? m.content)
  return segs.length ? segs : segmentsOf(typeof m.raw_message === 'string' ? m.raw_message : undefined)
}

export interface Labels { image: string; voice: string; forward: string }

/**
 * The readable text of segments; image sources are pushed to `images` while it holds fewer than
 * `maxImages` (each image leaves the label in the text only when it was not kept).
 */
export function render (segs: Seg[], labels: Labels, images: string[], maxImages: number): string {
  let text = ''
  for (const seg of segs) {
    switch (seg.type) {
      case 'text': text += String(seg.text ?? ''); break
      case 'at': text += `@${String(seg.name ?? seg.text ?? seg.qq ?? '')} `; break
      case 'image': {
        const src = imageSource(seg)
        if (src && images.length < maxImages) images.push(src)
        else text += labels.image
        break
      }
      case 'record': text += labels.voice; break
      case 'forward': case 'node': text += labels.forward; break
      default: break
    }
  }
  return text.trim()
}
