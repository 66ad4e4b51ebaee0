// What a backup holds, by part: the owner restores all of them or the ones chosen (lib/backup/README.md,
// "Parts"). Each data-folder file and each ported store belongs to exactly one part, computed from its path
// or store name, so a restore of "memories" replaces the memories' records and their vectors together.
import { PORTED_STORES } from '../storage/ported.js'

export const PARTS = ['config', 'conversations', 'memories', 'knowledge', 'presets', 'reminders', 'tasks', 'stats', 'why', 'grouplog', 'skills', 'tools', 'other'] as const
export type Part = typeof PARTS[number]

export const isPart = (v: string): v is Part => (PARTS as readonly string[]).includes(v)

const STORE_PART = new Map<string, Part>([
  ['conversations', 'conversations'],
  ['memories', 'memories'], ['memory-users', 'memories'], ['memory-uses', 'memories'],
  ['knowledge', 'knowledge'], ['knowledge-bases', 'knowledge'],
  ['presets', 'presets'],
  ['reminders', 'reminders'],
  ['tasks', 'tasks'], ['task-runs', 'tasks'],
  ['why', 'why'],
  ['group-log/groups', 'grouplog'],
  ['initiative', 'other']
])

/** The part of a ported store (every store of lib/storage/ported.ts has one; a new one falls under "other"). */
export const partOfStore = (name: string): Part => STORE_PART.get(name) ?? 'other'

// first match wins; paths are relative to the data folder, with forward slashes
const FILE_PARTS: ReadonlyArray<[RegExp, Part]> = [
  [/^memory-vectors\./, 'memories'],
  [/^knowledge[-/]/, 'knowledge'],
  [/^stats(\.json$|-days\/)/, 'stats'],
  [/^skills(\/|\.json$)/, 'skills'],
  [/^(tools\/|script-tools\.json$|custom-tools\.json$)/, 'tools'],
  [/^group-log\//, 'grouplog'],
  [/^why[./]/, 'why']
]

export const partOfFile = (path: string): Part => FILE_PARTS.find(([re]) => re.test(path))?.[1] ?? 'other'

/** The data-folder files of a ported store (its snapshot, its journal and rotated journals): backed up through the port, never as files. */
export function isStoreFile (path: string): boolean {
  return PORTED_STORES.some((s) => path === `${s.name}.json` || (path.startsWith(`${s.name}.journal.`) && path.endsWith('.jsonl')))
}
