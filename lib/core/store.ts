// One lowdb JSON file per domain (README, Configuration). Writes are atomic (a fresh temp file + rename) and
// concurrent writes on one instance coalesce into few file writes. Files are private (mode 0600) and
// never read through a symlink (lib/core/private-file.ts). A corrupt file at start, or a symlink
// planted in its place, is moved aside as <name>.corrupt-<time>.json (a link is moved, its target is
// never touched) and the store starts from defaults: never a crash loop, never a silent overwrite.
import { rename } from 'node:fs/promises'
import { basename, dirname, extname, join } from 'node:path'
import { type Adapter, Low } from 'lowdb'
import type { PluginLogger } from './logger.js'
import { CoalescingWriter, readPrivateFile, UnsafeFileError } from './private-file.js'

export interface StoreOptions {
  log?: PluginLogger
  /** Pretty-print (small, human-edited files); large stores stay compact for speed. */
  pretty?: boolean
  now?: () => number
}

/** lowdb adapter: private atomic writes, reads that refuse symlinks. */
class PrivateJsonFile<T> implements Adapter<T> {
  private readonly writer: CoalescingWriter
  constructor (private readonly file: string, private readonly pretty: boolean) { this.writer = new CoalescingWriter(file) }

  async read (): Promise<T | null> {
    const buf = await readPrivateFile(this.file)
    return buf === undefined ? null : JSON.parse(buf.toString('utf8')) as T
  }

  write (data: T): Promise<void> {
    return this.writer.write(this.pretty ? JSON.stringify(data, null, 2) : JSON.stringify(data))
  }
}

function dataFile<T> (file: string, opts: StoreOptions): Adapter<T> {
  return new PrivateJsonFile<T>(file, opts.pretty === true)
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
      await rename(file, aside).catch((e: unknown) => { if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e })
      const why = err instanceof UnsafeFileError ? err.message : 'was unreadable'
      opts.log?.error(`Data file ${basename(file)} ${err instanceof UnsafeFileError ? `refused (${why})` : why}; moved aside to ${basename(aside)} and started from defaults`, { file: basename(file) }, err)
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
