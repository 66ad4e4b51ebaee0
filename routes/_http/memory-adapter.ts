// The memory group's adapter, shared by its two route files (routes/memory.ts = variant B,
// routes/memories-a.ts = variant A): input parsing, and variant A's category names mapped onto the
// domain's six (lib/memory/types.ts). Both speak to the same MemoryService; category names of either
// vocabulary are accepted on input.
import { z } from 'zod'
import { badRequest } from '../../lib/core/errors.js'
import { CATEGORIES, isCategory, MAX_CONTENT, type MemoryCategory, type MemoryPatch } from '../../lib/memory/types.js'
import { parseWith } from './validate.js'

// ---- variant A's category names: the adapter over the domain's six (lib/memory/types.ts) ----------
export const A_CATEGORIES = ['basic_info', 'preferences', 'events', 'relationships', 'interests', 'custom'] as const
export type MemoryCategoryA = typeof A_CATEGORIES[number]

const A_TO_CATEGORY: Record<MemoryCategoryA, MemoryCategory> = {
  basic_info: 'profile', preferences: 'preference', events: 'event', relationships: 'relation', interests: 'topic', custom: 'custom'
}
const CATEGORY_TO_A = Object.fromEntries(Object.entries(A_TO_CATEGORY).map(([a, c]) => [c, a])) as Record<MemoryCategory, MemoryCategoryA>

/** The variant A name of a stored category. */
export const toA = (c: MemoryCategory): MemoryCategoryA => CATEGORY_TO_A[c]
/** The stored category of a variant A name. */
export const fromA = (a: MemoryCategoryA): MemoryCategory => A_TO_CATEGORY[a]

/** Either vocabulary's name (any case) to the stored category; undefined when unknown. */
export function normalizeCategory (c: string): MemoryCategory | undefined {
  const s = c.trim().toLowerCase()
  if (isCategory(s)) return s
  return Object.hasOwn(A_TO_CATEGORY, s) ? A_TO_CATEGORY[s as MemoryCategoryA] : undefined
}

const idString = z.union([z.string().trim().min(1).max(64), z.number().int().transform(String)])
const metadata = z.record(z.string(), z.unknown()).refine((m) => JSON.stringify(m).length <= 10_000, 'metadata is larger than 10000 characters')

// Unknown keys are ignored (clients of either variant send extra fields such as `source` or `importance`).
export const memoryFields = z.object({
  userId: idString,
  content: z.string().max(MAX_CONTENT, `content is longer than ${MAX_CONTENT} characters`),
  category: z.string().max(50),
  subType: z.string().max(50),
  confidence: z.number().min(0).max(1),
  groupId: z.union([z.literal(''), idString]),
  metadata,
  expiresAt: z.number().int().positive()
}).partial()

export type MemoryFields = z.output<typeof memoryFields>

/** The stored category for an input name; 400 naming the allowed ones otherwise. */
export function categoryOf (raw: string | undefined): MemoryCategory | undefined {
  if (raw === undefined || raw === '') return undefined
  const c = normalizeCategory(raw)
  if (!c) throw badRequest(`category must be one of ${CATEGORIES.join(', ')}`)
  return c
}

export function parseMemoryFields (body: unknown): MemoryFields {
  return parseWith(memoryFields, body)
}

/** A PUT body as a patch of the stored record. */
export function patchOf (body: unknown): MemoryPatch {
  const f = parseMemoryFields(body)
  const patch: MemoryPatch = {}
  if (f.content !== undefined) patch.content = f.content
  const category = categoryOf(f.category)
  if (category) patch.category = category
  if (f.subType !== undefined) patch.subType = f.subType
  if (f.confidence !== undefined) patch.confidence = f.confidence
  if (f.groupId !== undefined) patch.groupId = f.groupId
  if (f.metadata !== undefined) patch.metadata = f.metadata
  if (f.expiresAt !== undefined) patch.expiresAt = f.expiresAt
  if (f.userId !== undefined) patch.userId = f.userId
  if (Object.keys(patch).length === 0) throw badRequest('No fields to update')
  return patch
}

/** `:id` of a memory: numeric paths are always primary keys; anything else is a 400. */
export function memoryId (raw: string | undefined): number {
  if (!raw || !/^\d{1,15}$/.test(raw)) throw badRequest('Memory id must be numeric (a user\'s memories are at /memory/user/:userId)')
  return Number(raw)
}

export function userIdParam (raw: string | undefined): string {
  const s = (raw ?? '').trim()
  if (!s || s.length > 64) throw badRequest('userId must be 1-64 characters')
  return s
}

/** true/1 (or a boolean true) */
export const truthy = (v: unknown): boolean => v === true || v === 'true' || v === '1' || v === 1

/** Switches of POST /memory/user/:userId/summarize: defaults true; false or the string 'false' turns them off. */
export const switchOn = (v: unknown): boolean => !(v === false || v === 'false' || v === 0 || v === '0')
