// Reads one skill definition file. SKILL.md front matter goes through gray-matter with only the YAML
// engine: `---js` (and coffee) front matter would be eval'd by gray-matter's default engines
// (they run the front matter as code), so those engines throw and the file is reported as an error instead.
import { basename, dirname } from 'node:path'
import matter from 'gray-matter'
import { parse as parseYaml } from 'yaml'
import { z } from 'zod'
import type { Skill, SkillFormat, SkillOrigin } from './types.js'

const refuse = (lang: string) => (): never => { throw new Error(`${lang} front matter is not allowed (only YAML)`) }

const MATTER_OPTIONS = {
  language: 'yaml',
  engines: {
    yaml: (s: string): object => (parseYaml(s) as object | null) ?? {},
    js: refuse('JavaScript'),
    javascript: refuse('JavaScript'),
    coffee: refuse('CoffeeScript'),
    coffeescript: refuse('CoffeeScript'),
    cson: refuse('CSON')
  }
}

/** A list given as one string ("a, b") or an array of strings. */
const stringList = z.union([
  z.array(z.string().trim().min(1).max(200)).max(200),
  z.string().max(2000).transform((s) => s.split(/[,，]/).map((x) => x.trim()).filter(Boolean))
]).default([])

const SKILL_NAME = /^[\w\-.\u4e00-\u9fff]{1,64}$/

const skillFields = z.object({
  name: z.string().trim().regex(SKILL_NAME, 'name: letters, digits, - _ . or Chinese, 1-64 characters').optional(),
  description: z.string().max(2000).default(''),
  triggers: stringList,
  allowedTools: stringList,
  disallowedTools: stringList,
  priority: z.number().finite().default(0),
  autoActivate: z.boolean().default(false),
  instructions: z.string().max(100_000).optional(),
  capabilities: stringList
})

/** The form of a file name, or undefined when the file is not a skill definition. */
export function skillFormatOf (file: string): SkillFormat | undefined {
  const b = basename(file)
  if (b === 'SKILL.md') return 'SKILL.md'
  if (/^skill\.(ya?ml|json)$/.test(b)) return 'folder-file'
  if (/^[^.].*\.skill\.(ya?ml|json)$/.test(b)) return 'skill-file'
  return undefined
}

/** Parses `text` read from `file`; throws an Error with a readable message when it is not a valid skill. */
export function parseSkill (file: string, text: string, origin: SkillOrigin): Skill {
  const format = skillFormatOf(file)
  if (!format) throw new Error('not a skill definition file')
  let data: unknown
  let body = ''
  if (format === 'SKILL.md') {
    const parsed = matter(text, MATTER_OPTIONS)
    data = parsed.data
    body = parsed.content.trim()
  } else if (file.endsWith('.json')) {
    data = JSON.parse(text) as unknown
  } else {
    data = parseYaml(text) as unknown
  }
  if (data === null || data === undefined) data = {}
  if (typeof data !== 'object' || Array.isArray(data)) throw new Error('the definition must be a mapping of fields')
  const r = skillFields.safeParse(data)
  if (!r.success) {
    const i = r.error.issues[0]
    throw new Error(i ? `${i.path.join('.') || 'definition'}: ${i.message}` : 'invalid definition')
  }
  const f = r.data
  const directory = dirname(file)
  const name = f.name ?? defaultName(file, format)
  if (!SKILL_NAME.test(name)) throw new Error(`name: "${name}" is not a valid skill name; set name in the definition`)
  const instructions = (f.instructions ?? body).trim()
  return {
    name,
    description: f.description,
    triggers: f.triggers,
    allowedTools: f.allowedTools,
    disallowedTools: f.disallowedTools,
    priority: f.priority,
    autoActivate: f.autoActivate,
    instructions,
    capabilities: f.capabilities,
    path: file,
    directory,
    origin,
    format
  }
}

/** SKILL.md and skill.yaml take their folder's name; `x.skill.yaml` takes `x`. */
function defaultName (file: string, format: SkillFormat): string {
  if (format === 'skill-file') return basename(file).replace(/\.skill\.(ya?ml|json)$/, '')
  return basename(dirname(file))
}
