// Finds every skill definition under a folder (recursively, a few levels deep) and parses it.
import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { parseSkill, skillFormatOf } from './parse.js'
import type { Skill, SkillLoadError, SkillOrigin } from './types.js'
import { errorText } from '../core/errors.js'

export const MAX_DEPTH = 4
const MAX_FILE_BYTES = 1024 * 1024

/** Folders never descended into. */
export function ignoredDir (name: string): boolean {
  return name.startsWith('.') || name === 'node_modules'
}

export interface ScanResult { skills: Skill[]; errors: SkillLoadError[] }

export async function scanSkillDir (root: string, origin: SkillOrigin): Promise<ScanResult> {
  const files: string[] = []
  await walk(root, 0, files)
  files.sort()
  const skills: Skill[] = []
  const errors: SkillLoadError[] = []
  const seen = new Map<string, string>()
  for (const file of files) {
    try {
      const st = await stat(file)
      if (st.size > MAX_FILE_BYTES) throw new Error(`file is larger than ${MAX_FILE_BYTES} bytes`)
      const skill = parseSkill(file, await readFile(file, 'utf8'), origin)
      const other = seen.get(skill.name)
      if (other) throw new Error(`skill name "${skill.name}" is already defined in ${other}`)
      seen.set(skill.name, file)
      skills.push(skill)
    } catch (err) {
      // A file removed between listing and reading is simply gone, not an error.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue
      errors.push({ path: file, message: errorText(err) })
    }
  }
  return { skills, errors }
}

async function walk (dir: string, depth: number, out: string[]): Promise<void> {
  let entries
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return
    throw err
  }
  for (const e of entries) {
    const full = join(dir, e.name)
    if (e.isDirectory()) {
      if (depth < MAX_DEPTH && !ignoredDir(e.name)) await walk(full, depth + 1, out)
    } else if (e.isFile() && skillFormatOf(full)) {
      out.push(full)
    }
  }
}
