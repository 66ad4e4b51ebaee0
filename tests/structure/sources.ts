// The server sources as the structure tests read them: as text, listed fresh each time.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

export const ROOT = join(import.meta.dirname, '..', '..')

/** The TypeScript files under `dir` (relative to the repository), declaration files aside. */
function sources (dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(join(ROOT, dir))) {
    const rel = join(dir, name)
    const isDir = (() => { try { return statSync(join(ROOT, rel)).isDirectory() } catch { return false } })()
    if (isDir) out.push(...sources(rel))
    else if (/\.(ts|mts)$/.test(name) && !name.endsWith('.d.ts')) out.push(rel)
  }
  return out
}

/** The text of a file, or '' when it went away since the listing (others edit the tree too). */
export function read (file: string): string {
  try { return readFileSync(join(ROOT, file), 'utf8') } catch { return '' }
}

/** The server's sources: the entry, the bot commands, the domain and the routes. */
export const serverSources = (): string[] => ['index.ts', ...sources('apps'), ...sources('lib'), ...sources('routes')]
