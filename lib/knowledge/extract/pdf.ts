// PDF files through unpdf (PDF.js in a build that needs no worker, no canvas and no native code):
// the text of each page, lines in reading order, a line set in a larger font than the body made a
// heading (`#` to `###`, largest first), lines of a paragraph joined (Chinese without a space), pages
// apart with their start offsets kept (the passages' page numbers). Loaded on first use.
import { importOptional } from '../../core/packages.js'
import { ExtractError, type Extracted } from './types.js'

interface Line { text: string; size: number }
interface TextPiece { str: string; height: number; transform: number[]; hasEOL?: boolean }

const CJK_END = /[\u3000-\u9fff\uff00-\uffef]$/
const CJK_START = /^[\u3000-\u9fff\uff00-\uffef]/
const PARAGRAPH_END = /[。！？!?：:；;]$|\.$/

/** The owner's words for what PDF.js says of a file it cannot open. */
function failure (err: unknown): ExtractError {
  const name = err instanceof Error ? err.name : ''
  const msg = err instanceof Error ? err.message : String(err)
  if (name === 'PasswordException') return new ExtractError('PDF 已损坏或加密：打开它需要密码，请上传未加密的版本')
  if (name === 'InvalidPDFException' || name === 'FormatError') return new ExtractError(`PDF 已损坏或加密：文件结构无效，可能没有下载完整（${msg}）`)
  return new ExtractError(`PDF 已损坏或加密：${msg}`)
}

function linesOf (items: readonly TextPiece[]): Line[] {
  const lines: Line[] = []
  let text = ''
  let size = 0
  let y: number | undefined
  const end = (): void => { if (text.trim()) lines.push({ text: text.replace(/\s+/g, ' ').trim(), size }); text = ''; size = 0 }
  for (const it of items) {
    const iy = it.transform[5] ?? 0
    if (y !== undefined && Math.abs(iy - y) > Math.max(2, it.height * 0.5) && text) end()
    y = iy
    text += it.str
    if (it.str.trim()) size = Math.max(size, it.height)
    if (it.hasEOL) end()
  }
  end()
  return lines
}

export async function extractPdf (bytes: Uint8Array): Promise<Extracted> {
  const { getDocumentProxy } = await importOptional('unpdf', () => import('unpdf')).catch((err: unknown) => {
    throw new ExtractError(`读取 PDF 需要的程序包 unpdf 没有安装：${err instanceof Error ? err.message : String(err)}`)
  })
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>
  // PDF.js takes the array over: a copy, so the caller's buffer stays whole
  try { pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false }) } catch (err) { throw failure(err) }
  try {
    const pages: Line[][] = []
    for (let i = 1; i <= pdf.numPages; i++) {
      const page = await pdf.getPage(i)
      const content = await page.getTextContent()
      pages.push(linesOf(content.items.filter((x): x is typeof x & TextPiece => 'str' in x)))
      page.cleanup()
    }
    let title: string | undefined
    try {
      const meta = await pdf.getMetadata()
      const t = (meta.info as { Title?: unknown } | undefined)?.Title
      if (typeof t === 'string' && t.trim()) title = t.trim()
    } catch { /* no metadata */ }
    return { ...layout(pages), ...(title ? { title } : {}) }
  } catch (err) {
    throw err instanceof ExtractError ? err : failure(err)
  } finally {
    await pdf.destroy().catch(() => {})
  }
}

/** Pages of lines as text: headings by font size, paragraphs joined, page start offsets. */
function layout (pages: Line[][]): { text: string; pageStarts: number[] } {
  // the body size: the size most characters are set in
  const bySize = new Map<number, number>()
  for (const p of pages) for (const l of p) { const s = Math.round(l.size * 2) / 2; bySize.set(s, (bySize.get(s) ?? 0) + l.text.length) }
  let body = 0
  let most = -1
  for (const [s, n] of bySize) if (n > most) { most = n; body = s }
  const headingSizes = [...bySize.keys()].filter((s) => s >= body * 1.2).sort((a, b) => b - a)
  const level = (size: number): number => {
    const i = headingSizes.indexOf(Math.round(size * 2) / 2)
    return i < 0 ? 0 : Math.min(3, i + 1)
  }
  let text = ''
  const pageStarts: number[] = []
  for (const p of pages) {
    if (text) text += '\n\n'
    pageStarts.push(text.length)
    let para = ''
    const flush = (): void => { if (para) { text += `${para}\n`; para = '' } }
    for (const l of p) {
      const lv = l.text.length <= 80 ? level(l.size) : 0
      if (lv > 0) { flush(); text += `${'#'.repeat(lv)} ${l.text}\n`; continue }
      para = !para ? l.text : CJK_END.test(para) && CJK_START.test(l.text) ? para + l.text : `${para} ${l.text}`
      if (PARAGRAPH_END.test(l.text)) flush()
    }
    flush()
    text = text.replace(/\n+$/, '')
  }
  if (!text.replace(/[#\s]/g, '')) throw new ExtractError('PDF 中没有可提取的文字（可能是扫描的图片；暂不支持文字识别）')
  return { text, pageStarts }
}
