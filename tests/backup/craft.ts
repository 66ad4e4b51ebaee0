// Backup files made by hand for the refusal tests: lines gzip'd with a correct end line, so the check that
// refuses them is the one under test (a path, a part), not the checksum.
import { createHash } from 'node:crypto'
import { gunzipSync, gzipSync } from 'node:zlib'

export function craft (manifest: Record<string, unknown>, entries: Array<Record<string, unknown>>): Buffer {
  const lines = [JSON.stringify({ ...manifest, entries: entries.length }), ...entries.map((e) => JSON.stringify(e))].map((l) => l + '\n')
  const sha = createHash('sha256').update(lines.join('')).digest('hex')
  return gzipSync(lines.join('') + JSON.stringify({ t: 'end', entries: entries.length, sha256: sha }) + '\n')
}

export const fileEntry = (path: string, text: string, part = 'other'): Record<string, unknown> => {
  const data = Buffer.from(text)
  return { t: 'file', part, path, size: data.length, sha256: createHash('sha256').update(data).digest('hex'), data: data.toString('base64') }
}

export const manifestOf = (parts: Record<string, { files: number; records: number; bytes: number }>): Record<string, unknown> =>
  ({ format: 'lingxi-backup', version: 1, pluginVersion: '0.0.0', createdAt: new Date(0).toISOString(), engine: 'files', secrets: false, kind: 'manual', parts })

/** The lines of a backup file (manifest first, end line last). */
export const linesOf = (bytes: Buffer): string[] => gunzipSync(bytes).toString('utf8').trim().split('\n')
/** A backup file made again from (changed) lines, the end line kept as it was. */
export const relines = (lines: string[]): Buffer => gzipSync(lines.join('\n') + '\n')
