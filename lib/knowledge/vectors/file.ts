// The vectors on disk (data folder): `knowledge-vectors.bin`, a log of records, one per document
// embedded (its int8 vectors and scales) or removed; read whole at start (the last record of a
// document wins) and rewritten when it holds more dead bytes than live ones, or for another model.
// `knowledge-vectors.json` names the model the vectors come from and the batch size learned.
import { open, readFile, rename, rm, writeFile, type FileHandle } from 'node:fs/promises'
import type { VectorBackend, VectorMeta } from './backend.js'
import type { DocVectors } from './store.js'

const PUT = 1
const DELETE = 2


function encode (kind: number, docId: string, d?: DocVectors): Buffer {
  const id = Buffer.from(docId)
  const preset = Buffer.from(d?.presetId ?? '')
  const fp = Buffer.from(d?.fingerprint ?? '')
  const count = d?.scales.length ?? 0
  const dims = d && count ? d.values.length / count : 0
  const size = 4 + 1 + 2 + id.length + (d ? 2 + preset.length + 2 + fp.length + 8 + count * 4 + d.values.length : 0)
  const b = Buffer.alloc(size)
  let at = b.writeUInt32LE(size, 0)
  at = b.writeUInt8(kind, at)
  at = b.writeUInt16LE(id.length, at); at += id.copy(b, at)
  if (!d) return b
  at = b.writeUInt16LE(preset.length, at); at += preset.copy(b, at)
  at = b.writeUInt16LE(fp.length, at); at += fp.copy(b, at)
  at = b.writeUInt32LE(count, at)
  at = b.writeUInt32LE(dims, at)
  at += Buffer.from(d.scales.buffer, d.scales.byteOffset, d.scales.byteLength).copy(b, at)
  Buffer.from(d.values.buffer, d.values.byteOffset, d.values.byteLength).copy(b, at)
  return b
}

/** The documents' vectors a log holds (a cut-off last record, from a crash mid-write, is ignored) and its dead bytes. */
function decode (buf: Buffer): { docs: Map<string, DocVectors>; dead: number } {
  const docs = new Map<string, DocVectors>()
  const bytes = new Map<string, number>()
  let dead = 0
  let at = 0
  while (at + 7 <= buf.length) {
    const size = buf.readUInt32LE(at)
    if (size < 7 || at + size > buf.length) break
    let p = at + 4
    const kind = buf.readUInt8(p); p += 1
    const idLen = buf.readUInt16LE(p); p += 2
    const docId = buf.toString('utf8', p, p + idLen); p += idLen
    dead += bytes.get(docId) ?? 0
    bytes.delete(docId)
    docs.delete(docId)
    if (kind === PUT) {
      const presetLen = buf.readUInt16LE(p); p += 2
      const presetId = buf.toString('utf8', p, p + presetLen); p += presetLen
      const fpLen = buf.readUInt16LE(p); p += 2
      const fingerprint = buf.toString('utf8', p, p + fpLen); p += fpLen
      const count = buf.readUInt32LE(p); p += 4
      const dims = buf.readUInt32LE(p); p += 4
      const scales = new Float32Array(count)
      Buffer.from(scales.buffer).set(buf.subarray(p, p + count * 4)); p += count * 4
      const values = new Int8Array(count * dims)
      Buffer.from(values.buffer).set(buf.subarray(p, p + count * dims))
      docs.set(docId, { docId, presetId, fingerprint, values, scales })
      bytes.set(docId, size)
    } else dead += size
    at += size
  }
  return { docs, dead }
}

export class VectorFile implements VectorBackend {
  readonly where = 'the data folder (knowledge-vectors.bin)'
  private handle: FileHandle | undefined
  private chain: Promise<void> = Promise.resolve()

  constructor (private readonly file: string, private readonly metaFile: string) {}

  async readMeta (): Promise<VectorMeta | undefined> {
    try { return JSON.parse(await readFile(this.metaFile, 'utf8')) as VectorMeta } catch { return undefined }
  }

  writeMeta (meta: VectorMeta): Promise<void> {
    return this.serial(() => writeFile(this.metaFile, JSON.stringify(meta)))
  }

  /** The documents' vectors held on disk; the log rewritten first if most of it is dead. */
  async load (): Promise<Map<string, DocVectors>> {
    let buf: Buffer
    try { buf = await readFile(this.file) } catch { return new Map() }
    const { docs, dead } = decode(buf)
    if (dead > buf.length / 2) await this.rewrite(docs.values())
    return docs
  }

  put (d: DocVectors): Promise<void> { return this.append(encode(PUT, d.docId, d)) }
  delete (docId: string): Promise<void> { return this.append(encode(DELETE, docId)) }

  /** Replaces the log with exactly these documents' vectors (written aside, then renamed over it). */
  rewrite (docs: Iterable<DocVectors>): Promise<void> {
    return this.serial(async () => {
      await this.closeHandle()
      const tmp = `${this.file}.tmp`
      const h = await open(tmp, 'w')
      try { for (const d of docs) await h.write(encode(PUT, d.docId, d)) } finally { await h.close() }
      await rename(tmp, this.file)
    })
  }

  async clear (): Promise<void> {
    await this.serial(async () => { await this.closeHandle(); await rm(this.file, { force: true }) })
  }

  close (): Promise<void> { return this.serial(() => this.closeHandle()) }

  private append (b: Buffer): Promise<void> {
    return this.serial(async () => {
      this.handle ??= await open(this.file, 'a')
      await this.handle.write(b)
    })
  }

  private async closeHandle (): Promise<void> {
    const h = this.handle
    this.handle = undefined
    await h?.close()
  }

  /** Writes one after the other; a failed write does not stop the next. */
  private serial (fn: () => Promise<void>): Promise<void> {
    const next = this.chain.then(fn)
    this.chain = next.catch(() => {})
    return next
  }
}
