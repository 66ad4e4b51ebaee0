// Voice messages: the audio of a `record` segment (an http(s) URL, a file path the host gives, or
// base64://) is sent to an OpenAI-compatible `<baseUrl>/audio/transcriptions` (input.transcription)
// and the text comes back. Size and time are bounded; every failure is an AppError for the caller.
import { stat, readFile } from 'node:fs/promises'
import { basename, extname, isAbsolute } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Config } from '../config/schema.js'
import { AppError, errorText } from '../core/errors.js'
import { importOptional } from '../core/packages.js'
import type { Seg } from '../host/types.js'
import { outboundFetch, type OutboundAccess } from '../web/outbound.js'

const MAX_AUDIO_BYTES = 20 * 1024 * 1024
const TRANSCRIBE_TIMEOUT_MS = 60_000
/** Files the host names are read only when they look like audio (QQ voice is silk/amr). */
const AUDIO_EXT = new Set(['.amr', '.silk', '.slk', '.mp3', '.wav', '.ogg', '.oga', '.opus', '.m4a', '.aac', '.flac', '.webm', '.mp4', '.mpga', '.mpeg', '.pcm'])

interface Audio { data: Buffer; name: string }

/** The openai package, loaded with the first voice message (it may be missing: lib/core/packages.ts). */
async function loadOpenAI (): Promise<typeof import('openai')> {
  try {
    return await importOptional('openai', () => import('openai'))
  } catch (err) {
    throw new AppError('SERVICE_UNAVAILABLE', `Transcription is unavailable: ${errorText(err)}`)
  }
}

const tooLarge = (): AppError => new AppError('INVALID_ARGS', `The voice message is larger than ${MAX_AUDIO_BYTES / 1048576} MB`)

/** A voice URL from the message: through the outbound fetcher (public addresses only, redirects checked). */
async function download (url: string, signal: AbortSignal, access: OutboundAccess): Promise<Buffer> {
  const res = await outboundFetch(url, { maxBytes: MAX_AUDIO_BYTES, tooLarge, timeoutMs: TRANSCRIBE_TIMEOUT_MS, signal }, access)
  if (!res.ok) throw new AppError('INVALID_ARGS', `Could not download the voice message: HTTP ${res.status}`)
  return res.body
}

/** A file the host wrote (icqq, a local protocol implementation): absolute, a regular audio file. */
async function hostFile (path: string): Promise<Buffer | undefined> {
  const p = path.startsWith('file://') ? fileURLToPath(path) : path
  if (!isAbsolute(p) || !AUDIO_EXT.has(extname(p).toLowerCase())) return undefined
  const st = await stat(p).catch(() => undefined)
  if (!st?.isFile()) return undefined
  if (st.size > MAX_AUDIO_BYTES) throw tooLarge()
  return await readFile(p)
}

/** The audio of a record segment; the name keeps the source's extension (the endpoint reads the format from it). */
async function loadAudio (seg: Seg, signal: AbortSignal, access: OutboundAccess): Promise<Audio> {
  const sources = [seg.url, seg.path, seg.file].filter((v): v is string => typeof v === 'string' && v !== '')
  let refused: AppError | undefined
  for (const src of sources) {
    const named = (fallback: string): string => {
      const ext = extname(src.split('?')[0] ?? '').toLowerCase()
      return AUDIO_EXT.has(ext) ? `voice${ext}` : fallback
    }
    if (src.startsWith('base64://')) {
      const data = Buffer.from(src.slice('base64://'.length), 'base64')
      if (data.length > MAX_AUDIO_BYTES) throw tooLarge()
      if (data.length) return { data, name: 'voice.amr' }
      continue
    }
    if (/^https?:\/\//i.test(src)) {
      try {
        return { data: await download(src, signal, access), name: named('voice.amr') }
      } catch (err) {
        // a refused address (a protocol implementation serving its files on loopback): the file path it gives may still do
        if (!(err instanceof AppError && err.code === 'FORBIDDEN')) throw err
        refused = err
        continue
      }
    }
    const data = await hostFile(src)
    if (data) return { data, name: basename(named('voice.amr')) }
  }
  throw refused ?? new AppError('INVALID_ARGS', 'The voice message has no readable audio source')
}

/** The text of a voice message through the configured transcription endpoint. */
export async function transcribe (cfg: Config['input']['transcription'], seg: Seg, access: OutboundAccess): Promise<string> {
  const signal = AbortSignal.timeout(TRANSCRIBE_TIMEOUT_MS)
  const audio = await loadAudio(seg, signal, access)
  if (!audio.data.length) throw new AppError('INVALID_ARGS', 'The voice message is empty')
  const { default: OpenAI, toFile } = await loadOpenAI()
  const client = new OpenAI({ apiKey: cfg.apiKey || 'none', baseURL: cfg.baseUrl.replace(/\/+$/, ''), timeout: TRANSCRIBE_TIMEOUT_MS, maxRetries: 0 })
  try {
    const res = await client.audio.transcriptions.create({ file: await toFile(audio.data, audio.name), model: cfg.model }, { signal })
    return res.text.trim()
  } catch (err) {
    if (signal.aborted) throw new AppError('TIMEOUT', 'The transcription did not answer in time')
    throw new AppError('MODEL_ERROR', `Transcription failed: ${errorText(err)}`.slice(0, 300))
  }
}
