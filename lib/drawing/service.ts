// Image presets: built-in (code), custom (drawing.json) and remote (fetched from image.remotePresetsUrl
// with a timeout; the last good copy stays in drawing.json when the source fails).
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import type { z } from 'zod'
import type { SectionPatch } from '../config/service.js'
import { AppError, errorText } from '../core/errors.js'
import { normalizeForMatch, normalizerGeneration, normalizeWord } from '../core/text-normalize.js'
import { Store } from '../core/store.js'
import type { Runtime } from '../runtime.js'
import { outboundAccess, outboundFetch } from '../web/outbound.js'
import { BUILTIN_IMAGE_PRESETS } from './builtin.js'
import { remotePreset, type imagePresetInput, type ImagePreset, type RemotePresets } from './types.js'

export interface DrawingData { custom: ImagePreset[]; remote: RemotePresets }

/** How long a remote source may take (ms). */
const REMOTE_TIMEOUT_MS = 10_000
const MAX_REMOTE_BYTES = 1024 * 1024

export interface PresetMatch { preset: ImagePreset; input: string }

// each preset's keywords normalised once (again when the normaliser's tables got loaded)
const normalizedKeywords = new WeakMap<ImagePreset, { generation: number; words: string[] }>()
function keywordsOf (preset: ImagePreset): string[] {
  const generation = normalizerGeneration()
  let entry = normalizedKeywords.get(preset)
  if (!entry || entry.generation !== generation) {
    entry = { generation, words: preset.keywords.map((k) => (k ? normalizeWord(k) : '')) }
    normalizedKeywords.set(preset, entry)
  }
  return entry.words
}

export class DrawingService {
  private refreshing: Promise<RemotePresets> | undefined

  private constructor (private readonly rt: Runtime, private readonly store: Store<DrawingData>) {}

  static async open (rt: Runtime): Promise<DrawingService> {
    const store = await Store.open<DrawingData>(join(rt.paths.dataDir, 'drawing.json'), {
      custom: [],
      remote: { url: '', presets: [], updatedAt: null, lastAttemptAt: null, error: null }
    }, { log: rt.log, pretty: true })
    return new DrawingService(rt, store)
  }

  private now (): string { return new Date(this.rt.clock.now()).toISOString() }

  /** Changes the `image` section (the drawing switches; the API entries through setApis). */
  async updateConfig (patch: Omit<SectionPatch<'image'>, 'apis'>): Promise<void> {
    await this.rt.config.writer('image').update(patch)
  }

  /** Replaces the image API entries (image.apis). */
  async setApis (list: Array<Record<string, unknown>>): Promise<void> {
    await this.rt.config.writer('image').update({ apis: list })
  }

  all (): { builtin: ImagePreset[]; custom: ImagePreset[]; remote: RemotePresets } {
    return { builtin: structuredClone([...BUILTIN_IMAGE_PRESETS]), custom: structuredClone(this.store.data.custom), remote: structuredClone(this.store.data.remote) }
  }

  async addCustom (input: z.output<typeof imagePresetInput>): Promise<ImagePreset> {
    const p: ImagePreset = { uid: `custom-${randomUUID().slice(0, 8)}`, keywords: input.keywords, needImage: input.needImage, prompt: input.prompt, ...(input.name ? { name: input.name } : {}) }
    await this.store.update((d) => { d.custom.push(p) })
    return p
  }

  async removeCustom (uid: string): Promise<void> {
    if (!this.store.data.custom.some((p) => p.uid === uid)) throw new AppError('NOT_FOUND', 'Image preset not found')
    await this.store.update((d) => { d.custom = d.custom.filter((p) => p.uid !== uid) })
  }

  /** Fetches the remote source; concurrent calls share one fetch. Failure keeps the last good copy. */
  refreshRemote (timeoutMs = REMOTE_TIMEOUT_MS): Promise<RemotePresets> {
    this.refreshing ??= this.fetchRemote(timeoutMs).finally(() => { this.refreshing = undefined })
    return this.refreshing
  }

  private async fetchRemote (timeoutMs: number): Promise<RemotePresets> {
    const url = this.rt.config.get().image.remotePresetsUrl
    if (!url) throw new AppError('INVALID_ARGS', 'image.remotePresetsUrl is not set')
    try {
      // the source is the master's setting, but its host (and any redirect) may lead anywhere: the outbound fetcher's rules
      const res = await outboundFetch(url, { headers: { accept: 'application/json' }, maxBytes: MAX_REMOTE_BYTES, tooLarge: () => new Error('response too large'), timeoutMs }, outboundAccess(this.rt.config.get()))
      if (!res.ok) throw new Error(`HTTP ${res.status}`)
      const text = res.body.toString('utf8')
      const presets = parseRemote(JSON.parse(text) as unknown)
      await this.store.update((d) => { d.remote = { url, presets, updatedAt: this.now(), lastAttemptAt: this.now(), error: null } })
      this.rt.log.info('Remote image presets refreshed', { count: presets.length })
      return structuredClone(this.store.data.remote)
    } catch (err) {
      const msg = (err instanceof Error && err.name === 'TimeoutError') || (err instanceof AppError && err.code === 'TIMEOUT') ? `timed out after ${timeoutMs} ms` : errorText(err)
      await this.store.update((d) => { d.remote = { ...d.remote, lastAttemptAt: this.now(), error: msg } })
      this.rt.log.warn('Remote image presets could not be fetched; keeping the last good copy', { error: msg })
      throw new AppError('CONNECTION_FAILED', `Remote presets could not be fetched: ${msg}`)
    }
  }

  /**
   * The preset a message starts with (custom, then remote, then built-in; longest keyword wins).
   * Keywords match the normalised message, as moderation words and trigger keywords do
   * (lib/core/text-normalize.ts: full-width, traditional, zero-width and separated spellings); the
   * input is the rest of the message as the user wrote it.
   */
  match (text: string): PresetMatch | undefined {
    const t = text.trim().replace(/^[#＃]/, '')
    const n = normalizeForMatch(t)
    const lists = [this.store.data.custom, this.store.data.remote.presets, BUILTIN_IMAGE_PRESETS]
    let best: { preset: ImagePreset; kw: string } | undefined
    for (const list of lists) {
      for (const preset of list) {
        for (const kw of keywordsOf(preset)) {
          if (kw && n.text.startsWith(kw) && (!best || kw.length > best.kw.length)) best = { preset, kw }
        }
      }
      if (best) break
    }
    if (!best) return undefined
    // where the keyword's last unit ends in the original text
    const end = n.to[best.kw.length - 1] ?? t.length
    return { preset: best.preset, input: t.slice(end).trim() }
  }
}

/** Accepts `[...]`, `{presets: [...]}` or `{data: [...]}`; invalid entries are skipped. */
function parseRemote (doc: unknown): ImagePreset[] {
  const list = Array.isArray(doc) ? doc : (doc && typeof doc === 'object' ? ((doc as { presets?: unknown }).presets ?? (doc as { data?: unknown }).data) : undefined)
  if (!Array.isArray(list)) throw new Error('expected a JSON array of presets')
  const out: ImagePreset[] = []
  list.forEach((raw, i) => {
    const r = remotePreset.safeParse(raw)
    if (!r.success) return
    const { uid, name, ...rest } = r.data
    out.push({ uid: uid ?? `remote-${i}`, ...rest, ...(name ? { name } : {}) })
  })
  if (list.length > 0 && out.length === 0) throw new Error('no valid preset in the source')
  return out
}
