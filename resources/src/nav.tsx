// The shell's menu: the side navigation (the current page marked with aria-current and a bar) and, on a
// phone, the menu button that opens it as a drawer; the drawer closes on Esc and on a tap outside it, giving
// the focus back to the menu button, and after choosing a page, which moves the focus to the page (#main).
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks'
import { t } from './i18n'
import { signal, useSignal } from './state'

const menuOpen = signal(false)
let menuButton: HTMLButtonElement | null = null

function closeMenu (refocus: boolean): void {
  if (!menuOpen.get()) return
  menuOpen.set(false)
  if (refocus) menuButton?.focus()
}

export function MenuButton () {
  const open = useSignal(menuOpen)
  const ref = useRef<HTMLButtonElement>(null)
  useEffect(() => { menuButton = ref.current; return () => { menuButton = null } }, [])
  return <button ref={ref} class="menu" type="button" data-testid="menu-button" aria-label={t(open ? 'nav.close' : 'nav.open')}
    aria-expanded={open} aria-controls="side-nav" onClick={() => menuOpen.set(!open)}><span aria-hidden="true">☰</span></button>
}

export interface NavItem { page: string, href: string, label: string }

export function SideNav ({ items, current, onGo }: { items: NavItem[], current: string, onGo: (page: string) => void }) {
  const open = useSignal(menuOpen)
  const ref = useRef<HTMLElement>(null)
  // a layout effect: the listeners are there as soon as the drawer is drawn open (a tap right after must close it)
  useLayoutEffect(() => {
    if (!open) return
    // the drawer opened: focus its current (else first) link, close on Esc or a tap outside
    const nav = ref.current
    ;(nav?.querySelector<HTMLElement>('a[aria-current="page"]') ?? nav?.querySelector<HTMLElement>('a'))?.focus()
    const onKey = (e: KeyboardEvent): void => { if (e.key === 'Escape') { e.preventDefault(); closeMenu(true) } }
    const onDown = (e: PointerEvent): void => {
      const target = e.target as Node
      if (nav?.contains(target) || menuButton?.contains(target)) return
      closeMenu(true)
    }
    document.addEventListener('keydown', onKey)
    document.addEventListener('pointerdown', onDown)
    return () => { document.removeEventListener('keydown', onKey); document.removeEventListener('pointerdown', onDown) }
  }, [open])
  return <nav ref={ref} id="side-nav" class={open ? 'side open' : 'side'} aria-label={t('nav.label')} data-testid="side-nav">
    {items.map(p => <a key={p.page} href={p.href} data-page={p.page} class={p.page === current ? 'active' : ''}
      aria-current={p.page === current ? 'page' : undefined}
      onClick={e => {
        e.preventDefault(); closeMenu(false); onGo(p.page)
        // a keyboard or screen-reader user goes on in the page chosen, from its title, not in the menu
        document.getElementById('main')?.focus({ preventScroll: true })
      }}>{p.label}</a>)}
  </nav>
}
