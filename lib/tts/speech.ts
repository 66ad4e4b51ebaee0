// One speech synthesis: the text to an OpenAI-compatible `<baseUrl>/audio/speech` (JSON: model, input,
// voice, response_format, speed) and the audio bytes back. Bounded in time (tts.timeoutMs, on the given
// clock: tests fake it) and size; every failure is an AppError whose text passes the redactor (an
// endpoint echoing the key shows none).
import { systemClock, type Clock } from '../core/clock.js'
import { AppError, errorText } from '../core/errors.js'
import { errorDetail, readLimited } from '../core/read-body.js'
import type { TtsSettings } from '../config/schema.js'

/** What QQ takes as one voice message at most (TRSS's OneBot adapter reads up to 10 MB). */
const MAX_AUDIO_BYTES = 10 * 1024 * 1024
/** The longest text sent to the endpoint (OpenAI's limit). */
const MAX_SPEECH_CHARS = 4096

export interface Voice { voice: string; speed: number }

type Endpoint = Pick<TtsSettings, 'baseUrl' | 'apiKey' | 'model' | 'format' | 'timeoutMs'>

/** The audio of `text` spoken with `voice`. */
export async function synthesize (cfg: Endpoint, text: string, voice: Voice, clock: Pick<Clock, 'setTimeout' | 'clearTimeout'> = systemClock): Promise<Buffer> {
  if (!cfg.baseUrl) throw new AppError('SERVICE_UNAVAILABLE', 'No speech endpoint is set (tts.baseUrl)')
  const input = text.trim().slice(0, MAX_SPEECH_CHARS)
  if (!input) throw new AppError('INVALID_ARGS', 'Nothing to speak')
  const abort = new AbortController()
  const timer = clock.setTimeout(() => abort.abort(), cfg.timeoutMs)
  try {
    return await request(cfg, input, voice, abort.signal)
  } finally {
    clock.clearTimeout(timer)
  }
}

async function request (cfg: Endpoint, input: string, voice: Voice, signal: AbortSignal): Promise<Buffer> {
  let res: Response
  try {
    res = await fetch(`${cfg.baseUrl.replace(/\/+$/, '')}/audio/speech`, {
      method: 'POST',
      signal,
      headers: { 'Content-Type': 'application/json', ...(cfg.apiKey ? { Authorization: `Bearer ${cfg.apiKey}` } : {}) },
      body: JSON.stringify({ model: cfg.model, input, voice: voice.voice, response_format: cfg.format, speed: voice.speed })
    })
  } catch (err) {
    if (signal.aborted) throw new AppError('TIMEOUT', `The speech endpoint did not answer within ${cfg.timeoutMs} ms`)
    throw new AppError('CONNECTION_FAILED', `The speech endpoint could not be reached: ${errorText(err)}`)
  }
  try {
    if (!res.ok) {
      const detail = await errorDetail(res)
      throw new AppError('MODEL_ERROR', `The speech endpoint answered HTTP ${res.status}${detail ? `: ${detail}` : ''}`)
    }
    const type = res.headers.get('content-type') ?? ''
    if (/json|text\//i.test(type)) throw new AppError('MODEL_ERROR', `The speech endpoint answered ${type.split(';')[0] ?? type}, not audio`)
    const audio = await readLimited(res, MAX_AUDIO_BYTES, () => new AppError('MODEL_ERROR', 'The speech endpoint answered more than 10 MB of audio'))
    if (!audio.length) throw new AppError('MODEL_ERROR', 'The speech endpoint answered no audio')
    return audio
  } catch (err) {
    if (signal.aborted) throw new AppError('TIMEOUT', `The speech endpoint did not answer within ${cfg.timeoutMs} ms`)
    throw err
  }
}
