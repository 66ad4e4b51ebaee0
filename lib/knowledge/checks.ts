// The checks of a document's fields (400 naming the field), shared by pasted documents, files and URLs, and of a base's (bases.ts).
import { badRequest } from '../core/errors.js'
import { BASE_ID, LIMITS, type KnowledgeDoc } from './types.js'

export function checkedTitle (title: string): string {
  const t = title.trim()
  if (!t) throw badRequest('title is required')
  if (t.length > LIMITS.title) throw badRequest(`title is longer than ${LIMITS.title} characters`)
  return t
}

export function checkedPreset (presetId: string): string {
  if (presetId.length > LIMITS.presetId) throw badRequest(`presetId is longer than ${LIMITS.presetId} characters`)
  return presetId.trim()
}

export function checkedContent (content: string): string {
  if (!content.trim()) throw badRequest('content is required')
  if (content.length > LIMITS.content) throw badRequest(`content is longer than ${LIMITS.content} characters`)
  return content
}

export function checked (title: string, content: string, presetId: string): Pick<KnowledgeDoc, 'title' | 'content' | 'presetId'> {
  const t = checkedTitle(title)
  return { title: t, content: checkedContent(content), presetId: checkedPreset(presetId) }
}

// ---- bases (bases.ts) ----

export function checkedBaseId (id: string): string {
  if (!BASE_ID.test(id)) throw badRequest('id must be 1-64 letters, digits, _ or -')
  return id
}

export function checkedBaseName (name: string): string {
  const n = name.trim()
  if (!n) throw badRequest('name is required')
  if (n.length > LIMITS.baseName) throw badRequest(`name is longer than ${LIMITS.baseName} characters`)
  return n
}

export function checkedDescription (description: string): string {
  if (description.length > LIMITS.baseDescription) throw badRequest(`description is longer than ${LIMITS.baseDescription} characters`)
  return description.trim()
}

/** Preset ids, each once, in the order given. */
export function checkedPresetIds (ids: readonly string[]): string[] {
  if (ids.length > LIMITS.basePresets) throw badRequest(`presetIds holds more than ${LIMITS.basePresets} presets`)
  return [...new Set(ids.map(checkedPreset).filter(Boolean))]
}
