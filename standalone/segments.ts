// The global `segment` per profile and helpers to normalise and render messages.
// Miao's icqq segment has text/face but no reply/file; TRSS's shim has reply/file but no text/face.
import type { Id, Profile, Seg, Sendable } from './types.js'

type Media = string | Buffer
export type SegmentApi = Record<string, (...args: never[]) => Seg>

export function createSegment(profile: Profile): SegmentApi {
  const image = (file: Media, name?: string): Seg => (name === undefined ? { type: 'image', file } : { type: 'image', file, name })
  if (profile === 'miao') {
    return {
      text: (text: string) => ({ type: 'text', text }),
      face: (id: number) => ({ type: 'face', id }),
      at: (qq: Id, text?: string) => ({ type: 'at', qq, text }),
      image: (file: Media) => image(file),
      record: (file: Media) => ({ type: 'record', file }),
      video: (file: Media) => ({ type: 'video', file }),
      json: (data: unknown) => ({ type: 'json', data }),
      xml: (data: string) => ({ type: 'xml', data }),
      markdown: (content: string) => ({ type: 'markdown', content }),
      poke: (id: number) => ({ type: 'poke', id }),
      share: (url: string, title: string) => ({ type: 'share', url, title }),
      location: (lat: number, lng: number, address: string) => ({ type: 'location', lat, lng, address }),
      // Miao stubs buttons out (they are not sendable through icqq)
      button: () => ({ type: 'text', text: '' })
    }
  }
  return {
    custom: (type: string, data: Record<string, unknown>) => ({ ...data, type }),
    raw: (data: unknown) => ({ type: 'raw', data }),
    button: (...data: unknown[]) => ({ type: 'button', data }),
    markdown: (data: string) => ({ type: 'markdown', data }),
    image: (file: Media, name?: string) => image(file, name),
    at: (qq: Id, name?: string) => ({ type: 'at', qq, name }),
    record: (file: Media, name?: string) => ({ type: 'record', file, name }),
    video: (file: Media, name?: string) => ({ type: 'video', file, name }),
    file: (file: Media, name?: string) => ({ type: 'file', file, name }),
    reply: (id: Id, text?: string) => ({ type: 'reply', id, text })
  }
}

/** Any sendable value as an array of segments (plain strings become text segments). */
export function toSegments(msg: Sendable | unknown): Seg[] {
  const list = Array.isArray(msg) ? msg : [msg]
  return list.filter((m) => m !== undefined && m !== null && m !== '').map((m): Seg => {
    if (typeof m === 'object' && typeof (m as Seg).type === 'string') return m as Seg
    return { type: 'text', text: String(m) }
  })
}

/** True when a reply would send nothing (the hosts' `e.reply('')` returns false). */
export function isEmptyMessage(msg: unknown): boolean {
  if (msg === undefined || msg === null || msg === '') return true
  return Array.isArray(msg) && msg.length === 0
}

function mediaLabel(label: string, seg: Seg): string {
  const src = typeof seg.url === 'string' ? seg.url : typeof seg.file === 'string' ? seg.file : ''
  return src && src.length <= 200 ? `[${label}:${src}]` : `[${label}]`
}

/** Human-readable text of a message (used by the transcript and the console). */
export function renderText(segs: Seg[]): string {
  return segs.map((seg): string => {
    switch (seg.type) {
      case 'text': return String(seg.text ?? '')
      case 'at': return `@${String(seg.name ?? seg.text ?? seg.qq)} `
      case 'image': return mediaLabel('图片', seg)
      case 'record': return mediaLabel('语音', seg)
      case 'video': return mediaLabel('视频', seg)
      case 'file': return `[文件${typeof seg.name === 'string' ? ':' + seg.name : ''}]`
      case 'face': return '[表情]'
      case 'reply': case 'button': return ''
      case 'markdown': return String(seg.data ?? seg.content ?? '')
      case 'node': {
        // each node under its sender's name, a blank line between nodes (a forward reads as a bundle)
        const nodes = Array.isArray(seg.data) ? seg.data as Array<{ message?: unknown; nickname?: unknown }> : []
        const who = (n: { nickname?: unknown }): string => (typeof n.nickname === 'string' && n.nickname ? `${n.nickname}: ` : '')
        return [`[转发消息 ${nodes.length} 条]`, ...nodes.map((n) => `${who(n)}${renderText(toSegments(n.message))}`)].join('\n\n')
      }
      default: return `[${seg.type}]`
    }
  }).join('')
}
