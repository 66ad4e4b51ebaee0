// App shell: login via #token=, session refresh, navigation, lazily loaded pages.
import { render } from 'preact'
import type { FunctionComponent } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { api, BASE, errText, session, setUnauthorizedHandler } from './api'
import { lang, t, toggleLang } from './i18n'
import { ThemeSwitch } from './theme'
import { signal, useSignal } from './state'
import { ConfirmHost, ErrorBox, Loading, Toasts, clearErrorToasts, setNavigator } from './ui'
import { MenuButton, SideNav } from './nav'
import './style.css'

const pages: Record<string, () => Promise<{ default: FunctionComponent }>> = {
  overview: () => import('./pages/overview'),
  chat: () => import('./pages/chat'),
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
  tasks: () => import('./pages/tasks'),
  governance: () => import('./pages/governance'),
  cost: () => import('./pages/cost'),
  stats: () => import('./pages/stats'),
  contexts: () => import('./pages/contexts'),
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
// an error belongs to the page it happened on
route.sub(clearErrorToasts)
setNavigator(navigate)

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
    // the link's token, on load and when a login link is pasted into a tab already on /login (only the hash changes)
    const consume = (): void => {
      const m = location.hash.match(/token=([^&]+)/)
      if (!m) return
      history.replaceState(null, '', location.pathname)
      setState({ busy: true, error: null })
      api<{ token: string, expiresAt: number }>('/api/auth/login', { json: { token: decodeURIComponent(m[1]) } })
        .then(r => { session.set(r.token, r.expiresAt); scheduleRefresh(); navigate('overview') })
        .catch(e => setState({ busy: false, error: errText(e) }))
    }
    consume()
    window.addEventListener('hashchange', consume)
    return () => window.removeEventListener('hashchange', consume)
  }, [])
  return <main class="login card" id="main">
    <h1>灵犀 Lingxi</h1>
    {state.busy ? <Loading /> : <p data-testid="login-hint">{t('loginHint')}</p>}
    {state.error && <ErrorBox error={state.error} />}
    <div class="row"><button class="link" data-testid="lang" onClick={toggleLang}>{t('language')}</button><ThemeSwitch /></div>
  </main>
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
  const [user, setUser] = useState<string>('')
  useEffect(() => {
    if (r === 'login') return
    if (!session.token()) { navigate('login'); return }
    scheduleRefresh()
    api<{ userId: string }>('/api/auth/verify').then(v => setUser(v.userId), () => {})
  }, [r === 'login'])
  useEffect(() => { document.title = r === 'login' ? '灵犀 Lingxi' : `${t(r)} · ${t('title')}` })
  if (r === 'login') return <><Login /><Toasts /><ConfirmHost /></>
  const logout = async (): Promise<void> => {
    try { await api('/api/auth/logout', { method: 'POST' }) } catch { /* already gone */ }
    session.clear(); clearTimeout(refreshTimer); navigate('login')
  }
  return <div class="shell">
    <a class="skip" href="#main" data-testid="skip-link" onClick={e => { e.preventDefault(); document.getElementById('main')?.focus() }}>{t('skip')}</a>
    <header class="top">
      <MenuButton />
      <strong>{t('title')}</strong>
      <span class="grow" />
      <span class="muted">{user}</span>
      <ThemeSwitch />
      <button class="link" data-testid="lang" onClick={toggleLang}>{t('language')}</button>
      <button class="link" data-testid="logout" onClick={logout}>{t('logout')}</button>
    </header>
    <SideNav items={Object.keys(pages).map(p => ({ page: p, href: `${BASE}/${pathOf(p)}`, label: t(p) }))} current={r} onGo={navigate} />
    <main id="main" tabIndex={-1}><h1 class="page-title" data-testid="page-title">{t(pages[r] ? r : 'overview')}</h1><PageHost name={r} /></main>
    <Toasts />
    <ConfirmHost />
  </div>
}

render(<App />, document.getElementById('app')!)
