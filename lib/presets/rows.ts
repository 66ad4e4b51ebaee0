// The presets' data as records of the storage port (lib/storage/README.md), one store `presets`: a user
// preset is the record `preset:<id>`, a user's choice `user:<userId>`, a group's `group:<groupId>`. So two
// instances changing different presets or choices never overwrite each other's (one row each).
import { dict, own, setOwn, type Dict } from '../core/dict.js'
import type { PresetRecord } from './types.js'

/** The data the preset service works on (the lowdb file presets.json has this layout). */
export interface PresetData {
  presets: PresetRecord[]
  /** userId -> preset id (presets.perUserPreset); keyed by chat ids: null-prototype (lib/core/dict.ts) */
  users: Dict<string>
  /** groupId -> preset id (presets.perGroupPreset) */
  groups: Dict<string>
}

/** One record: a user preset, or a user's or a group's choice. */
export type PresetRow = { id: string; preset: PresetRecord } | { id: string; choice: string }

const CHOICES = [['user:', 'users'], ['group:', 'groups']] as const

/** Every record of `data`, by key. */
export function rowsOf (data: PresetData): Map<string, PresetRow> {
  const rows = new Map<string, PresetRow>()
  for (const p of data.presets) rows.set(`preset:${p.id}`, { id: `preset:${p.id}`, preset: p })
  for (const [prefix, field] of CHOICES) {
    for (const [key, choice] of Object.entries(data[field])) rows.set(prefix + key, { id: prefix + key, choice })
  }
  return rows
}

/** The data of some records (presets in the order they were made). */
export function dataOf (rows: Iterable<PresetRow>): PresetData {
  const data: PresetData = { presets: [], users: dict(), groups: dict() }
  for (const row of rows) applyRow(data, row.id, row)
  data.presets.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
  return data
}

/** Applies one record's change (`row` undefined: deleted) to `data`. */
export function applyRow (data: PresetData, key: string, row: PresetRow | undefined): void {
  if (key.startsWith('preset:')) {
    const id = key.slice('preset:'.length)
    const i = data.presets.findIndex((p) => p.id === id)
    const next = row && 'preset' in row ? row.preset : undefined
    if (!next) { if (i >= 0) data.presets.splice(i, 1) } else if (i >= 0) data.presets[i] = next
    else data.presets.push(next)
    return
  }
  for (const [prefix, field] of CHOICES) {
    if (!key.startsWith(prefix)) continue
    const who = key.slice(prefix.length)
    if (row && 'choice' in row) setOwn(data[field], who, row.choice)
    else if (own(data[field], who) !== undefined) delete data[field][who]
  }
}
