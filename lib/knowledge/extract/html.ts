// HTML pages and the HTML mammoth makes of a DOCX, as markdown-like text: headings as `#` lines,
// list items as `- ` lines, table rows as `| a | b |` lines, paragraphs apart. A page's article is
// found with Readability on linkedom, the same pair lib/web/readable.ts reads pages with (there the
// text is flattened for the model; here headings and rows must stay structure for the passages);
// without an article, the body without scripts, styles, navigation, header, footer and forms.
// Both packages are loaded on first use, once, by lib/web/readable.ts (lib/core/packages.ts).
import { errorText } from '../../core/errors.js'
import { loadParsers as loadWebParsers, type Parsers } from '../../web/readable.js'
import { ExtractError, type Extracted } from './types.js'

/** The web reader's Readability and linkedom (loaded once there), a missing package said as an extraction error. */
async function loadParsers (): Promise<Parsers> {
  try {
    return await loadWebParsers()
  } catch (err) {
    throw new ExtractError(`读取 HTML 需要的程序包没有安装：${errorText(err)}`)
  }
}

interface DomNode { nodeType: number; nodeName: string; textContent: string | null; childNodes: ArrayLike<DomNode> }

const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'CANVAS', 'IFRAME', 'OBJECT', 'HEAD', 'BUTTON', 'SELECT'])
const CHROME = new Set(['NAV', 'HEADER', 'FOOTER', 'FORM', 'ASIDE'])
const BLOCK = new Set(['P', 'DIV', 'SECTION', 'ARTICLE', 'MAIN', 'BLOCKQUOTE', 'PRE', 'UL', 'OL', 'DL', 'DT', 'DD', 'FIGURE',
  'FIGCAPTION', 'HR', 'ADDRESS', 'DETAILS', 'SUMMARY', 'BODY', 'HTML', 'ASIDE', 'HEADER', 'FOOTER', 'NAV', 'FORM'])

const inline = (s: string): string => s.replace(/\s+/g, ' ').trim()

/** The text of a subtree, whitespace collapsed (a table cell, a heading). */
function flat (node: DomNode): string {
  const out: string[] = []
  const walk = (n: DomNode): void => {
    if (n.nodeType === 3) { out.push(n.textContent ?? ''); return }
    if (n.nodeType !== 1) return
    if (SKIP.has(n.nodeName.toUpperCase())) return
    if (n.nodeName.toUpperCase() === 'BR') { out.push(' '); return }
    for (const c of Array.from(n.childNodes)) walk(c)
    if (BLOCK.has(n.nodeName.toUpperCase())) out.push(' ')
  }
  walk(node)
  return inline(out.join(''))
}

/** A DOM subtree as markdown-like text. */
function domToMarkdown (root: DomNode, skipChrome: boolean): string {
  const blocks: string[] = []
  let para: string[] = []
  const flush = (): void => {
    const t = para.join('').split('\n').map((l) => l.replace(/[ \t]+/g, ' ').trim()).filter(Boolean).join('\n')
    if (t) blocks.push(t)
    para = []
  }
  const walk = (n: DomNode, pre: boolean): void => {
    if (n.nodeType === 3) { para.push(pre ? (n.textContent ?? '') : (n.textContent ?? '').replace(/\s+/g, ' ')); return }
    if (n.nodeType !== 1 && n.nodeType !== 9 && n.nodeType !== 11) return
    const tag = n.nodeName.toUpperCase()
    if (SKIP.has(tag) || (skipChrome && CHROME.has(tag))) return
    if (tag === 'BR') { para.push('\n'); return }
    const h = /^H([1-6])$/.exec(tag)
    if (h) {
      flush()
      const t = flat(n)
      if (t) blocks.push(`${'#'.repeat(Number(h[1]))} ${t}`)
      return
    }
    if (tag === 'TABLE') {
      flush()
      const rows: string[] = []
      const rowsOf = (x: DomNode): void => {
        for (const c of Array.from(x.childNodes)) {
          const ct = c.nodeName.toUpperCase()
          if (ct === 'TR') {
            const cells = Array.from(c.childNodes).filter((d) => /^T[DH]$/i.test(d.nodeName)).map((d) => flat(d).replace(/\|/g, '/'))
            if (cells.some(Boolean)) rows.push(`| ${cells.join(' | ')} |`)
          } else if (ct === 'THEAD' || ct === 'TBODY' || ct === 'TFOOT') rowsOf(c)
        }
      }
      rowsOf(n)
      if (rows.length) blocks.push(rows.join('\n'))
      return
    }
    if (tag === 'LI') {
      flush()
      const t = flat(n)
      if (t) blocks.push(`- ${t}`)
      return
    }
    const block = BLOCK.has(tag)
    if (block) flush()
    for (const c of Array.from(n.childNodes)) walk(c, pre || tag === 'PRE')
    if (block) flush()
  }
  walk(root, false)
  flush()
  // list items of one list stay together (one line each)
  return blocks.join('\n\n').replace(/^(- .*)\n\n(?=- )/gm, '$1\n').trim()
}

/** An HTML page: its article (Readability), else its body without the page's chrome. */
export async function extractHtml (html: string): Promise<Extracted> {
  const { Readability, parseHTML } = await loadParsers()
  const { document } = parseHTML(html)
  const docTitle = inline(document.title ?? '')
  let article: { title?: string | null; content?: string | null } | null = null
  try { article = new Readability(document, { charThreshold: 200 }).parse() } catch { /* the body below */ }
  let text = ''
  if (article?.content) text = domToMarkdown(parseHTML(`<!doctype html><html><body>${article.content}</body></html>`).document.body, false)
  // Readability changes the document it reads: the fallback parses again
  if (!text) { const again = parseHTML(html).document; text = domToMarkdown(again.body ?? again.documentElement, true) }
  const title = inline(article?.title ?? '') || docTitle
  return { text, ...(title ? { title } : {}) }
}

/** HTML made by a converter (mammoth): all of it, no article detection. */
export async function markdownOfHtml (html: string): Promise<string> {
  const { parseHTML } = await loadParsers()
  return domToMarkdown(parseHTML(`<!doctype html><html><body>${html}</body></html>`).document.body, false)
}
