// A tiny observable value plus a hook that re-renders a component when it changes.
import { useEffect, useState } from 'preact/hooks'

export interface Signal<T> { get(): T, set(v: T): void, sub(fn: () => void): () => void }
export function signal<T> (initial: T): Signal<T> {
  let value = initial
  const subs = new Set<() => void>()
  return {
    get: () => value,
    set (v) { value = v; subs.forEach(f => f()) },
    sub (fn) { subs.add(fn); return () => subs.delete(fn) }
  }
}
export function useSignal<T> (s: Signal<T>): T {
  const [, force] = useState(0)
  useEffect(() => s.sub(() => force(n => n + 1)), [s])
  return s.get()
}
