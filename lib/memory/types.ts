// Memory records and the one category vocabulary of the domain. The API's variant A
// speaks other names for the same six; routes/_http/memory-adapter.ts maps them at the edge.
import { z } from 'zod'

export const CATEGORIES = ['profile', 'preference', 'event', 'relation', 'topic', 'custom'] as const
export type MemoryCategory = typeof CATEGORIES[number]

export const isCategory = (c: string): c is MemoryCategory => (CATEGORIES as readonly string[]).includes(c)

/**
 * Words a model writes for a category even when asked for one of the six (extraction, summaries): it
 * echoes names it saw elsewhere, such as the dashboard's. Reading model text only; API input is mapped
 * by the routes.
 */
const MODEL_WORDS: Record<string, MemoryCategory> = { basic_info: 'profile', relationship: 'relation', interest: 'topic' }

/** The category a model meant by `word` (any case, a plural, a word above); undefined when none. */
export function categoryFromModel (word: string): MemoryCategory | undefined {
  const s = word.trim().toLowerCase()
  if (isCategory(s)) return s
  const singular = s.endsWith('s') ? s.slice(0, -1) : s
  if (isCategory(singular)) return singular
  for (const w of [s, singular]) if (Object.hasOwn(MODEL_WORDS, w)) return MODEL_WORDS[w]
  return undefined
}

export const CATEGORY_INFO: Record<MemoryCategory, { name: string; nameEn: string; description: string }> = {
  profile: { name: '基本信息', nameEn: 'Profile', description: 'Who the user is: name, age, job, location' },
  preference: { name: '偏好', nameEn: 'Preferences', description: 'Likes, dislikes, habits, style wishes' },
  event: { name: '事件', nameEn: 'Events', description: 'Things that happened or are planned, with dates' },
  relation: { name: '关系', nameEn: 'Relationships', description: 'People, pets and groups the user relates to' },
  topic: { name: '兴趣话题', nameEn: 'Interests', description: 'Topics the user often talks about' },
  custom: { name: '其他', nameEn: 'Custom', description: 'Anything else worth remembering' }
}

/** Where a memory came from (lib/memory/README.md, "Provenance"). */
export interface MemoryOrigin {
  /** stated: the user said it; inferred: the model concluded it; manual: written on the dashboard or the API */
  kind: 'stated' | 'inferred' | 'manual'
  /** where it was learnt: a private chat, a group (the record's groupId), or the API/dashboard */
  chat: 'private' | 'group' | 'api'
  conversationId?: string
  /** the host's ids of the user's messages it came from */
  messageIds?: string[]
  /** when those messages were said (the first of them) */
  at: number
  /** the model that extracted it */
  model?: string
  /** the extraction round that saved it (what `#lx撤销记忆` undoes) */
  extraction?: string
}

/** An earlier state of a memory, kept when it is corrected, confirmed or superseded. */
export interface MemoryRevision {
  content: string
  category: MemoryCategory
  confidence: number
  status?: MemoryStatus
  /** until when it held */
  until: number
  /** who made the change that ended it */
  by: 'user' | 'master' | 'model' | 'api'
  what: 'corrected' | 'confirmed' | 'superseded' | 'refreshed' | 'edited'
}

/**
 * Absent: in use. pending: inferred with a confidence below `memory.reviewBelow`, not used until
 * confirmed. superseded: replaced by a newer stated fact (`supersededBy`), kept for its history.
 */
type MemoryStatus = 'pending' | 'superseded'

export interface MemoryRecord {
  id: number
  userId: string
  content: string
  category: MemoryCategory
  subType: string
  /** 0..1 */
  confidence: number
  /** '' = not tied to a group */
  groupId: string
  metadata: Record<string, unknown>
  /** manual (API/dashboard), auto (extracted from chat), summary, merge, batch */
  source: string
  createdAt: number
  updatedAt: number
  /** ms; past it the memory is dropped by cleanup and left out of prompts */
  expiresAt?: number
  /** soft delete: kept on disk, hidden everywhere */
  deleted?: boolean
  deletedAt?: number
  /** absent on memories saved before provenance was kept (lib/memory/scope.ts reads those by `source`) */
  origin?: MemoryOrigin
  status?: MemoryStatus
  supersededBy?: number
  /** earlier states, oldest first (the last MAX_HISTORY) */
  history?: MemoryRevision[]
}

export const MAX_HISTORY = 20

/**
 * A memory as the routes answer it (MemoryRecord, soft-deleted ones are never shown): the OpenAPI
 * document's data schema. `category` is a string: variant A shows its own category names.
 */
export const memoryRecordSchema = z.object({
  id: z.number(), userId: z.string(), content: z.string(), category: z.string(), subType: z.string(), confidence: z.number(),
  groupId: z.string(), metadata: z.record(z.string(), z.unknown()), source: z.string(), createdAt: z.number(), updatedAt: z.number(),
  expiresAt: z.number().optional(),
  origin: z.object({
    kind: z.enum(['stated', 'inferred', 'manual']), chat: z.enum(['private', 'group', 'api']), conversationId: z.string().optional(),
    messageIds: z.array(z.string()).optional(), at: z.number(), model: z.string().optional(), extraction: z.string().optional()
  }).optional(),
  status: z.enum(['pending', 'superseded']).optional(),
  supersededBy: z.number().optional(),
  history: z.array(z.object({
    content: z.string(), category: z.string(), confidence: z.number(), status: z.enum(['pending', 'superseded']).optional(), until: z.number(),
    by: z.enum(['user', 'master', 'model', 'api']), what: z.enum(['corrected', 'confirmed', 'superseded', 'refreshed', 'edited'])
  })).optional()
})

export interface NewMemory {
  userId: string
  content: string
  category?: MemoryCategory
  subType?: string
  confidence?: number
  groupId?: string
  metadata?: Record<string, unknown>
  source?: string
  expiresAt?: number
  origin?: MemoryOrigin
  status?: MemoryStatus
}

export type MemoryPatch = Partial<Pick<MemoryRecord, 'content' | 'category' | 'subType' | 'confidence' | 'groupId' | 'metadata' | 'expiresAt' | 'userId' | 'origin' | 'status' | 'supersededBy' | 'history'>>

export interface MemoryQuery {
  userId?: string
  groupId?: string
  category?: MemoryCategory
  limit?: number
}

export interface UserEntry { userId: string; count: number; lastUpdate: number; categories: MemoryCategory[] }
export interface MemoryStats { total: number; users: number; byCategory: Record<MemoryCategory, number> }
export type MemoryHit = MemoryRecord & { score: number }

export const MAX_CONTENT = 2000
