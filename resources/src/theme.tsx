// The colour scheme: light, dark or the system's (the default), chosen in the header and kept in
// localStorage. theme-boot.js applies the stored choice before the first paint; style.css reads
// <html data-theme>, and without it follows prefers-color-scheme.
import { t } from './i18n'
import { signal, useSignal } from './state'

type Theme = 'system' | 'light' | 'dark'
const KEY = 'lingxi.theme'
const THEMES: Theme[] = ['system', 'light', 'dark']

function stored (): Theme {
  try {
    const v = localStorage.getItem(KEY)
    return v === 'light' || v === 'dark' ? v : 'system'
  } catch { return 'system' }
}

function apply (v: Theme): void {
  if (v === 'system') document.documentElement.removeAttribute('data-theme')
  else document.documentElement.setAttribute('data-theme', v)
}

const theme = signal<Theme>(stored())
// another tab changed it: follow
window.addEventListener('storage', e => { if (e.key === KEY || e.key === null) { theme.set(stored()); apply(theme.get()) } })

function choose (v: Theme): void {
  try {
    if (v === 'system') localStorage.removeItem(KEY)
    else localStorage.setItem(KEY, v)
  } catch { /* storage blocked: for this page only */ }
  theme.set(v)
  apply(v)
}

/** The header's switch: a labelled select of the three schemes. */
export function ThemeSwitch () {
  const v = useSignal(theme)
  return <select class="theme-switch" data-testid="theme" aria-label={t('th.label')} title={t('th.label')} value={v}
    onChange={e => choose((e.target as HTMLSelectElement).value as Theme)}>
    {THEMES.map(x => <option key={x} value={x}>{t(`th.${x}`)}</option>)}
  </select>
}
