// CSV files (RFC 4180: quoted fields, doubled quotes, line breaks inside quotes; the separator is
// the one of `,` `;` and tab the first line has most of). No package: the format is that small.
import { decodeText } from './text.js'
import { rowsToText } from './rows.js'
import { ExtractError, type Extracted } from './types.js'

function parseCsv (text: string): string[][] {
  const first = text.slice(0, Math.max(0, text.indexOf('\n')) || text.length)
  const sep = [',', ';', '\t'].map((s) => [s, first.split(s).length] as const).sort((a, b) => b[1] - a[1])[0]![0]
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') { field += '"'; i++ } else quoted = false
      } else field += c
    } else if (c === '"' && field === '') quoted = true
    else if (c === sep) { row.push(field); field = '' }
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++
      row.push(field); rows.push(row); row = []; field = ''
    } else field += c
  }
  if (field || row.length) { row.push(field); rows.push(row) }
  return rows
}

export function extractCsv (bytes: Uint8Array): Extracted {
  const text = rowsToText(parseCsv(decodeText(bytes).replace(/^\uFEFF/, '')))
  if (!text) throw new ExtractError('CSV 文件是空的')
  return { text }
}
