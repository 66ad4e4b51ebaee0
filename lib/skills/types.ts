// Document skills: instructions plus tool rules that a conversation can switch on.

/** Which folder a skill came from: the plugin's bundled `skills/` or the user's skills folder. */
export type SkillOrigin = 'bundled' | 'user'

/** The file form a skill was read from: `<dir>/SKILL.md`, `<name>.skill.yaml|json`, or `<dir>/skill.yaml|json`. */
export type SkillFormat = 'SKILL.md' | 'skill-file' | 'folder-file'

export interface Skill {
  name: string
  description: string
  triggers: string[]
  allowedTools: string[]
  disallowedTools: string[]
  priority: number
  autoActivate: boolean
  instructions: string
  capabilities: string[]
  /** Absolute path of the definition file. */
  path: string
  /** Folder holding the definition file. */
  directory: string
  origin: SkillOrigin
  format: SkillFormat
}

/** A file that looked like a skill but could not be read (reported, never fatal). */
export interface SkillLoadError { path: string; message: string }

/** The document shape the skills routes return (docs/api.md, Groups of routes: skills). */
export interface SkillDocument {
  name: string
  description: string
  triggers: string[]
  allowedTools: string[]
  disallowedTools: string[]
  priority: number
  autoActivate: boolean
  capabilities: string[]
  path: string
  directory: string
  origin: SkillOrigin
  loaded: boolean
}
