// Small helpers over plain JSON objects: deep merge, leaf paths, dotted get/set. Keys come from input
// (group ids, server names): own() and setOwn() so `__proto__` or `constructor` is only ever a key.
import { own, setOwn } from '../core/dict.js'

export type PlainObject = Record<string, unknown>

export function isPlainObject (v: unknown): v is PlainObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/**
 * `over` merged into a copy of `base`; arrays and scalars replace; `null` deletes the key (a null with
 * nothing under it to delete is dropped, not copied: an object put where `base` has none loses its nulls).
 */
export function deepMerge (base: PlainObject, over: PlainObject): PlainObject {
  const out: PlainObject = { ...base }
  for (const [k, v] of Object.entries(over)) {
    const prev = own(out, k)
    if (v === null) delete out[k]
    else if (isPlainObject(v)) setOwn(out, k, deepMerge(isPlainObject(prev) ? prev : {}, v))
    else if (v !== undefined) setOwn(out, k, structuredClone(v))
  }
  return out
}

/** Whether the dotted `path` (a changed leaf, as the bus's `config` event gives them) lies in `section`. */
export function inSection (path: string, section: string): boolean {
  return path === section || path.startsWith(`${section}.`)
}

/** Every leaf path of `obj` (arrays are leaves), as key arrays. */
export function leafPaths (obj: PlainObject, prefix: string[] = []): string[][] {
  const out: string[][] = []
  for (const [k, v] of Object.entries(obj)) {
    if (isPlainObject(v) && Object.keys(v).length > 0) out.push(...leafPaths(v, [...prefix, k]))
    else out.push([...prefix, k])
  }
  return out
}

export function getPath (obj: unknown, path: readonly string[]): unknown {
  let cur: unknown = obj
  for (const k of path) {
    if (Array.isArray(cur) && /^\d+$/.test(k)) cur = cur[Number(k)]
    else if (isPlainObject(cur)) cur = own(cur, k)
    else return undefined
  }
  return cur
}

/** A nested object holding `value` at `path`. */
export function objectAt (path: readonly string[], value: unknown): PlainObject {
  const root: PlainObject = {}
  let cur = root
  path.forEach((k, i) => {
    if (i === path.length - 1) setOwn(cur, k, value)
    else { const next: PlainObject = {}; setOwn(cur, k, next); cur = next }
  })
  return root
}

export function sameJson (a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}
