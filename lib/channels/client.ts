// Builds the `openai` client for one request on one channel with one key: custom path, header and
// body templates rendered with the request's placeholders (lib/templates/placeholders.ts). Clients are
// reused while everything they were built from renders the same (constructing one costs more than a
// localhost round trip); a template with per-request values simply gets a fresh client.
import type OpenAI from 'openai'
import type { ChannelConfig } from '../config/schema.js'
import { importOptional } from '../core/packages.js'
import { renderDeep, renderTemplate } from '../templates/placeholders.js'
import { normalizeErrorBody, streamErrorBody } from './error-body.js'
import { asksWholeAnswer } from './request-body.js'
import { channelFetch, loadUndici } from './fetch.js'
import type { ChannelKey } from './keys.js'

export interface TemplateContext {
  model: string
  userId?: string | undefined
  groupId?: string | undefined
  nickname?: string | undefined
}

export interface ChannelClient {
  client: OpenAI
  /** Rendered body template, merged over each request body. */
  extraBody: Record<string, unknown>
}

// The openai package (and undici, fetch.ts) is loaded with the first model request, not at plugin start
// (start time; and a package that may be missing is never imported at start, lib/core/packages.ts).
// Without one of them a model request fails as a channel error naming the package and its install.
type OpenAIModule = typeof import('openai')
let loading: Promise<OpenAIModule> | undefined
/** The loaded module once a client was built (error classes for classifying failures). */
export let openaiModule: OpenAIModule | undefined
function loadOpenAI (): Promise<OpenAIModule> {
  return (loading ??= Promise.all([importOptional('openai', () => import('openai')), loadUndici()]).then(
    ([m]) => (openaiModule = m),
    (err: unknown) => { loading = undefined; throw err } // tried again on the next request
  ))
}

const trimSlash = (s: string): string => s.replace(/\/+$/, '')

const CACHED_CLIENTS = 64
const clients = new Map<string, OpenAI>()

/** The URL a custom path points to: absolute URLs are used as they are, paths are appended to baseUrl. */
function customUrl (baseUrl: string, customPath: string): string {
  if (/^https?:\/\//i.test(customPath)) return customPath
  return `${trimSlash(baseUrl)}/${customPath.replace(/^\/+/, '')}`
}

const NO_EXTRA_BODY: Record<string, unknown> = Object.freeze({})

export async function buildClient (ch: ChannelConfig, key: ChannelKey | undefined, ctx: TemplateContext, now: number, timeoutMs: number): Promise<ChannelClient> {
  const { default: OpenAIClient } = openaiModule ?? await loadOpenAI()
  const base = trimSlash(ch.baseUrl)
  const apiKey = key?.key || 'none'
  const values: Record<string, unknown> = {
    apiKey: key?.key ?? '', model: ctx.model, baseUrl: ch.baseUrl, channel: ch.name,
    userId: ctx.userId ?? '', groupId: ctx.groupId ?? '', nickname: ctx.nickname ?? ''
  }
  const headers: Record<string, string> = {}
  for (const [k, v] of Object.entries(ch.headersTemplate)) headers[k] = renderTemplate(v, values, now)
  const path = ch.customPath ? renderTemplate(ch.customPath, values, now) : ''
  const cacheKey = JSON.stringify([base, apiKey, timeoutMs, headers, path])
  let client = clients.get(cacheKey)
  if (client) {
    clients.delete(cacheKey) // most recently used last
  } else {
    const fetchWithPath: typeof fetch = async (input, init) => {
      // The client always posts chat requests to `${baseURL}/chat/completions`; a custom path replaces that URL.
      const res = path && typeof input === 'string' && input.split('?')[0] === `${base}/chat/completions`
        ? await channelFetch(customUrl(ch.baseUrl, path), init)
        : await channelFetch(input, init)
      if (!res.ok) return await normalizeErrorBody(res)
      return asksWholeAnswer(init?.body) ? res : await streamErrorBody(res)
    }
    client = new OpenAIClient({ apiKey, baseURL: base, timeout: timeoutMs, maxRetries: 0, defaultHeaders: headers, fetch: fetchWithPath })
    if (clients.size >= CACHED_CLIENTS) clients.delete(clients.keys().next().value as string)
  }
  clients.set(cacheKey, client)
  // most channels have no body template: nothing to render
  return { client, extraBody: Object.keys(ch.bodyTemplate).length ? renderDeep(ch.bodyTemplate, values, now) : NO_EXTRA_BODY }
}
