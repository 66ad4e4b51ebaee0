// web_search behind one interface: the configured providers tried in order, each with its keys
// rotated round-robin (KeyPool, as the model channels do); a key refused with 401/403/429 cools down
// and the next key is tried, any other failure (5xx, time-out, unreadable answer) moves on to the next
// provider. Results are bounded (count, characters). Error texts name the provider and the status,
// never a key, and pass the redactor (an upstream echoing a key shows a mask).
import { KeyPool, type ChannelKey } from '../channels/keys.js'
import type { Clock } from '../core/clock.js'
import { AppError, errorText } from '../core/errors.js'
import { readLimited } from '../core/read-body.js'
import { redact } from '../core/redact.js'
import type { WebToolsConfig } from '../config/schema.js'
import { PROVIDERS, plainSnippet, type SearchResult } from './providers.js'

type SearchSettings = WebToolsConfig['search']
type ProviderConfig = SearchSettings['providers'][number]

export interface SearchOutcome {
  /** The provider that answered. */
  provider: string
  results: SearchResult[]
  /** Failures before that answer (provider, key name, status), for the log and the model. */
  failures: string[]
}

/** Largest provider answer read (bytes); a bigger one is refused as unreadable. */
const MAX_ANSWER_BYTES = 4_000_000
const TITLE_CHARS = 200
const URL_CHARS = 2000
const KEY_STATUSES = new Set([401, 403, 429])

class ProviderFailure extends Error {
  constructor (message: string, readonly keyRefused = false) { super(message) }
}

/** The providers in the order to try them: enabled, lower `order` first, then list order. */
function ordered (providers: ProviderConfig[]): ProviderConfig[] {
  return providers.map((p, i) => ({ p, i })).filter(({ p }) => p.enabled)
    .sort((a, b) => a.p.order - b.p.order || a.i - b.i).map(({ p }) => p)
}

function keysOf (p: ProviderConfig): ChannelKey[] {
  const out: ChannelKey[] = []
  p.apiKeys.forEach((k, i) => { if (k.enabled) out.push({ name: k.name || `key-${i + 1}`, index: out.length, key: k.key }) })
  return out
}

/** A provider that needs a key and has none cannot be asked. */
const keyless = (p: ProviderConfig, keys: ChannelKey[]): boolean => PROVIDERS[p.type].needsKey && keys.length === 0

/**
 * Whether a search can be tried at all: an enabled provider that needs no key or has one. The tool is
 * offered to the model only then (lib/tools/builtin/web.ts): asked on every chat turn, so no sorting.
 */
export function searchConfigured (settings: SearchSettings): boolean {
  return settings.providers.some((p) => p.enabled && !keyless(p, keysOf(p)))
}

export class WebSearch {
  private readonly pool: KeyPool

  constructor (private readonly clock: Clock) {
    this.pool = new KeyPool(clock)
  }

  /** Searches `query`; throws SERVICE_UNAVAILABLE (no provider) or CONNECTION_FAILED (all failed). */
  async search (query: string, count: number, settings: SearchSettings, signal?: AbortSignal): Promise<SearchOutcome> {
    const providers = ordered(settings.providers)
    if (providers.length === 0) throw new AppError('SERVICE_UNAVAILABLE', 'No web search provider is configured (webTools.search.providers)')
    const n = Math.max(1, Math.min(Math.floor(count) || settings.maxResults, settings.maxResults))
    const failures: string[] = []
    for (const p of providers) {
      const kind = PROVIDERS[p.type]
      const keys = keysOf(p)
      if (keyless(p, keys)) { failures.push(`${p.name}: no API key`); continue }
      const attempts: Array<ChannelKey | undefined> = keys.length ? this.pool.order(p.name, keys) : [undefined]
      for (const key of attempts) {
        if (signal?.aborted) throw new AppError('TIMEOUT', 'Aborted')
        try {
          const raw = await this.request(p, key?.key, query, n, settings.timeoutMs, signal)
          if (key) this.pool.release(p.name, key)
          return { provider: p.name, results: this.bound(kind.parse(raw), n, settings.snippetChars), failures }
        } catch (err) {
          const f = err instanceof ProviderFailure ? err : new ProviderFailure(errorText(err))
          failures.push(redact(`${p.name}${key ? ` (${key.name})` : ''}: ${f.message}`))
          if (!f.keyRefused) break // the provider itself failed: the next provider, not the next key
          if (key) this.pool.cooldown(p.name, key, settings.keyCooldownMs)
        }
      }
    }
    throw new AppError('CONNECTION_FAILED', `Every web search provider failed: ${failures.join('; ')}`)
  }

  private bound (results: SearchResult[], n: number, snippetChars: number): SearchResult[] {
    return results.slice(0, n).map((r) => ({
      title: plainSnippet(r.title, TITLE_CHARS),
      url: r.url.slice(0, URL_CHARS),
      snippet: plainSnippet(r.snippet, snippetChars)
    }))
  }

  private async request (p: ProviderConfig, key: string | undefined, query: string, count: number, timeoutMs: number, signal?: AbortSignal): Promise<unknown> {
    const kind = PROVIDERS[p.type]
    const req = kind.build(p.baseUrl || kind.defaultBaseUrl, key, query, count)
    const controller = new AbortController()
    let timedOut = false
    const timer = this.clock.setTimeout(() => { timedOut = true; controller.abort() }, timeoutMs)
    const onAbort = (): void => controller.abort()
    signal?.addEventListener('abort', onAbort, { once: true })
    try {
      const res = await fetch(req.url, { method: req.method, headers: req.headers, body: req.body, signal: controller.signal, redirect: 'error' })
      if (!res.ok) {
        await res.body?.cancel().catch(() => undefined)
        throw new ProviderFailure(`HTTP ${res.status}`, KEY_STATUSES.has(res.status))
      }
      const text = (await readLimited(res, MAX_ANSWER_BYTES, () => new ProviderFailure('the answer is too large'))).toString('utf8')
      try { return JSON.parse(text) as unknown } catch { throw new ProviderFailure('the answer is not JSON') }
    } catch (err) {
      if (timedOut) throw new ProviderFailure(`no answer within ${timeoutMs} ms`)
      if (err instanceof ProviderFailure) throw err
      throw new ProviderFailure(`unreachable (${errorText(err instanceof Error && err.cause instanceof Error ? err.cause : err)})`)
    } finally {
      this.clock.clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
    }
  }
}

