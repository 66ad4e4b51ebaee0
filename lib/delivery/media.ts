// Images and files in a model's answer, taken out of the text so they go to the chat as real QQ
// segments instead of markdown or links: ![alt](src), [text](url) pointing at an image or a file, bare
// image URLs, data:image/…;base64 and base64:// sources. Code blocks are left alone.

export interface Media {
  kind: 'image' | 'file'
  /** http(s) URL or base64://… */
  src: string
  /** files: the name shown (the link text or the URL's last part) */
  name?: string
}

/** Segments per answer at most: QQ refuses very long messages; the rest stays in the text. */
export const MAX_MEDIA = 9

const IMAGE_EXT = /\.(?:png|jpe?g|gif|webp|bmp)$/i
const FILE_EXT = /\.(?:pdf|zip|rar|7z|tar|gz|tgz|docx?|xlsx?|pptx?|epub|apk)$/i
const FENCE = /^\s{0,3}(?:`{3,}|~{3,})/
const MD_IMAGE = /!\[([^\]]*)\]\(\s*<?((?:https?:\/\/|data:image\/|base64:\/\/)[^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g
const MD_LINK = /\[([^\]]+)\]\(\s*<?(https?:\/\/[^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g
const BARE = /(?<![(<[="'\w])https?:\/\/[^\s<>()"'\]]+/g
const DATA_URI = /(?<![(<])data:image\/[\w+.-]+;base64,[A-Za-z0-9+/=]+/g
const B64 = /(?<![(<\w])base64:\/\/[A-Za-z0-9+/=]+/g
const TRAILING = /[.,;:!?。，；：！？、]+$/

const pathOf = (url: string): string => url.replace(/[?#].*$/, '')
const lastPart = (url: string): string => {
  const p = pathOf(url)
  try { return decodeURIComponent(p.slice(p.lastIndexOf('/') + 1)) } catch { return p.slice(p.lastIndexOf('/') + 1) }
}
const toSrc = (src: string): string => (src.startsWith('data:') ? `base64://${src.slice(src.indexOf(',') + 1)}` : src)

class Collector {
  readonly media: Media[] = []
  private readonly seen = new Set<string>()
  /** false when the answer already has MAX_MEDIA items: the caller leaves the text as it was */
  add (m: Media): boolean {
    if (this.seen.has(m.src)) return true
    if (this.media.length >= MAX_MEDIA) return false
    this.seen.add(m.src)
    this.media.push(m)
    return true
  }
}

function line (s: string, c: Collector): string {
  return s
    .replace(MD_IMAGE, (all, _alt: string, src: string) => (c.add({ kind: 'image', src: toSrc(src) }) ? '' : all))
    .replace(MD_LINK, (all, text: string, url: string) => {
      const path = pathOf(url)
      const kind = IMAGE_EXT.test(path) ? 'image' : FILE_EXT.test(path) ? 'file' : undefined
      if (!kind) return all
      if (!c.add(kind === 'file' ? { kind, src: url, name: text === url ? lastPart(url) : text } : { kind, src: url })) return all
      return text === url ? '' : text
    })
    .replace(BARE, (all) => {
      const url = all.replace(TRAILING, '')
      const path = pathOf(url)
      const kind = IMAGE_EXT.test(path) ? 'image' : FILE_EXT.test(path) ? 'file' : undefined
      if (!kind || !c.add(kind === 'file' ? { kind, src: url, name: lastPart(url) } : { kind, src: url })) return all
      return all.slice(url.length)
    })
    .replace(DATA_URI, (all) => (c.add({ kind: 'image', src: toSrc(all) }) ? '' : all))
    .replace(B64, (all) => (c.add({ kind: 'image', src: all }) ? '' : all))
}

const MAY_HOLD = /https?:\/\/|data:image\/|base64:\/\//

/** The text without its images and file links, and those as media (in order, without repeats). */
export function extractMedia (text: string): { text: string; media: Media[] } {
  if (!MAY_HOLD.test(text)) return { text, media: [] }
  const c = new Collector()
  const lines = text.split('\n')
  let inFence = false
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as string
    if (FENCE.test(l)) { inFence = !inFence; continue }
    if (inFence || !MAY_HOLD.test(l)) continue
    let out = line(l, c)
    // what was around a removed URL closes up ("see , and" -> "see, and")
    if (out !== l) out = (/^[ \t]*/.exec(l)?.[0] ?? '') + out.replace(/[ \t]{2,}/g, ' ').replace(/[ \t]+([,，.。;；:：!！?？])/g, '$1').trim()
    // a line that held only media goes away with it
    lines[i] = out !== l && !out.trim() ? '\u0000' : out
  }
  return { text: lines.filter((l) => l !== '\u0000').join('\n'), media: c.media }
}
