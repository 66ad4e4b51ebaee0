// From a file's bytes to the text the passages are cut from (lib/knowledge/README.md, "Files in"):
// the type from the file name's extension (or a fetched page's content type), one extractor each.
import { extname } from 'node:path'
import { FILE_TYPES, type FileType } from '../types.js'
import { extractCsv } from './csv.js'
import { extractDocx } from './docx.js'
import { extractHtml } from './html.js'
import { extractPdf } from './pdf.js'
import { decodeText, extractMarkdown, extractPlain } from './text.js'
import type { Extracted } from './types.js'
import { extractXlsx } from './xlsx.js'

export { ExtractError, type Extracted } from './types.js'

const EXTENSIONS: ReadonlyMap<string, FileType> = new Map([
  ['.txt', 'txt'], ['.text', 'txt'], ['.md', 'md'], ['.markdown', 'md'], ['.html', 'html'], ['.htm', 'html'],
  ['.pdf', 'pdf'], ['.docx', 'docx'], ['.csv', 'csv'], ['.xlsx', 'xlsx']
])
const MEDIA_TYPES: ReadonlyMap<string, FileType> = new Map([
  ['text/plain', 'txt'], ['text/markdown', 'md'], ['text/x-markdown', 'md'], ['text/html', 'html'], ['application/xhtml+xml', 'html'],
  ['application/pdf', 'pdf'], ['text/csv', 'csv'],
  ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'docx'],
  ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'xlsx']
])

/** The extensions the knowledge base reads, for error messages. */
export const SUPPORTED_EXTENSIONS = FILE_TYPES.map((t) => `.${t}`).join(' ')

/** The type of a file by its name, or undefined when the knowledge base does not read it. */
export const typeOfName = (name: string): FileType | undefined => EXTENSIONS.get(extname(name).toLowerCase())

/** The type of a fetched body by its media type (no parameters, lower case). */
export const typeOfMedia = (mediaType: string): FileType | undefined => MEDIA_TYPES.get(mediaType)

/** The file name without its extension (a document's title when the file names none). */
export const baseTitle = (name: string): string => name.slice(0, name.length - extname(name).length).trim() || name

export async function extractFile (type: FileType, bytes: Uint8Array): Promise<Extracted> {
  switch (type) {
    case 'txt': return extractPlain(bytes)
    case 'md': return extractMarkdown(bytes)
    case 'html': return await extractHtml(decodeText(bytes))
    case 'pdf': return await extractPdf(bytes)
    case 'docx': return await extractDocx(bytes)
    case 'csv': return extractCsv(bytes)
    case 'xlsx': return await extractXlsx(bytes)
  }
}
