// The one rule of where a memory may be used to answer (lib/memory/README.md, "Scopes"): the prompt, the
// search_memory tool, the why record (it lists what the prompt used) and our MCP endpoint (its tools are
// the same tools) all ask here. Pending and superseded memories are never used; a group's memory only in
// that group; one learnt in a private chat not in a group unless its user allowed it (`#lx记忆公开`, or
// the default `memory.privateInGroups`).
import type { MemoryRecord } from './types.js'

/** Where an answer is being given. */
export interface MemoryUse {
  /** the group of the chat; absent in a private chat, the API's chat and MCP */
  groupId?: string
  now: number
  /** the memory's user allows what was learnt in private to be used in groups */
  privateInGroups: boolean
}

/** Learnt in a private chat: from its origin, or, for a memory saved before origins were kept, extracted without a group. */
export function learntInPrivate (r: MemoryRecord): boolean {
  return r.origin ? r.origin.chat === 'private' : r.source === 'auto' && r.groupId === ''
}

export function usableIn (r: MemoryRecord, use: MemoryUse): boolean {
  if (r.deleted || r.status !== undefined) return false
  if (r.expiresAt !== undefined && r.expiresAt <= use.now) return false
  if (r.groupId !== '') return r.groupId === use.groupId
  if (use.groupId !== undefined && learntInPrivate(r)) return use.privateInGroups
  return true
}
