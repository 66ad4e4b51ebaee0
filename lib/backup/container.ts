// The backup file (lib/backup/README.md, "The file"): gzip'd JSON lines. Line 1 is the manifest, then one
// entry per line (a data-folder file, a slice of a store's records, a store's count and meta, the
// configuration, the sealed secrets), then an end line with the number of entries and the SHA-256 of every
// line before it. `zcat backup.jsonl.gz | head -1` shows what a file holds.
import { createHash } from 'node:crypto'
import { once } from 'node:events'
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs'
import { rm } from 'node:fs/promises'
import { createInterface } from 'node:readline'
import { Readable, Transform, type TransformCallback } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGunzip, createGzip } from 'node:zlib'
import { z } from 'zod'
import { AppError } from '../core/errors.js'
import { PARTS } from './parts.js'

export const FORMAT = 'lingxi-backup'
export const FORMAT_VERSION = 1

const part = z.enum(PARTS)
const count = z.object({ files: z.number().int().min(0), records: z.number().int().min(0), bytes: z.number().int().min(0) })

const manifestSchema = z.strictObject({
  format: z.literal(FORMAT),
  version: z.literal(FORMAT_VERSION),
  pluginVersion: z.string().max(64),
  createdAt: z.string().max(40),
  /** where the ported stores were read from: the data folder's files or PostgreSQL (the content is the same) */
  engine: z.enum(['files', 'postgres']),
  /** true: the secrets entry is there, sealed with a passphrase */
  secrets: z.boolean(),
  /** why it was made: by the owner, on the schedule, before a restore */
  kind: z.enum(['manual', 'auto', 'pre-restore']),
  entries: z.number().int().min(0),
  parts: z.partialRecord(part, count)
})
export type Manifest = z.infer<typeof manifestSchema>

const sealed = z.strictObject({ kdf: z.literal('scrypt'), N: z.number().int().min(2), r: z.number().int().min(1), p: z.number().int().min(1), salt: z.string().max(64), nonce: z.string().max(64), tag: z.string().max(64), data: z.string() })
const record = z.record(z.string(), z.unknown())

const entrySchema = z.discriminatedUnion('t', [
  z.strictObject({ t: z.literal('file'), part, path: z.string().min(1).max(1024), size: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/), data: z.string() }),
  z.strictObject({ t: z.literal('records'), part, store: z.string().max(200), records: z.array(record) }),
  z.strictObject({ t: z.literal('store'), part, store: z.string().max(200), count: z.number().int().min(0), meta: record }),
  z.strictObject({ t: z.literal('config'), part: z.literal('config'), yaml: z.string() }),
  z.strictObject({ t: z.literal('secrets'), part: z.literal('config'), sealed })
])
export type Entry = z.infer<typeof entrySchema>
const endSchema = z.strictObject({ t: z.literal('end'), entries: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) })

/** A broken, tampered or foreign file: said in one sentence, nothing applied. */
export const invalidBackup = (why: string): AppError => new AppError('INVALID_ARGS', `Not a valid backup file: ${why}`)

/**
 * Writes a backup file: the entries go to a plain side file first (`<file>.body`), so the manifest at the
 * top can say how many there are; `finish` then writes the gzip'd file (manifest, entries, end line with the
 * hash of every line) and removes the side file.
 */
export class BackupWriter {
  private readonly body: WriteStream
  private readonly opened: Promise<void>
  private entries = 0

  constructor (private readonly file: string) {
    this.body = createWriteStream(`${file}.body`, { mode: 0o600 })
    this.opened = once(this.body, 'open').then(() => undefined)
    this.opened.catch(() => undefined)
  }

  async entry (e: Entry): Promise<void> {
    this.entries++
    if (!this.body.write(JSON.stringify(e) + '\n')) await once(this.body, 'drain')
  }

  async finish (m: Omit<Manifest, 'entries'>): Promise<Manifest> {
    await this.opened
    await new Promise<void>((resolve, reject) => this.body.end((err?: Error | null) => err ? reject(err) : resolve()))
    const manifest: Manifest = { ...m, entries: this.entries }
    const hash = createHash('sha256')
    const head = JSON.stringify(manifest) + '\n'
    hash.update(head)
    const entries = this.entries
    async function * lines (bodyFile: string): AsyncGenerator<Buffer> {
      yield Buffer.from(head)
      for await (const chunk of createReadStream(bodyFile)) { hash.update(chunk as Buffer); yield chunk as Buffer }
      yield Buffer.from(JSON.stringify({ t: 'end', entries, sha256: hash.digest('hex') }) + '\n')
    }
    try {
      await pipeline(Readable.from(lines(`${this.file}.body`), { objectMode: false }), createGzip(), createWriteStream(this.file, { mode: 0o600 }))
    } finally { await rm(`${this.file}.body`, { force: true }) }
    return manifest
  }

  /** Stops after a failure: the side file and any partial file are removed. */
  async abort (): Promise<void> {
    this.body.destroy()
    await rm(`${this.file}.body`, { force: true })
    await rm(this.file, { force: true })
  }
}

/** Counts the unpacked bytes and stops past the bound (a small file that unpacks to gigabytes). */
class Bound extends Transform {
  private seen = 0
  constructor (private readonly max: number) { super() }
  override _transform (chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.seen += chunk.length
    if (this.seen > this.max) { cb(invalidBackup(`it unpacks to more than ${this.max} bytes`)); return }
    cb(null, chunk)
  }
}

/**
 * Reads a backup file: the manifest, then each entry handed to `onEntry` (in file order), then checks the
 * end line (entry count, hash of every line). A file that is not gzip, a line that is not JSON or does not
 * match its schema, a missing or wrong end line fail with `invalidBackup`. `onEntry` validates what it
 * gets (paths, sizes, hashes); it is called before the end line is checked, so a caller that applies
 * anything reads the file twice (check first, then apply).
 */
export async function readBackup (file: string, maxUnpacked: number, onEntry: (e: Entry, m: Manifest) => Promise<void> | void): Promise<Manifest> {
  const hash = createHash('sha256')
  const bound = new Bound(maxUnpacked)
  const raw = createReadStream(file)
  const gunzip = createGunzip()
  const source = raw.pipe(gunzip).pipe(bound)
  const failed = new Promise<never>((_, reject) => {
    const fail = (err: Error): void => {
      reject(err instanceof AppError ? err : invalidBackup(`it could not be unpacked (${err.message.slice(0, 120)})`))
      raw.destroy()
      gunzip.destroy()
      bound.destroy()
    }
    raw.on('error', fail)
    gunzip.on('error', fail)
    bound.on('error', fail)
  })
  failed.catch(() => undefined)
  const lines = createInterface({ input: source, crlfDelay: Infinity })
  let manifest: Manifest | undefined
  let entries = 0
  let end: z.infer<typeof endSchema> | undefined
  const read = (async () => {
    for await (const text of lines) {
      if (end) throw invalidBackup('there is content after its end line')
      let value: unknown
      try { value = JSON.parse(text) } catch { throw invalidBackup(`line ${entries + 2} is not JSON`) }
      if (!manifest) {
        const m = manifestSchema.safeParse(value)
        if (!m.success) {
          const v = value as { format?: unknown; version?: unknown } | null
          if (v?.format === FORMAT && v.version !== FORMAT_VERSION) throw invalidBackup(`it is of format version ${String(v.version)}; this plugin reads version ${FORMAT_VERSION}`)
          throw invalidBackup('its first line is not a lingxi backup manifest')
        }
        manifest = m.data
        hash.update(text + '\n')
        continue
      }
      if ((value as { t?: unknown } | null)?.t === 'end') {
        const e = endSchema.safeParse(value)
        if (!e.success) throw invalidBackup('its end line is malformed')
        end = e.data
        continue
      }
      const e = entrySchema.safeParse(value)
      if (!e.success) throw invalidBackup(`entry ${entries + 1} is malformed (${e.error.issues[0]?.path.join('.') ?? ''} ${e.error.issues[0]?.message ?? ''})`)
      hash.update(text + '\n')
      entries++
      await onEntry(e.data, manifest)
    }
  })()
  read.catch(() => undefined) // a failure of the stream ends the loop too: reported once, by `failed`
  await Promise.race([read, failed])
  if (!manifest) throw invalidBackup('it is empty')
  if (!end) throw invalidBackup('it is cut short (no end line)')
  if (end.entries !== entries || manifest.entries !== entries) throw invalidBackup(`it holds ${entries} entries, its manifest says ${manifest.entries}`)
  if (end.sha256 !== hash.digest('hex')) throw invalidBackup('its content does not match its checksum (changed after it was made)')
  return manifest
}
