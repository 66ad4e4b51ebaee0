// Excel workbooks (.xlsx) through read-excel-file (pure JavaScript): every sheet as a `## <sheet>`
// section of rows that name their columns (rows.ts); formulas as their last computed values.
// Loaded on first use.
import { importOptional } from '../../core/packages.js'
import { rowsToText } from './rows.js'
import { ExtractError, type Extracted } from './types.js'

export async function extractXlsx (bytes: Uint8Array): Promise<Extracted> {
  const { default: readXlsxFile } = await importOptional('read-excel-file', () => import('read-excel-file/node')).catch((err: unknown) => {
    throw new ExtractError(`读取 Excel 文件需要的程序包 read-excel-file 没有安装：${err instanceof Error ? err.message : String(err)}`)
  })
  let sheets: Awaited<ReturnType<typeof readXlsxFile>>
  try {
    sheets = await readXlsxFile(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
  } catch (err) {
    throw new ExtractError(`Excel 文件已损坏或不是 .xlsx 格式（旧的 .xls 请另存为 .xlsx）：${err instanceof Error ? err.message : String(err)}`)
  }
  const text = sheets.map((s) => rowsToText(s.data, s.sheet)).filter(Boolean).join('\n\n')
  if (!text) throw new ExtractError('Excel 文件中没有数据')
  return { text }
}
