// Fixed-capacity FIFO that overwrites the oldest item: bounded memory for logs kept in RAM.
export class RingBuffer<T> {
  private readonly items: Array<T | undefined>
  private start = 0
  private count = 0

  constructor (readonly capacity: number) {
    this.items = new Array<T | undefined>(capacity)
  }

  push (item: T): void {
    const idx = (this.start + this.count) % this.capacity
    this.items[idx] = item
    if (this.count < this.capacity) this.count++
    else this.start = (this.start + 1) % this.capacity
  }

  /** Oldest first. */
  toArray (): T[] {
    const out: T[] = []
    for (let i = 0; i < this.count; i++) out.push(this.items[(this.start + i) % this.capacity] as T)
    return out
  }

  get size (): number { return this.count }

  clear (): void { this.start = 0; this.count = 0; this.items.fill(undefined) }
}
