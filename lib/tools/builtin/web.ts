// Category `web`: web_search (the providers of webTools.search, lib/web/search.ts) and fetch_url (the
// readable text of a page, lib/web/fetch-page.ts; non-public addresses refused unless
// webTools.fetch.allowPrivate). Settings are read on each call, so a dashboard change applies at once.
// web_search is offered only while a provider can be tried (none is configured by default): a tool that
// can only fail costs every request its definition and tempts the model into promising a search.
// fetch_url likewise only while the packages reading pages are installed (webFetchOff, lib/core/packages.ts).
import { AppError, errorText } from '../../core/errors.js'
import type { Runtime } from '../../runtime.js'
import { fetchPage } from '../../web/fetch-page.js'
import { systemResolver } from '../../web/pinned-lookup.js'
import { searchConfigured, WebSearch } from '../../web/search.js'
import { featureOff, str, text, type BuiltinTool } from './util.js'

const failed = (err: unknown): ReturnType<typeof text> =>
  text(err instanceof AppError ? err.message : 'The request failed', true)

/** Why fetch_url cannot work now (a package missing), or undefined: the one check, for offering it and for a call that comes anyway. */
const webFetchOff = (): string | undefined => featureOff('webFetch', 'Reading web pages is')

export function webTools (rt: Runtime): BuiltinTool[] {
  const search = new WebSearch(rt.clock)
  return [
    {
      name: 'web_search',
      description: '在互联网上搜索，返回标题、链接和摘要 (search the web: title, URL and snippet of each result; use fetch_url to read a result)',
      category: 'web',
      risk: 'low',
      dangerous: false,
      offeredIn: () => searchConfigured(rt.config.get().webTools.search),
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'what to search for' },
          count: { type: 'number', description: 'how many results (default and most: the configured maximum)' }
        },
        required: ['query']
      },
      execute: async (args, ctx) => {
        const query = str(args.query)?.slice(0, 400)
        if (!query) return text('query is required', true)
        const settings = rt.config.get().webTools.search
        try {
          const out = await search.search(query, typeof args.count === 'number' ? args.count : settings.maxResults, settings, ctx.signal)
          if (out.failures.length) rt.log.warn(`web_search: answered by ${out.provider} after ${out.failures.join('; ')}`)
          if (out.results.length === 0) return text(`No results for "${query}"`)
          return text({ query, provider: out.provider, results: out.results })
        } catch (err) {
          rt.log.warn(`web_search failed: ${errorText(err)}`)
          return failed(err)
        }
      }
    },
    {
      name: 'fetch_url',
      description: '读取网页的正文文字（去掉导航、脚本等） (read the main text of a web page: HTML, plain text or JSON; navigation and scripts left out)',
      category: 'web',
      risk: 'medium',
      dangerous: false,
      readOnly: true,
      offeredIn: () => webFetchOff() === undefined,
      inputSchema: {
        type: 'object',
        properties: { url: { type: 'string', description: 'http(s) URL of the page' } },
        required: ['url']
      },
      execute: async (args, ctx) => {
        const off = webFetchOff()
        if (off) return text(off, true)
        const url = str(args.url)
        if (!url) return text('url is required', true)
        const limits = rt.config.get().webTools.fetch
        try {
          const page = await fetchPage(url, limits, { clock: rt.clock, resolver: systemResolver, signal: ctx.signal, allowPrivateHosts: rt.config.get().web.allowPrivateHosts })
          const cut = page.text.length > limits.maxChars
          const body = cut ? page.text.slice(0, limits.maxChars) : page.text
          const notes = [
            page.truncated ? `[the page is larger than ${limits.maxBytes} bytes: only its beginning was read]` : '',
            cut ? `[text cut at ${limits.maxChars} characters]` : ''
          ].filter(Boolean)
          return text([`URL: ${page.url}`, page.title ? `Title: ${page.title}` : '', '', body || '(no readable text)', ...notes].filter((l, i) => l !== '' || i === 2).join('\n'))
        } catch (err) {
          return failed(err)
        }
      }
    }
  ]
}
