// Both languages complete: every dictionary file of the dashboard (resources/src/i18n-*.ts, each exporting a
// `<name>Zh` and a `<name>En`) has the same keys in zh-CN and English, none empty, and no key is given twice
// across files with different meanings (a later file would silently replace an earlier one's text).
// Without this, a key missing in one language shows as the raw key there (t() falls back to it).
import { expect } from 'chai'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

type Dict = Record<string, string>
const DIR = join(import.meta.dirname, '..', '..', 'resources', 'src')
const files = readdirSync(DIR).filter((f) => /^i18n-[\w-]+\.ts$/.test(f)).sort()

describe('dashboard: i18n dictionaries (both languages complete)', () => {
  const loaded: Array<{ file: string, zh: Dict, en: Dict }> = []

  before(async () => {
    for (const file of files) {
      const mod = await import(pathToFileURL(join(DIR, file)).href) as Record<string, unknown>
      const zh = Object.entries(mod).find(([k]) => k.endsWith('Zh'))?.[1] as Dict | undefined
      const en = Object.entries(mod).find(([k]) => k.endsWith('En'))?.[1] as Dict | undefined
      if (!zh || !en) throw new Error(`${file} exports no <name>Zh / <name>En pair`)
      loaded.push({ file, zh, en })
    }
  })

  it('reads every dictionary file', () => {
    expect(loaded.map((l) => l.file)).to.include('i18n-feedback.ts')
    expect(loaded.length).to.equal(files.length)
  })

  it('each file has the same keys in zh-CN and English, none empty', () => {
    const problems: string[] = []
    for (const { file, zh, en } of loaded) {
      for (const k of Object.keys(zh)) if (!(k in en)) problems.push(`${file}: ${k} has no English text`)
      for (const k of Object.keys(en)) if (!(k in zh)) problems.push(`${file}: ${k} has no Chinese text`)
      for (const [k, v] of [...Object.entries(zh), ...Object.entries(en)]) if (!v.trim()) problems.push(`${file}: ${k} is empty`)
    }
    expect(problems).to.deep.equal([])
  })

  it('no key is defined by two files with different texts', () => {
    const seen = new Map<string, { file: string, zh: string }>()
    const clashes: string[] = []
    for (const { file, zh } of loaded) {
      for (const [k, v] of Object.entries(zh)) {
        const before = seen.get(k)
        if (before && before.zh !== v) clashes.push(`${k}: ${before.file} "${before.zh}" / ${file} "${v}"`)
        else seen.set(k, { file, zh: v })
      }
    }
    expect(clashes).to.deep.equal([])
  })
})
