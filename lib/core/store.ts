// One lowdb JSON file per domain (DECISIONS part 5). Writes are atomic (steno: temp file + rename) and
// concurrent writes on one instance coalesce into few file writes. A corrupt file at start is moved
// aside as <name>.corrupt-<time>.json and the store starts from defaults: never a crash loop, never
// a silent overwrite.
import { existsSync } from 'node:fs'
import { rename } from 'node:fs/promises'
import { basename, dirname, extname, join } from 'node:path'
import { Low } from 'lowdb'
import { DataFile } from 'lowdb/node'
import type { PluginLogger } from './logger.js'

export interface StoreOptions {
  log?: PluginLogger
  /** Pretty-print (small, human-edited files); large stores stay compact for speed. */
  pretty?: boolean
  now?: () => number
}

function dataFile<T> (file: string, opts: StoreOptions): DataFile<T> {
  return new DataFile<T>(file, {
    parse: (s) => JSON.parse(s) as T,
    stringify: (d) => opts.pretty ? JSON.stringify(d, null, 2) : JSON.stringify(d)
  })
}

export class Store<T extends object> {
  private constructor (private readonly db: Low<T>, readonly file: string) {}

  static async open<T extends object>(file: string, defaults: T, opts: StoreOptions = {}): Promise<Store<T>> {
    const db = new Low<T>(dataFile<T>(file, opts), structuredClone(defaults))
    try {
      await db.read()
      if (db.data === null || typeof db.data !== 'object') db.data = structuredClone(defaults)
      else db.data = { ...structuredClone(defaults), ...db.data }
    } catch (err) {
      const aside = join(dirname(file), `${basename(file, extname(file))}.corrupt-${(opts.now ?? Date.now)()}.json`)
      if (existsSync(file)) await rename(file, aside)
      opts.log?.error(`Data file ${basename(file)} was unreadable; moved aside to ${basename(aside)} and started from defaults`, { file: basename(file) }, err)
      db.data = structuredClone(defaults)
      await db.write()
    }
    return new Store(db, file)
  }

  /** A store for a file that does not exist yet, starting from `data` (no read; written on write()). */
  static create<T extends object>(file: string, data: T, opts: StoreOptions = {}): Store<T> {
    return new Store(new Low<T>(dataFile<T>(file, opts), data), file)
  }

  /** The live data. Mutate only inside update(). */
  get data (): T { return this.db.data }

  /** Applies a change and resolves once it is on disk. */
  async update<R>(fn: (data: T) => R): Promise<R> {
    const result = fn(this.db.data)
    await this.db.write()
    return result
  }

  /** Writes the current data (after an in-place change made elsewhere). */
  async write (): Promise<void> { await this.db.write() }
}
