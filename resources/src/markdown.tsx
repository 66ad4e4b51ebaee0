// Markdown of the bot's answers, rendered safely (the chat page and the conversation viewer; README "The
// dashboard", markdown-it). markdown-it parses with raw HTML off; its tokens become Preact elements here
// (never an HTML string, never innerHTML), from a fixed list of tags, so an answer cannot add an element,
// an attribute or a handler of its own. Links are http(s) and mailto only and open in a new tab without
// the opener; images are shown as links (the dashboard loads nothing from other hosts: its CSP allows
// images from itself only); code blocks get a copy button and no highlighting.
import MarkdownIt from 'markdown-it'
import type { Token } from 'markdown-it'
import type { ComponentChildren, VNode } from 'preact'
import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import { lang, t } from './i18n'
import { useSignal } from './state'
import './markdown.css'

const SAFE_URL = /^(?:https?:|mailto:)/i

// breaks: a single line break of an answer stays a line break, as QQ shows it
const md = new MarkdownIt({ html: false, linkify: true, breaks: true })
// links (and images, autolinks, linkified text) to anything else stay text: `[x](javascript:…)` is inert
md.validateLink = (url: string): boolean => SAFE_URL.test(url.trim())

/** Copies `text`: the Clipboard API where the page may use it (https or localhost), else a selected textarea. */
async function copyText (text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) { await navigator.clipboard.writeText(text); return true }
  } catch { /* refused: try the old way */ }
  const area = document.createElement('textarea')
  area.value = text
  area.setAttribute('readonly', '')
  area.className = 'md-copy-buffer'
  document.body.appendChild(area)
  area.select()
  try { return document.execCommand('copy') } catch { return false } finally { area.remove() }
}

function CodeBlock ({ code, language }: { code: string, language: string }) {
  const [state, setState] = useState<'idle' | 'done' | 'failed'>('idle')
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])
  const copy = async (): Promise<void> => {
    setState(await copyText(code) ? 'done' : 'failed')
    clearTimeout(timer.current)
    timer.current = setTimeout(() => setState('idle'), 2000)
  }
  return <div class="md-code">
    <div class="md-code-bar">
      <span class="muted">{language}</span>
      <button type="button" class="link" data-testid="md-copy" onClick={() => { void copy() }} aria-live="polite">
        {state === 'done' ? t('md.copied') : state === 'failed' ? t('md.copyFailed') : t('md.copy')}</button>
    </div>
    <pre><code class={language ? `language-${language}` : undefined}>{code}</code></pre>
  </div>
}

/** The tags an answer may produce (markdown-it's own, under the page's title and card headings). */
const BLOCK_TAGS = new Set(['p', 'ul', 'ol', 'li', 'blockquote', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'strong', 'em', 's'])
// the page has its one <h1> and the cards their <h2>: an answer's headings start at <h3>
const HEADINGS = new Map([['h1', 'h3'], ['h2', 'h4'], ['h3', 'h5'], ['h4', 'h6'], ['h5', 'h6'], ['h6', 'h6']])

const attr = (tk: Token, name: string): string => String(tk.attrGet(name) ?? '')
const linkProps = (href: string) => ({ href, target: '_blank', rel: 'noopener noreferrer' })

function element (open: Token, children: ComponentChildren[]): ComponentChildren {
  // the paragraphs of a tight list's items are not shown as paragraphs
  if (open.hidden) return children
  if (open.type === 'link_open') {
    const href = attr(open, 'href')
    return SAFE_URL.test(href) ? <a {...linkProps(href)} title={attr(open, 'title') || undefined}>{children}</a> : children
  }
  if (open.type === 'table_open') return <div class="md-table"><table>{children}</table></div>
  if (open.tag === 'th' || open.tag === 'td') {
    const align = /text-align:\s*(left|right|center)/.exec(attr(open, 'style'))?.[1]
    const Cell = open.tag
    return <Cell class={align ? `md-${align}` : undefined}>{children}</Cell>
  }
  if (open.tag === 'ol') {
    const start = Number(attr(open, 'start') || 1)
    return <ol start={Number.isFinite(start) ? start : undefined}>{children}</ol>
  }
  const heading = HEADINGS.get(open.tag)
  if (heading) { const H = heading as 'h3'; return <H class="md-h">{children}</H> }
  if (BLOCK_TAGS.has(open.tag)) { const Tag = open.tag as 'p'; return <Tag>{children}</Tag> }
  return children
}

function leaf (tk: Token): ComponentChildren {
  switch (tk.type) {
    case 'text': return tk.content
    case 'inline': return build(tk.children ?? [])
    case 'softbreak': case 'hardbreak': return <br />
    case 'code_inline': return <code>{tk.content}</code>
    case 'fence': case 'code_block': return <CodeBlock code={tk.content.replace(/\n$/, '')} language={(/^[\w+#.-]{1,30}/.exec(tk.info.trim())?.[0]) ?? ''} />
    case 'hr': return <hr />
    case 'image': {
      // shown as a link to the picture: nothing is loaded from the answer's hosts
      const src = attr(tk, 'src')
      const label = `${t('md.image')}${tk.content ? `: ${tk.content}` : ''}`
      return SAFE_URL.test(src) ? <a {...linkProps(src)} class="md-image" data-testid="md-image">{label}</a> : label
    }
    // raw HTML is off, so markdown-it makes none; anything else is shown as its text
    default: return tk.content
  }
}

/** markdown-it's flat token list (open … close) as a tree of elements. */
function build (tokens: Token[]): ComponentChildren[] {
  const root: ComponentChildren[] = []
  const stack: Array<{ open: Token, children: ComponentChildren[] }> = []
  const out = (): ComponentChildren[] => stack[stack.length - 1]?.children ?? root
  for (const tk of tokens) {
    if (tk.nesting === 1) stack.push({ open: tk, children: [] })
    else if (tk.nesting === -1) { const o = stack.pop(); if (o) out().push(element(o.open, o.children)) }
    else out().push(leaf(tk))
  }
  // an unbalanced list (never from markdown-it) still shows its text
  while (stack.length) { const o = stack.pop(); if (o) out().push(element(o.open, o.children)) }
  return root
}

/** `text` as markdown, safely; re-rendering with a longer text (a streamed answer) keeps the nodes already shown. */
export function Markdown ({ text, testid }: { text: string, testid?: string }): VNode {
  const language = useSignal(lang)
  const nodes = useMemo(() => build(md.parse(text, {})), [text, language])
  return <div class="md" data-testid={testid}>{nodes}</div>
}
