// Memory records (spec 2.14) and the two category vocabularies: variant B's six categories are the
// stored ones; variant A's names map onto them (DECISIONS part 2).

export const CATEGORIES = ['profile', 'preference', 'event', 'relation', 'topic', 'custom'] as const
export type MemoryCategory = typeof CATEGORIES[number]

export const A_CATEGORIES = ['basic_info', 'preferences', 'events', 'relationships', 'interests', 'custom'] as const
export type MemoryCategoryA = typeof A_CATEGORIES[number]

const A_TO_B: Record<MemoryCategoryA, MemoryCategory> = {
  basic_info: 'profile', preferences: 'preference', events: 'event', relationships: 'relation', interests: 'topic', custom: 'custom'
}
const B_TO_A = Object.fromEntries(Object.entries(A_TO_B).map(([a, b]) => [b, a])) as Record<MemoryCategory, MemoryCategoryA>

export const toA = (c: MemoryCategory): MemoryCategoryA => B_TO_A[c]
export const isCategory = (c: string): c is MemoryCategory => (CATEGORIES as readonly string[]).includes(c)

/** Either vocabulary's name (any case) to the stored category; undefined when unknown. */
export function normalizeCategory (c: string): MemoryCategory | undefined {
  const s = c.trim().toLowerCase()
  if (isCategory(s)) return s
  return Object.hasOwn(A_TO_B, s) ? (A_TO_B as Record<string, MemoryCategory>)[s] : undefined
}

export const CATEGORY_INFO: Record<MemoryCategory, { name: string; nameEn: string; description: string }> = {
  profile: { name: '基本信息', nameEn: 'Profile', description: 'Who the user is: name, age, job, location' },
  preference: { name: '偏好', nameEn: 'Preferences', description: 'Likes, dislikes, habits, style wishes' },
  event: { name: '事件', nameEn: 'Events', description: 'Things that happened or are planned, with dates' },
  relation: { name: '关系', nameEn: 'Relationships', description: 'People, pets and groups the user relates to' },
  topic: { name: '兴趣话题', nameEn: 'Interests', description: 'Topics the user often talks about' },
  custom: { name: '其他', nameEn: 'Custom', description: 'Anything else worth remembering' }
}

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
}

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
}

export type MemoryPatch = Partial<Pick<MemoryRecord, 'content' | 'category' | 'subType' | 'confidence' | 'groupId' | 'metadata' | 'expiresAt' | 'userId'>>

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
