// A table of a CSV file or a spreadsheet as text: a `## <sheet>` heading, the header row, then each
// row as a `| a | b |` line that names its columns (`列名: 值`), so a passage holding a row without
// the header still says what each value is.

/** A cell as the readers give it: text, a number, a boolean, a date, or nothing. */
export type Cell = unknown

const cellText = (c: Cell): string => {
  if (c === null || c === undefined) return ''
  if (c instanceof Date) return Number.isNaN(c.getTime()) ? '' : c.toISOString().replace(/T00:00:00\.000Z$/, '').replace(/\.000Z$/, 'Z')
  if (typeof c !== 'string' && typeof c !== 'number' && typeof c !== 'boolean') return ''
  return String(c).replace(/\s+/g, ' ').replace(/\|/g, '/').trim()
}

/** Rows as text; `heading` names the table (a sheet), the first non-empty row is the header. */
export function rowsToText (rows: readonly (readonly Cell[])[], heading?: string): string {
  const cells = rows.map((r) => r.map(cellText)).filter((r) => r.some(Boolean))
  if (cells.length === 0) return ''
  const [header, ...body] = cells as [string[], ...string[][]]
  const lines = heading ? [`## ${heading}`, ''] : []
  lines.push(`| ${header.join(' | ')} |`)
  for (const r of body) {
    const named = r.map((v, i) => (header[i] && v ? `${header[i]}: ${v}` : v)).filter(Boolean)
    lines.push(`| ${named.join(' | ')} |`)
  }
  return lines.join('\n')
}
