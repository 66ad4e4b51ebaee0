// The web search providers behind web_search, one entry per type: how a query becomes a request
// (URL, headers, key placement) and how the provider's JSON answer becomes {title, url, snippet}.
// SearXNG: GET <base>/search?format=json (JSON output must be enabled in its settings.yml; a key,
// when given, goes as a Bearer token for a proxy in front). Tavily: POST <base>/search, Bearer key.
// Bing Web Search v7: GET <base>/v7.0/search, Ocp-Apim-Subscription-Key. Brave: GET
// <base>/res/v1/web/search, X-Subscription-Token.
export type ProviderType = 'searxng' | 'tavily' | 'bing' | 'brave'

export interface SearchResult { title: string; url: string; snippet: string }

interface ProviderRequest { url: string; method: 'GET' | 'POST'; headers: Record<string, string>; body?: string }

interface ProviderKind {
  /** Keyless providers are tried once without a key when none is configured. */
  needsKey: boolean
  defaultBaseUrl: string
  build(base: string, key: string | undefined, query: string, count: number): ProviderRequest
  parse(json: unknown): SearchResult[]
}

const rec = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : {})
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])
const s = (v: unknown): string => (typeof v === 'string' ? v : '')
const trimSlash = (base: string): string => base.replace(/\/+$/, '')

function results (items: unknown[], title: string, url: string, snippet: string): SearchResult[] {
  return items.map((it) => {
    const r = rec(it)
    return { title: s(r[title]), url: s(r[url]), snippet: s(r[snippet]) }
  }).filter((r) => /^https?:\/\//i.test(r.url))
}

const JSON_ACCEPT = { accept: 'application/json' }

export const PROVIDERS: Record<ProviderType, ProviderKind> = {
  searxng: {
    needsKey: false,
    defaultBaseUrl: '',
    build: (base, key, query) => ({
      url: `${trimSlash(base)}/search?${new URLSearchParams({ q: query, format: 'json' }).toString()}`,
      method: 'GET',
      headers: { ...JSON_ACCEPT, ...(key ? { authorization: `Bearer ${key}` } : {}) }
    }),
    parse: (json) => results(list(rec(json).results), 'title', 'url', 'content')
  },
  tavily: {
    needsKey: true,
    defaultBaseUrl: 'https://api.tavily.com',
    build: (base, key, query, count) => ({
      url: `${trimSlash(base)}/search`,
      method: 'POST',
      headers: { ...JSON_ACCEPT, 'content-type': 'application/json', authorization: `Bearer ${key ?? ''}` },
      body: JSON.stringify({ query, max_results: count, search_depth: 'basic' })
    }),
    parse: (json) => results(list(rec(json).results), 'title', 'url', 'content')
  },
  bing: {
    needsKey: true,
    defaultBaseUrl: 'https://api.bing.microsoft.com',
    build: (base, key, query, count) => ({
      url: `${trimSlash(base)}/v7.0/search?${new URLSearchParams({ q: query, count: String(count), responseFilter: 'Webpages', textDecorations: 'false' }).toString()}`,
      method: 'GET',
      headers: { ...JSON_ACCEPT, 'ocp-apim-subscription-key': key ?? '' }
    }),
    parse: (json) => results(list(rec(rec(json).webPages).value), 'name', 'url', 'snippet')
  },
  brave: {
    needsKey: true,
    defaultBaseUrl: 'https://api.search.brave.com',
    build: (base, key, query, count) => ({
      url: `${trimSlash(base)}/res/v1/web/search?${new URLSearchParams({ q: query, count: String(count) }).toString()}`,
      method: 'GET',
      headers: { ...JSON_ACCEPT, 'x-subscription-token': key ?? '' }
    }),
    parse: (json) => results(list(rec(rec(json).web).results), 'title', 'url', 'description')
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'", nbsp: ' ' }

/** Plain text of a snippet: Brave and SearXNG engines mark matches with <strong>/<b> and entities. */
export function plainSnippet (text: string, max: number): string {
  const plain = text.replace(/<[^>]*>/g, '').replace(/&(amp|lt|gt|quot|apos|#39|nbsp);/g, (_m, e: string) => ENTITIES[e] ?? '')
    .replace(/\s+/g, ' ').trim()
  return plain.length > max ? `${plain.slice(0, max - 1)}…` : plain
}
