// Drawing: image presets matched by keywords, and the drawing configuration.
import { z } from 'zod'

export interface ImagePreset {
  uid: string
  keywords: string[]
  /** The message must carry an image (image-to-image presets). */
  needImage: boolean
  /** Prompt sent to the image model; {{input}} is the user's text after the keyword. */
  prompt: string
  name?: string
}

export interface RemotePresets {
  url: string
  presets: ImagePreset[]
  /** When the kept copy was fetched (ISO), null before the first success. */
  updatedAt: string | null
  /** Last refresh attempt and its error, if it failed (the last good copy stays). */
  lastAttemptAt: string | null
  error: string | null
}

/** An image preset and the remote source as the API answers them (the OpenAPI document's data schemas). */
export const imagePresetView = z.object({ uid: z.string(), keywords: z.array(z.string()), needImage: z.boolean(), prompt: z.string(), name: z.string().optional() })
export const remotePresetsView = z.object({ url: z.string(), presets: z.array(imagePresetView), updatedAt: z.string().nullable(), lastAttemptAt: z.string().nullable(), error: z.string().nullable() })

export const imagePresetInput = z.strictObject({
  keywords: z.array(z.string().trim().min(1).max(50)).min(1, 'keywords needs at least one keyword').max(20),
  needImage: z.boolean().default(false),
  prompt: z.string().trim().min(1, 'prompt is required').max(4000),
  name: z.string().max(100).optional()
})

/** One preset of a remote source (lenient: unknown fields dropped, uid generated when missing). */
export const remotePreset = z.object({
  uid: z.string().min(1).max(100).optional(),
  keywords: z.array(z.string().min(1).max(50)).min(1).max(20),
  needImage: z.boolean().default(false),
  prompt: z.string().min(1).max(4000),
  name: z.string().max(100).optional()
})
