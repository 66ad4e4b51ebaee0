// Plain text and markdown files: the bytes decoded (a BOM's encoding, else UTF-8, else GB18030, the
// encoding of Chinese Windows text files), line ends made `\n`.
import { ExtractError, type Extracted } from './types.js'

export function decodeText (bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2))
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2))
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes)
  } catch {
    try { return new TextDecoder('gb18030').decode(bytes) } catch { throw new ExtractError('文件编码无法识别（请存为 UTF-8 后重新上传）') }
  }
}

const lines = (s: string): string => s.replace(/\r\n?/g, '\n').replace(/\u0000/g, '')

export function extractPlain (bytes: Uint8Array): Extracted {
  return { text: lines(decodeText(bytes)).trim() }
}

export function extractMarkdown (bytes: Uint8Array): Extracted {
  let text = lines(decodeText(bytes))
  // front matter is metadata, not text
  const fm = /^---\n[\s\S]*?\n---\n/.exec(text)
  if (fm) text = text.slice(fm[0].length)
  const title = /^#[ \t]+(.+?)[ \t#]*$/m.exec(text)?.[1]?.trim()
  return { text: text.trim(), ...(title ? { title } : {}) }
}
