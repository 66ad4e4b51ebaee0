// Shared building blocks: data loading with loading/empty/error states, async buttons, toasts, tables.
import type { ComponentChildren } from 'preact'
import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import { api, errText } from './api'
import { t } from './i18n'
import { signal, useSignal } from './state'

const toasts = signal<Array<{ id: number, text: string, error: boolean }>>([])
let toastId = 0
export function toast (text: string, error = false): void {
  const id = ++toastId
  toasts.set([...toasts.get(), { id, text, error }])
  setTimeout(() => toasts.set(toasts.get().filter(x => x.id !== id)), error ? 8000 : 3000)
}
/** Drops the error toasts (the shell calls it on navigation: an error belongs to the page it happened on). */
export function clearErrorToasts (): void {
  const list = toasts.get()
  if (list.some(x => x.error)) toasts.set(list.filter(x => !x.error))
}
export function Toasts () {
  const list = useSignal(toasts)
  return <div class="toasts">{list.map(x => <div key={x.id} data-toast={x.id} class={x.error ? 'toast err' : 'toast'} role={x.error ? 'alert' : 'status'}>{x.text}</div>)}</div>
}

export interface Loaded<T> { data: T | undefined, error: string | null, loading: boolean, reload: () => void }
export function useLoad<T> (path: string | null): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined, error: string | null, loading: boolean }>({ data: undefined, error: null, loading: !!path })
  const [n, setN] = useState(0)
  useEffect(() => {
    if (!path) return
    let live = true
    setState(s => ({ ...s, loading: true }))
    api<T>(path).then(data => { if (live) setState({ data, error: null, loading: false }) },
      e => { if (live) setState({ data: undefined, error: errText(e), loading: false }) })
    return () => { live = false }
  }, [path, n])
  const reload = useCallback(() => setN(x => x + 1), [])
  return { ...state, reload }
}

export function Loading () { return <div class="muted loading">{t('loading')}</div> }
function Empty () { return <div class="muted empty">{t('empty')}</div> }
// Pages open other pages through the shell's navigate(), registered here (pages never import main.tsx).
let goPage: (page: string) => void = () => {}
export function setNavigator (fn: (page: string) => void): void { goPage = fn }
/** A button that opens another page of the dashboard (e.g. an empty state's "add a channel"). */
export function PageButton ({ page, children, testid, kind = 'primary' }: { page: string, children: ComponentChildren, testid?: string, kind?: string }) {
  return <button type="button" class={kind} data-testid={testid} onClick={() => goPage(page)}>{children}</button>
}
/** An empty list that says what to do, with the button that does it. */
export function EmptyState ({ text, action }: { text: string, action?: ComponentChildren }) {
  return <div class="empty-state" data-testid="empty-state"><p class="muted">{text}</p>{action}</div>
}
export function ErrorBox ({ error }: { error: string }) { return <div class="error" role="alert">{error}</div> }

/** Renders the loading / error / empty states, else the children with the data. */
export function View<T> ({ load, children, isEmpty, empty }: { load: Loaded<T>, children: (d: T) => ComponentChildren, isEmpty?: (d: T) => boolean,
  /** shown instead of "nothing here" (an EmptyState that says what to do) */
  empty?: ComponentChildren }) {
  if (load.loading && load.data === undefined) return <Loading />
  if (load.error) return <ErrorBox error={load.error} />
  if (load.data === undefined) return <Loading />
  if (isEmpty ? isEmpty(load.data) : (Array.isArray(load.data) && load.data.length === 0)) return empty ? <>{empty}</> : <Empty />
  return <>{children(load.data)}</>
}

/** A button that runs an async action, disables itself meanwhile and toasts the server's error message. */
export function Act ({ run, children, kind, done, testid }: { run: () => Promise<unknown>, children: ComponentChildren, kind?: string, done?: string, testid?: string }) {
  const [busy, setBusy] = useState(false)
  // while its action asks first (confirmDanger), the button waits without claiming a request is running
  const asking = useSignal(pendingConfirm) !== null
  return <button class={kind ?? ''} disabled={busy} aria-busy={(busy && !asking) || undefined} data-testid={testid} onClick={async () => {
    setBusy(true)
    try { await run(); if (done) toast(done) } catch (e) { toast(errText(e), true) } finally { setBusy(false) }
  }}>{children}</button>
}

export function Card ({ title, children, extra, testid }: { title?: ComponentChildren, children: ComponentChildren, extra?: ComponentChildren, testid?: string }) {
  return <section class="card" data-testid={testid}>{(title || extra) && <header><h2>{title}</h2><div class="row">{extra}</div></header>}{children}</section>
}

/** A table; on a phone screen each row becomes a card of `label: value` lines (style.css). */
export function Table ({ cols, rows }: { cols: ComponentChildren[], rows: ComponentChildren[][] }) {
  if (!rows.length) return <Empty />
  return <div class="scroll"><table><thead><tr>{cols.map((c, i) => <th key={i}>{c}</th>)}</tr></thead>
    <tbody>{rows.map((r, i) => <tr key={i}>{r.map((c, j) => <td key={j} data-label={typeof cols[j] === 'string' && cols[j] ? cols[j] : undefined}>{c}</td>)}</tr>)}</tbody></table></div>
}

export const fmt = (v: unknown): string => JSON.stringify(v, null, 2)

/** A status word from the API in the page language (unknown words as they are). */
export function word (v: unknown): string {
  const k = `st_${String(v)}`
  const w = t(k)
  return w === k ? String(v ?? '-') : w
}

interface PendingConfirm { text: string, resolve: (ok: boolean) => void, opener: Element | null }
const pendingConfirm = signal<PendingConfirm | null>(null)

/**
 * Asks before a destructive action; `text` names the item ("Delete the preset “abc”?"). Resolves true only
 * when the owner presses the dialog's delete button; Esc, Cancel or a click outside resolve false. The
 * dialog is rendered once by the shell (<ConfirmHost/> in main.tsx).
 */
export function confirmDanger (text: string): Promise<boolean> {
  return new Promise(resolve => {
    pendingConfirm.get()?.resolve(false)
    pendingConfirm.set({ text, resolve, opener: document.activeElement })
  })
}

/** The modal behind confirmDanger(): a native <dialog> (the page behind is inert), focus kept inside, Esc cancels. */
export function ConfirmHost () {
  const p = useSignal(pendingConfirm)
  const ref = useRef<HTMLDialogElement>(null)
  const cancelRef = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    const d = ref.current
    if (!p || !d) return
    if (!d.open) d.showModal()
    cancelRef.current?.focus()
  }, [p])
  if (!p) return null
  const close = (ok: boolean): void => {
    ref.current?.close()
    pendingConfirm.set(null)
    p.resolve(ok)
    // back to the button that asked, once its action has finished (an Act is disabled meanwhile); if the
    // item is gone with it, to the page's content
    const opener = p.opener
    setTimeout(() => requestAnimationFrame(() => {
      if (opener instanceof HTMLElement && opener.isConnected && !(opener as HTMLButtonElement).disabled) opener.focus()
      else if (ok) document.getElementById('main')?.focus()
    }), 0)
  }
  const onKey = (e: KeyboardEvent): void => {
    if (e.key !== 'Tab') return
    const items = Array.from(ref.current?.querySelectorAll<HTMLElement>('button') ?? [])
    if (!items.length) return
    const i = items.indexOf(document.activeElement as HTMLElement)
    const next = e.shiftKey ? (i <= 0 ? items.length - 1 : i - 1) : (i + 1) % items.length
    e.preventDefault(); items[next].focus()
  }
  return <dialog ref={ref} class="confirm" role="dialog" aria-modal="true" aria-labelledby="confirm-title" aria-describedby="confirm-text" data-testid="confirm-dialog"
    onCancel={e => { e.preventDefault(); close(false) }} onKeyDown={onKey}
    onClick={e => { if (e.target === ref.current) close(false) }}>
    <div class="confirm-body">
      <h2 id="confirm-title">{t('cf.title')}</h2>
      <p id="confirm-text" data-testid="confirm-text">{p.text}</p>
      <div class="row end">
        <button ref={cancelRef} data-testid="confirm-cancel" onClick={() => close(false)}>{t('cf.cancel')}</button>
        <button class="danger-fill" data-testid="confirm-ok" onClick={() => close(true)}>{t('cf.ok')}</button>
      </div>
    </div>
  </dialog>
}
