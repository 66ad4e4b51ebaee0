// A set of record ids sized for what it holds: a plain array while small (most users hold a few dozen
// memories; a Set costs about twice as much an entry), a Set once it grows past SMALL. Iterates in
// insertion order, as a Set does.

const SMALL = 64

export class IdSet implements Iterable<number> {
  private ids: number[] | Set<number> = []

  get size (): number { return Array.isArray(this.ids) ? this.ids.length : this.ids.size }

  has (id: number): boolean { return Array.isArray(this.ids) ? this.ids.includes(id) : this.ids.has(id) }

  add (id: number): this {
    if (!Array.isArray(this.ids)) this.ids.add(id)
    else if (!this.ids.includes(id)) {
      if (this.ids.length < SMALL) this.ids.push(id)
      else this.ids = new Set([...this.ids, id])
    }
    return this
  }

  /** False when the id was not in the set. */
  delete (id: number): boolean {
    if (!Array.isArray(this.ids)) return this.ids.delete(id)
    const i = this.ids.indexOf(id)
    if (i === -1) return false
    this.ids.splice(i, 1)
    return true
  }

  [Symbol.iterator] (): Iterator<number> { return this.ids[Symbol.iterator]() }
}
