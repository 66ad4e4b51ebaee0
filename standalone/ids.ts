// Ids may be numbers or strings. Miao/icqq uses numbers, TRSS keeps what the adapter gives.
import type { Id, Profile } from './types.js'

export function hostId(profile: Profile, id: Id): Id {
  if (profile === 'miao' && typeof id === 'string' && /^\d{1,15}$/.test(id)) return Number(id)
  return id
}

export function sameId(a: Id | undefined | null, b: Id | undefined | null): boolean {
  return a !== undefined && a !== null && b !== undefined && b !== null && String(a) === String(b)
}
