// Per-key serial execution: tasks of one key (a conversation) run one after another in arrival
// order; tasks of different keys run in parallel.
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>()

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve()
    const result = prev.then(task, task)
    // The tail never rejects, so one failed turn does not fail the next one.
    const tail = result.then(() => undefined, () => undefined)
    this.tails.set(key, tail)
    void tail.then(() => { if (this.tails.get(key) === tail) this.tails.delete(key) })
    return result
  }

  /** Keys with a turn running or waiting. */
  busy (key: string): boolean { return this.tails.has(key) }

  get size (): number { return this.tails.size }

  /** Forgets the chains (running tasks finish; new tasks start a fresh chain). */
  reset (): void { this.tails.clear() }
}
