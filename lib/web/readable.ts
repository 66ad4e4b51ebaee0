// The readable text of an HTML page: @mozilla/readability (the Firefox Reader View algorithm) on a
// linkedom document, then the article's HTML turned into plain text with its paragraphs, headings and
// list items on their own lines. A page Readability finds no article in (a short page, a fragment)
// falls back to the body's text without scripts, styles, navigation, header, footer and forms.
// Both packages are loaded with the first page read, never at start (lib/core/packages.ts).
import { AppError, errorText } from '../core/errors.js'
import { importOptional } from '../core/packages.js'

export interface Parsers { Readability: typeof import('@mozilla/readability').Readability; parseHTML: typeof import('linkedom').parseHTML }
let parsers: Promise<Parsers> | undefined
/** Readability and linkedom, loaded once (a failed load is tried again next time); SERVICE_UNAVAILABLE naming the
 * package without one. Also the knowledge base's HTML reader (lib/knowledge/extract/html.ts). */
export function loadParsers (): Promise<Parsers> {
  return (parsers ??= Promise.all([
    importOptional('@mozilla/readability', () => import('@mozilla/readability')),
    importOptional('linkedom', () => import('linkedom'))
  ]).then(([r, l]) => ({ Readability: r.Readability, parseHTML: l.parseHTML }), (err: unknown) => {
    parsers = undefined
    throw new AppError('SERVICE_UNAVAILABLE', errorText(err), { cause: err })
  }))
}

export interface Readable { title: string; text: string }

/** Tags whose text starts on a new line. */
const BLOCK = new Set([
  'P', 'DIV', 'SECTION', 'ARTICLE', 'MAIN', 'ASIDE', 'HEADER', 'FOOTER', 'NAV', 'BLOCKQUOTE', 'PRE', 'UL', 'OL', 'DL',
  'DT', 'DD', 'TABLE', 'TR', 'FIGURE', 'FIGCAPTION', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HR', 'ADDRESS', 'DETAILS', 'SUMMARY'
])
/** Never text: code, styles, and (in the fallback) the page's chrome. */
const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'CANVAS', 'IFRAME', 'OBJECT', 'HEAD'])
const CHROME = new Set(['NAV', 'HEADER', 'FOOTER', 'FORM', 'ASIDE', 'BUTTON', 'SELECT'])

interface DomNode { nodeType: number; nodeName: string; textContent: string | null; childNodes: ArrayLike<DomNode> }

function toText (root: DomNode, skipChrome: boolean): string {
  const out: string[] = []
  const walk = (node: DomNode, pre: boolean): void => {
    if (node.nodeType === 3) {
      const t = node.textContent ?? ''
      out.push(pre ? t : t.replace(/\s+/g, ' '))
      return
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return
    const tag = node.nodeName.toUpperCase()
    if (SKIP.has(tag) || (skipChrome && CHROME.has(tag))) return
    if (tag === 'BR') { out.push('\n'); return }
    const block = BLOCK.has(tag)
    if (block) out.push('\n\n')
    if (tag === 'LI') out.push('\n• ')
    if (tag === 'TD' || tag === 'TH') out.push(' | ')
    for (const child of Array.from(node.childNodes)) walk(child, pre || tag === 'PRE')
    if (block) out.push('\n\n')
  }
  walk(root, false)
  return out.join('')
    .split('\n').map((l) => l.replace(/[ \t]+/g, ' ').trim()).join('\n')
    .replace(/\n{3,}/g, '\n\n').trim()
}

export async function readableText (html: string): Promise<Readable> {
  const { Readability, parseHTML } = await loadParsers()
  const { document } = parseHTML(html)
  const title = (document.title ?? '').trim()
  // Readability changes the document it reads: the fallback parses again.
  let article: { title?: string | null; content?: string | null } | null = null
  try {
    article = new Readability(document, { charThreshold: 200 }).parse()
  } catch { /* fall back below */ }
  if (article?.content) {
    const { document: doc } = parseHTML(`<!doctype html><html><body>${article.content}</body></html>`)
    const text = toText(doc.body, false)
    if (text) return { title: (article.title ?? '').trim() || title, text }
  }
  const { document: again } = parseHTML(html)
  return { title, text: toText(again.body ?? again.documentElement, true) }
}
