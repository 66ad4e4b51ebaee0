// The checks of a document's fields (400 naming the field), shared by pasted documents, files and URLs.
import { badRequest } from '../core/errors.js'
import { LIMITS, type KnowledgeDoc } from './types.js'

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
