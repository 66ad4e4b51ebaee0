// What goes out for one answer, decided without the host: the text without reasoning, images and files
// taken out as media, markdown made plain, and the form (one message, sentence by sentence, a forward
// message, a rendered image). Pure and fast: the benchmark (bench/delivery.bench.ts) times this step.
import { stripReasoning } from '../chat/reasoning.js'
import type { DeliverySettings } from '../config/schema.js'
import { markdownToPlain } from './markdown.js'
import { extractMedia, MAX_MEDIA, type Media } from './media.js'
import { splitNodes, splitSentences } from './split.js'

export interface DeliveryPlan {
  /** single: one message; sentences: `parts` one by one; forward: `parts` as nodes of one forward
   * message; image: `text` rendered by the host (`parts` are the forward nodes to fall back to) */
  mode: 'single' | 'sentences' | 'forward' | 'image'
  text: string
  parts: string[]
  media: Media[]
}

/** Longer answers go as a forward message even when an image is asked for (the picture would be huge). */
const MAX_IMAGE_CHARS = 8000

export type PlanSettings = Pick<DeliverySettings, 'markdown' | 'longAnswer' | 'longAnswerChars' | 'splitSentences'>

export function planDelivery (answer: string, d: PlanSettings, extra: readonly Media[] = []): DeliveryPlan {
  const found = extractMedia(stripReasoning(answer))
  let text = d.markdown === 'plain' ? markdownToPlain(found.text) : found.text
  text = text.replace(/\n{3,}/g, '\n\n').trim()
  const media = [...extra, ...found.media.filter((m) => !extra.some((x) => x.src === m.src))].slice(0, MAX_MEDIA)
  if (d.longAnswer !== 'off' && text.length > d.longAnswerChars) {
    const mode = d.longAnswer === 'image' && text.length > MAX_IMAGE_CHARS ? 'forward' : d.longAnswer
    return { mode, text, parts: splitNodes(text), media }
  }
  if (d.splitSentences && text) {
    const parts = splitSentences(text)
    if (parts.length > 1) return { mode: 'sentences', text, parts, media }
  }
  return { mode: 'single', text, parts: text ? [text] : [], media }
}
