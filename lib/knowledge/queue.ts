// The processing queue (lib/knowledge/README.md, "Files in"): documents read one at a time, in the
// order they came; who waits for a document is told when it is settled (ready, failed or removed).
export class ProcessingQueue {
  private readonly ids: string[] = []
  private working: Promise<void> | undefined
  private readonly waiters = new Map<string, Array<() => void>>()
  private readonly stopping = new AbortController()

  /** `work` processes one document; `failed` records a failure `work` did not expect. */
  constructor (private readonly work: (id: string) => Promise<void>, private readonly failed: (id: string, err: unknown) => Promise<void>) {}

  /** Aborted once the queue is closed (a fetch in progress stops). */
  get signal (): AbortSignal { return this.stopping.signal }

  push (id: string): void {
    this.ids.push(id)
    if (!this.working) this.working = this.drain().finally(() => { this.working = undefined })
  }

  /** Resolves when the document is settled. */
  wait (id: string): Promise<void> {
    return new Promise((resolve) => { this.waiters.set(id, [...(this.waiters.get(id) ?? []), resolve]) })
  }

  settle (id: string): void {
    for (const fn of this.waiters.get(id) ?? []) fn()
    this.waiters.delete(id)
  }

  /** Stops after the document in progress (the others stay `processing`: the next start takes them). */
  async close (): Promise<void> {
    this.stopping.abort()
    this.ids.length = 0
    await this.working?.catch(() => {})
  }

  private async drain (): Promise<void> {
    for (let id = this.ids.shift(); id !== undefined && !this.stopping.signal.aborted; id = this.ids.shift()) {
      try { await this.work(id) } catch (err) { await this.failed(id, err).catch(() => {}) }
      this.settle(id)
    }
  }
}
