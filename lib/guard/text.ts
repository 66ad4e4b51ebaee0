// What the guard reads of one outgoing message: its plain text (what QQ sees as a message's own
// text; a forward's nodes are not counted, a forward is the safe form of a long answer), whether it
// carries links, and a cheap fingerprint under which nearly the same texts collide.
import type { Seg, Sendable } from '../host/types.js'

export interface SendFeatures {
  /** characters of the message's own text */
  chars: number
  links: number
  /** fingerprint of the normalised text; 0 for a message without text (an image, a forward) */
  hash: number
}

const LINK = /\bhttps?:\/\/[^\s)\]}>"']+/gi
// spaces, punctuation (ASCII and CJK), digits: "哈哈 1" and "哈哈！2" are the same text again
const NOISE = /[\s\p{P}\p{S}\d]+/gu

function segText (seg: Seg): string {
  if (seg.type !== 'text') return ''
  const direct = seg.text
  if (typeof direct === 'string') return direct
  const data = seg.data as { text?: unknown } | undefined
  return typeof data?.text === 'string' ? data.text : ''
}

/** The message's own text (text segments and strings). */
function plainText (msg: Sendable): string {
  if (typeof msg === 'string') return msg
  const list = Array.isArray(msg) ? msg : [msg]
  return list.map((m) => (typeof m === 'string' ? m : segText(m))).join('')
}

/** FNV-1a over the UTF-16 units: fast, and collisions only cost a repeat counted too many. */
function fnv1a (s: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0 || 1
}

export function featuresOf (msg: Sendable): SendFeatures {
  const text = plainText(msg)
  const norm = text.toLowerCase().replace(NOISE, '')
  return { chars: [...text].length, links: text.match(LINK)?.length ?? 0, hash: norm ? fnv1a(norm) : 0 }
}
