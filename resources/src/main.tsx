// App shell: login via #token=, session refresh, navigation, lazily loaded pages.
import { render } from 'preact'
import type { FunctionComponent } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { api, BASE, errText, session, setUnauthorizedHandler } from './api'
import { lang, t, toggleLang } from './i18n'
import { signal, useSignal } from './state'
import { ConfirmHost, ErrorBox, Loading, Toasts } from './ui'
import './style.css'

const pages: Record<string, () => Promise<{ default: FunctionComponent }>> = {
  overview: () => import('./pages/overview'),
  channels: () => import('./pages/channels'),
  config: () => import('./pages/config'),
  chatSettings: () => import('./pages/chat-settings'),
  voice: () => import('./pages/voice'),
  webTools: () => import('./pages/web-tools'),
  presets: () => import('./pages/presets'),
  tools: () => import('./pages/tools'),
  mcp: () => import('./pages/mcp'),
  memory: () => import('./pages/memory'),
  conversations: () => import('./pages/conversations'),
  knowledge: () => import('./pages/knowledge'),
  drawing: () => import('./pages/drawing'),
  game: () => import('./pages/game'),
  reminders: () => import('./pages/reminders'),
  governance: () => import('./pages/governance'),
  cost: () => import('./pages/cost'),
  logs: () => import('./pages/logs')
}

// A page's URL is its name, except where that path belongs to the server: /mcp is the plugin's own MCP
// endpoint, so a reload of the MCP page there would get the endpoint's JSON-RPC answer.
const PAGE_PATHS: Record<string, string> = { mcp: 'mcp-servers', chatSettings: 'chat-settings', webTools: 'web-tools' }
const pathOf = (page: string): string => PAGE_PATHS[page] ?? page
const pageOf = (path: string): string => Object.keys(PAGE_PATHS).find(p => PAGE_PATHS[p] === path) ?? path

const currentRoute = (): string => pageOf(location.pathname.slice(BASE.length).replace(/^\/+|\/+$/g, '')) || 'overview'
export const route = signal(currentRoute())
export function navigate (to: string): void {
  history.pushState(null, '', `${BASE}/${pathOf(to)}`)
  route.set(to)
}
window.addEventListener('popstate', () => route.set(currentRoute()))

let refreshTimer: ReturnType<typeof setTimeout> | undefined
function scheduleRefresh (): void {
  clearTimeout(refreshTimer)
  const exp = session.expiresAt()
  if (!exp) return
  // Refresh five minutes before expiry (or halfway for short sessions).
  const wait = Math.max(5000, Math.min(exp - Date.now() - 5 * 60_000, (exp - Date.now()) / 2))
  refreshTimer = setTimeout(() => {
    api<{ token: string, expiresAt: number }>('/api/auth/refresh', { method: 'POST' })
      .then(r => { session.set(r.token, r.expiresAt); scheduleRefresh() })
      .catch(() => { /* a 401 sends the user to login */ })
  }, Math.min(wait, 2 ** 31 - 1))
}

setUnauthorizedHandler(() => { clearTimeout(refreshTimer); if (route.get() !== 'login') navigate('login') })

function Login () {
  const [state, setState] = useState<{ busy: boolean, error: string | null }>({ busy: false, error: null })
  useEffect(() => {
    const m = location.hash.match(/token=([^&]+)/)
    if (!m) return
    history.replaceState(null, '', location.pathname)
    setState({ busy: true, error: null })
    api<{ token: string, expiresAt: number }>('/api/auth/login', { json: { token: decodeURIComponent(m[1]) } })
      .then(r => { session.set(r.token, r.expiresAt); scheduleRefresh(); navigate('overview') })
      .catch(e => setState({ busy: false, error: errText(e) }))
  }, [])
  return <div class="login card">
    <h1>灵犀 Lingxi</h1>
    {state.busy ? <Loading /> : <p data-testid="login-hint">{t('loginHint')}</p>}
    {state.error && <ErrorBox error={state.error} />}
    <button class="link" onClick={toggleLang}>{t('language')}</button>
  </div>
}

function PageHost ({ name }: { name: string }) {
  const [Comp, setComp] = useState<FunctionComponent | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    setComp(null); setError(null)
    const load = pages[name] ?? pages.overview
    load().then(m => setComp(() => m.default), e => setError(errText(e)))
  }, [name])
  if (error) return <ErrorBox error={error} />
  return Comp ? <Comp /> : <Loading />
}

function App () {
  const r = useSignal(route)
  useSignal(lang)
  const [open, setOpen] = useState(false)
  const [user, setUser] = useState<string>('')
  useEffect(() => {
    if (r === 'login') return
    if (!session.token()) { navigate('login'); return }
    scheduleRefresh()
    api<{ userId: string }>('/api/auth/verify').then(v => setUser(v.userId), () => {})
  }, [r === 'login'])
  if (r === 'login') return <><Login /><Toasts /><ConfirmHost /></>
  const logout = async (): Promise<void> => {
    try { await api('/api/auth/logout', { method: 'POST' }) } catch { /* already gone */ }
    session.clear(); clearTimeout(refreshTimer); navigate('login')
  }
  return <div class="shell">
    <header class="top">
      <button class="menu" aria-label="menu" onClick={() => setOpen(!open)}>☰</button>
      <strong>{t('title')}</strong>
      <span class="grow" />
      <span class="muted">{user}</span>
      <button class="link" data-testid="lang" onClick={toggleLang}>{t('language')}</button>
      <button class="link" data-testid="logout" onClick={logout}>{t('logout')}</button>
    </header>
    <nav class={open ? 'side open' : 'side'}>
      {Object.keys(pages).map(p => <a key={p} href={`${BASE}/${pathOf(p)}`} data-page={p} class={p === r ? 'active' : ''}
        onClick={e => { e.preventDefault(); setOpen(false); navigate(p) }}>{t(p)}</a>)}
    </nav>
    <main><PageHost name={r} /></main>
    <Toasts />
    <ConfirmHost />
  </div>
}

render(<App />, document.getElementById('app')!)
