// Paged lists: the list routes answer a page with `limit`/`offset` and give `total` beside `data`
// (docs/api.md, "Paging"); the pages of growing lists (knowledge, conversations, memory) ask for one
// page at a time instead of the whole store.
import { useCallback, useEffect, useState } from 'preact/hooks'
import { api, errText } from './api'
import { lang } from './i18n'
import type { Loaded } from './ui'

export interface Page<T> { items: T[], total: number, offset: number, limit: number }
export type PageLoad<T> = Loaded<Page<T>> & { offset: number, size: number, go: (offset: number) => void }

const PAGE_SIZE = 50

const words = {
  zh: { prev: '上一页', next: '下一页', of: (a: number, b: number, n: number) => `${a}-${b}，共 ${n} 条` },
  en: { prev: 'Previous', next: 'Next', of: (a: number, b: number, n: number) => `${a}-${b} of ${n}` }
}

/** One page of a list route; a page emptied by a deletion moves back to the last page. */
export function usePage<T = any> (path: string | null, size = PAGE_SIZE): PageLoad<T> {
  const [offset, setOffset] = useState(0)
  const [n, setN] = useState(0)
  const [state, setState] = useState<{ data: Page<T> | undefined, error: string | null, loading: boolean }>({ data: undefined, error: null, loading: !!path })
  useEffect(() => {
    if (!path) return
    let live = true
    setState(s => ({ ...s, loading: true }))
    const sep = path.includes('?') ? '&' : '?'
    api<{ data?: unknown, total?: unknown }>(`${path}${sep}limit=${size}&offset=${offset}`, { raw: true }).then(body => {
      if (!live) return
      const items = (Array.isArray(body?.data) ? body.data : []) as T[]
      const total = typeof body?.total === 'number' ? body.total : items.length
      if (items.length === 0 && offset > 0 && offset >= total) { setOffset(Math.max(0, Math.floor((total - 1) / size) * size)); return }
      setState({ data: { items, total, offset, limit: size }, error: null, loading: false })
    }, e => { if (live) setState({ data: undefined, error: errText(e), loading: false }) })
    return () => { live = false }
  }, [path, offset, n, size])
  const reload = useCallback(() => setN(x => x + 1), [])
  const go = useCallback((o: number) => setOffset(Math.max(0, o)), [])
  return { ...state, reload, offset, size, go }
}

/** Previous / next and where the page is in the list. */
export function Pager<T> ({ page, testid }: { page: PageLoad<T>, testid?: string }) {
  const total = page.data?.total ?? 0
  const w = words[lang.get() === 'zh' ? 'zh' : 'en']
  if (total <= page.size && page.offset === 0) return total > 0 ? <p class="muted" data-testid={testid && `${testid}-total`}>{w.of(1, total, total)}</p> : null
  const to = Math.min(total, page.offset + (page.data?.items.length ?? 0))
  return <div class="row pager" data-testid={testid}>
    <button data-testid={testid && `${testid}-prev`} disabled={page.offset === 0} onClick={() => page.go(page.offset - page.size)}>{w.prev}</button>
    <span class="muted" data-testid={testid && `${testid}-total`}>{w.of(Math.min(total, page.offset + 1), to, total)}</span>
    <button data-testid={testid && `${testid}-next`} disabled={page.offset + page.size >= total} onClick={() => page.go(page.offset + page.size)}>{w.next}</button>
  </div>
}
