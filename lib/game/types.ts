// Visual-novel game: character presets and each player's game state.
import { z } from 'zod'

export interface CharacterPreset {
  id: string
  name: string
  description: string
  systemPrompt: string
  createdAt: string
  updatedAt: string
}

/** A character as the API answers it (the OpenAPI document's data schema). */
export const characterView = z.object({ id: z.string(), name: z.string(), description: z.string(), systemPrompt: z.string(), createdAt: z.string(), updatedAt: z.string() })

interface GameMessage { role: 'user' | 'assistant'; content: string }

/** One player's game: who they play with and the story so far (used when no ChatService exists). */
export interface GameSession {
  characterId: string
  userId: string
  groupId?: string
  startedAt: string
  lastAt: string
  turns: number
  history: GameMessage[]
}

export const characterInput = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_-]{2,50}$/, 'id must be 2-50 letters, digits, _ or -').optional(),
  name: z.string().trim().min(1, 'name is required').max(100),
  description: z.string().max(2000).default(''),
  systemPrompt: z.string().trim().min(1, 'systemPrompt is required').max(10000)
})

export const characterPatch = characterInput.omit({ id: true }).partial().extend({ description: z.string().max(2000).optional() })

export const gameConfigPut = z.strictObject({
  probability: z.number().min(0).max(1),
  enableTools: z.boolean(),
  temperature: z.number().min(0).max(2),
  maxTokens: z.number().int().min(1).max(128000)
}).partial()

/** Messages of the story kept per player (fallback history). */
export const MAX_HISTORY = 20
