// Reads a whole backup file and checks everything in it before anything is applied (lib/backup/README.md,
// "Restoring"): every path stays inside the data folder in any spelling, sizes and SHA-256 match, each
// entry sits in the part its path or store names, record counts match, the manifest's counts match what
// is there, the end line's checksum matches. Answers the manifest, the parts found and the opened secrets.
import { createHash } from 'node:crypto'
import { z } from 'zod'
import { PORTED_STORES } from '../storage/ported.js'
import { invalidBackup, readBackup, type Manifest } from './container.js'
import { unseal, type Sealed } from './crypto.js'
import { partOfFile, partOfStore, type Part } from './parts.js'
import type { SecretsPayload } from './secrets.js'

// Windows device names are files nowhere else; refused as any segment (with or without an extension)
const DEVICE = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i

/**
 * Why a relative path from a backup may not be written under the data folder, or undefined when it may:
 * forward slashes only, no empty, `.` or `..` segment, no absolute or drive path, no backslash, colon, NUL
 * or control character, no Windows device name, not under backups/ or logs/.
 */
export function unsafePath (path: string): string | undefined {
  if (!path || path.length > 1024) return 'an empty or over-long path'
  if (/[\\:\0-\x1f]/.test(path)) return 'a backslash, colon or control character'
  if (path.startsWith('/')) return 'an absolute path'
  const segs = path.split('/')
  if (segs.some((s) => s === '' || s === '.' || s === '..')) return 'an empty, "." or ".." segment'
  if (segs.some((s) => DEVICE.test(s) || /[. ]$/.test(s))) return 'a Windows device name or a name ending in a dot or space'
  if (segs[0] === 'backups' || segs[0] === 'logs') return 'the backups or logs folder'
  return undefined
}

const payloadSchema = z.strictObject({
  config: z.array(z.strictObject({ path: z.array(z.union([z.string(), z.number()])).max(32), value: z.string() })),
  files: z.array(z.strictObject({ path: z.enum(['jwt-secret']), data: z.string() }))
})

export interface Checked {
  manifest: Manifest
  /** the parts that have something in the file */
  parts: Part[]
  /** the opened secrets, when a passphrase was given and the file holds them */
  secrets?: SecretsPayload
}

export async function checkBackup (file: string, maxUnpacked: number, passphrase?: string): Promise<Checked> {
  const files = new Set<string>()
  const pending = new Map<string, number>()
  const stores = new Set<string>()
  const seen = new Map<Part, { files: number; records: number; bytes: number }>()
  const add = (p: Part, f: number, r: number, b: number): void => {
    const c = seen.get(p) ?? { files: 0, records: 0, bytes: 0 }
    seen.set(p, { files: c.files + f, records: c.records + r, bytes: c.bytes + b })
  }
  let sealed: Sealed | undefined
  let configs = 0
  const manifest = await readBackup(file, maxUnpacked, (e) => {
    switch (e.t) {
      case 'file': {
        const bad = unsafePath(e.path)
        if (bad) throw invalidBackup(`the file path ${JSON.stringify(e.path.slice(0, 200))} is refused (${bad})`)
        if (files.has(e.path.toLowerCase())) throw invalidBackup(`the file ${e.path} is in it twice`)
        files.add(e.path.toLowerCase()) // twice in any case: one file on Windows and macOS
        if (e.part !== partOfFile(e.path)) throw invalidBackup(`the file ${e.path} is filed under the wrong part`)
        const data = Buffer.from(e.data, 'base64')
        if (data.length !== e.size || createHash('sha256').update(data).digest('hex') !== e.sha256) throw invalidBackup(`the file ${e.path} does not match its size and checksum`)
        add(e.part, 1, 0, e.size)
        break
      }
      case 'records': case 'store': {
        const s = PORTED_STORES.find((p) => p.name === e.store)
        if (!s) throw invalidBackup(`it names a store this plugin does not have (${e.store.slice(0, 80)})`)
        if (e.part !== partOfStore(e.store)) throw invalidBackup(`the store ${e.store} is filed under the wrong part`)
        if (stores.has(e.store)) throw invalidBackup(`the store ${e.store} is in it twice`)
        if (e.t === 'records') { pending.set(e.store, (pending.get(e.store) ?? 0) + e.records.length); break }
        if ((pending.get(e.store) ?? 0) !== e.count) throw invalidBackup(`the store ${e.store} holds ${pending.get(e.store) ?? 0} records, its count says ${e.count}`)
        stores.add(e.store)
        pending.delete(e.store)
        add(e.part, 0, e.count, 0)
        break
      }
      case 'config': configs++; add('config', 1, 0, Buffer.byteLength(e.yaml)); break
      case 'secrets':
        if (sealed) throw invalidBackup('it holds two secrets entries')
        sealed = e.sealed
        break
    }
  })
  if (pending.size) throw invalidBackup(`the records of ${[...pending.keys()].join(', ')} have no count line`)
  if (configs > 1) throw invalidBackup('it holds two configurations')
  if (manifest.secrets !== (sealed !== undefined)) throw invalidBackup(manifest.secrets ? 'its manifest says it holds secrets, but they are missing' : 'it holds secrets its manifest does not list')
  for (const [p, c] of seen) {
    const m = manifest.parts[p]
    if (!m || m.files !== c.files || m.records !== c.records || m.bytes !== c.bytes) throw invalidBackup(`the part ${p} does not match its manifest`)
  }
  for (const p of Object.keys(manifest.parts) as Part[]) if (!seen.has(p)) throw invalidBackup(`the part ${p} of its manifest is missing`)
  let secrets: SecretsPayload | undefined
  if (sealed && passphrase !== undefined) {
    const opened = payloadSchema.safeParse(JSON.parse((await unseal(sealed, passphrase)).toString('utf8')))
    if (!opened.success) throw invalidBackup('its secrets are malformed')
    secrets = opened.data
  }
  return { manifest, parts: [...seen.keys()], ...(secrets ? { secrets } : {}) }
}
