// Word files (.docx) through mammoth (pure JavaScript): the document as HTML (headings from the Word
// heading styles, tables, lists), then as markdown-like text (html.ts). Loaded on first use.
import { importOptional } from '../../core/packages.js'
import { markdownOfHtml } from './html.js'
import { ExtractError, type Extracted } from './types.js'

export async function extractDocx (bytes: Uint8Array): Promise<Extracted> {
  const mammoth = await importOptional('mammoth', () => import('mammoth')).catch((err: unknown) => {
    throw new ExtractError(`读取 Word 文件需要的程序包 mammoth 没有安装：${err instanceof Error ? err.message : String(err)}`)
  })
  let html: string
  try {
    html = (await mammoth.default.convertToHtml({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) })).value
  } catch (err) {
    throw new ExtractError(`Word 文件已损坏或不是 .docx 格式（旧的 .doc 请另存为 .docx）：${err instanceof Error ? err.message : String(err)}`)
  }
  const text = await markdownOfHtml(html)
  if (!text) throw new ExtractError('Word 文件中没有文字')
  return { text }
}
