// A decision that is a pure function of the request path, remembered per path (the gate's path rule in
// auth.ts, the routers a path can reach in mount-routers.ts). Bounded against invented paths: only paths
// up to 256 characters are kept, at most 2,000 of them (the memory starts again when full).
const MAX_PATH = 256
const MAX_PATHS = 2000

export function memoByPath<T extends NonNullable<unknown>> (decide: (path: string) => T): (path: string) => T {
  const seen = new Map<string, T>()
  return (path) => {
    const known = seen.get(path)
    if (known !== undefined) return known
    const value = decide(path)
    if (path.length <= MAX_PATH) {
      if (seen.size >= MAX_PATHS) seen.clear()
      seen.set(path, value)
    }
    return value
  }
}
