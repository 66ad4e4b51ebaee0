// The optional OpenAI-compatible moderation API (moderation.endpoint): POST <baseUrl>/moderations
// {model, input}; a flagged result names its categories. A failure (network, status, timeout) lets
// the text pass with a warning in the log: the word lists still apply, and a moderation outage must
// not silence the bot. The key goes only into the Authorization header (and is a config secret:
// masked in answers, redacted from logs).
import { errorText } from '../core/errors.js'
import type { PluginLogger } from '../core/logger.js'
import { errorDetail, readLimited } from '../core/read-body.js'

/** A moderation result is a few hundred bytes for one text */
const MAX_ANSWER_BYTES = 1024 * 1024

export interface EndpointSettings { baseUrl: string; apiKey: string; model: string; timeoutMs: number }

/** The flagged categories (empty when the text passed or the call failed). */
export async function moderationCategories (ep: EndpointSettings, input: string, log: PluginLogger): Promise<string[]> {
  if (!ep.baseUrl) return []
  try {
    const res = await fetch(`${ep.baseUrl.replace(/\/+$/, '')}/moderations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(ep.apiKey ? { authorization: `Bearer ${ep.apiKey}` } : {}) },
      body: JSON.stringify({ ...(ep.model ? { model: ep.model } : {}), input }),
      signal: AbortSignal.timeout(ep.timeoutMs)
    })
    if (!res.ok) throw new Error(`HTTP ${res.status}: ${await errorDetail(res)}`)
    const text = (await readLimited(res, MAX_ANSWER_BYTES, () => new Error('the answer is larger than 1 MiB'))).toString('utf8')
    const body = JSON.parse(text) as { results?: Array<{ flagged?: boolean; categories?: Record<string, boolean> }> }
    const out: string[] = []
    for (const r of body.results ?? []) {
      if (!r.flagged) continue
      const cats = Object.entries(r.categories ?? {}).filter(([, v]) => v === true).map(([k]) => k)
      out.push(...(cats.length ? cats : ['flagged']))
    }
    return [...new Set(out)]
  } catch (err) {
    log.warn('The moderation endpoint failed; the text passes on the word lists alone', { error: errorText(err) })
    return []
  }
}
