// Records keyed by untrusted names (user, group, model, channel, tool ids...). A plain `{}` keyed by
// input is a prototype-pollution hole: `obj['__proto__'] ??= {}` finds Object.prototype and writes
// onto it, and `obj['constructor']` finds Object's constructor. A null-prototype record has neither:
// every key, `__proto__` included, is an ordinary own property, and it still serialises to JSON as a
// record. Use `Map` for in-memory indexes; use these where the record is stored or answered as JSON.

/** A record keyed by untrusted strings. */
export type Dict<T> = Record<string, T>

/** An empty null-prototype record, or one holding `entries`. */
export function dict<T> (entries?: Iterable<readonly [string, T]>): Dict<T> {
  const out = Object.create(null) as Dict<T>
  if (entries) for (const [k, v] of entries) out[k] = v
  return out
}

/**
 * Rebuilds a record read from a file or a request as a null-prototype one (own enumerable keys only;
 * JSON.parse keeps a `"__proto__"` key as an own property, and so does this). Anything that is not
 * an object gives an empty record; `each` converts (or rebuilds) every value.
 */
export function toDict<T> (value: Readonly<Record<string, T>> | null | undefined): Dict<T>
export function toDict<T> (value: unknown, each: (v: unknown) => T): Dict<T>
export function toDict<T> (value: unknown, each: (v: unknown) => T = (v) => v as T): Dict<T> {
  const out = dict<T>()
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return out
  for (const [k, v] of Object.entries(value)) out[k] = each(v)
  return out
}

/** `rec[key]` only when it is the record's own property (never an inherited `constructor`...). */
export function own<T> (rec: Readonly<Record<string, T>> | undefined | null, key: string): T | undefined {
  return rec != null && Object.hasOwn(rec, key) ? rec[key] : undefined
}

/** Sets `rec[key]`, defining an own property even for `__proto__` on an ordinary object. */
export function setOwn<T> (rec: Record<string, T>, key: string, value: NoInfer<T>): void {
  if (key === '__proto__') Object.defineProperty(rec, key, { value, enumerable: true, writable: true, configurable: true })
  else rec[key] = value
}

/**
 * Names that are refused where the master picks a name through the API (channels, presets, custom
 * tools, MCP servers): the members of Object.prototype plus `prototype`. Ids from chat (QQ users and
 * groups, models) are never refused: they are stored in records built by `dict()`.
 */
const RESERVED_NAMES: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype'])

export function isReservedName (name: string): boolean { return RESERVED_NAMES.has(name) }

/** The message for a refused name (one wording everywhere). */
export const reservedNameMessage = (name: string): string => `"${name}" is a reserved name`

/** A zod refinement: `.refine(...notReserved)` refuses the reserved names with a clear message. */
export const notReserved = [
  (name: string): boolean => !isReservedName(name),
  { error: (issue: { input: unknown }) => reservedNameMessage(String(issue.input)) }
] as const

/**
 * The dotted path of the first `__proto__` key anywhere in a parsed JSON or YAML value, if any.
 * Validators (zod records) drop such a key silently, so a write holding one is refused instead.
 */
export function protoKeyPath (value: unknown, path: string[] = [], depth = 0): string | undefined {
  if (value === null || typeof value !== 'object' || depth > 64) return undefined
  for (const [k, v] of Object.entries(value)) {
    if (k === '__proto__') return [...path, k].join('.')
    const found = protoKeyPath(v, [...path, k], depth + 1)
    if (found !== undefined) return found
  }
  return undefined
}
