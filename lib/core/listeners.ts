// Listeners of one kind of change: `add` returns the function that removes the listener; `emit` calls
// each listener of the moment, and one that throws neither stops the others nor the change it hears of.
export class Listeners<A extends unknown[] = []> {
  private readonly fns = new Set<(...args: A) => void>()

  add (fn: (...args: A) => void): () => void {
    this.fns.add(fn)
    return () => { this.fns.delete(fn) }
  }

  emit (...args: A): void {
    for (const fn of [...this.fns]) { try { fn(...args) } catch { /* a listener never breaks the change */ } }
  }
}
