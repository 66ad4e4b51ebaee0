// The chat list follows the newest message (pages/chat.tsx): the list itself scrolls (`.chat-list`, a
// bounded height), so that element is scrolled, not the page. It follows while the reader is at its bottom
// and stops as soon as the reader scrolls up to read; `away` then offers a button back down, and `unseen`
// says that something arrived meanwhile.
import { useCallback, useRef, useState } from 'preact/hooks'

/** How close to the bottom (px) counts as "at the bottom" when the reader scrolls back down. */
const SLACK = 24

interface Follow {
  /** the list's ref */
  list: { current: HTMLElement | null }
  /** the reader scrolled up: the list does not follow */
  away: boolean
  /** content arrived while away */
  unseen: boolean
  /** the list's scroll handler */
  onScroll: () => void
  /** call after the content changed: scrolls down when following */
  grew: () => void
  /** follow again from the bottom (the button; a sent message, an opened conversation) */
  jump: () => void
}

export function useFollow (): Follow {
  const list = useRef<HTMLElement | null>(null)
  const following = useRef(true)
  const lastTop = useRef(0)
  const [away, setAway] = useState(false)
  const [unseen, setUnseen] = useState(false)

  const toBottom = (): void => {
    const el = list.current
    if (!el) return
    el.scrollTop = el.scrollHeight
    lastTop.current = el.scrollTop
  }
  const onScroll = useCallback((): void => {
    const el = list.current
    if (!el) return
    const dist = el.scrollHeight - el.scrollTop - el.clientHeight
    // up by the reader: growing content never lowers scrollTop, and a shrinking list clamps it at the bottom
    if (el.scrollTop < lastTop.current - 1 && dist > 1) {
      following.current = false
      setAway(true)
    } else if (dist <= SLACK) {
      following.current = true
      setAway(false)
      setUnseen(false)
    }
    lastTop.current = el.scrollTop
  }, [])
  const grew = useCallback((): void => {
    if (following.current) toBottom()
    else setUnseen(true)
  }, [])
  const jump = useCallback((): void => {
    following.current = true
    setAway(false)
    setUnseen(false)
    toBottom()
  }, [])
  return { list, away, unseen, onScroll, grew, jump }
}
