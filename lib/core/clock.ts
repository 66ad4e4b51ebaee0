// Injectable time source. Tests replace it with sinon fake timers (which patch Date and timers).
export interface Clock {
  now(): number
  setTimeout(fn: () => void, ms: number): NodeJS.Timeout
  clearTimeout(t: NodeJS.Timeout): void
  setInterval(fn: () => void, ms: number): NodeJS.Timeout
  clearInterval(t: NodeJS.Timeout): void
}

// Looked up on each call so sinon.useFakeTimers() installed later still takes effect.
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (t) => clearTimeout(t),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (t) => clearInterval(t)
}
