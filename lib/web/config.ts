// The `webTools` section (lib/web): web_search through providers tried in order, fetch_url with its
// limits. Not `web`: that section is the web server's (lib/config/web-server.ts). Every field has its
// default in zod. lib/config/README.md, "A domain's section".
import { z } from 'zod'
import { notReserved } from '../core/dict.js'
import { doc } from '../config/field-doc.js'

const webProviderSchema = z.strictObject({
  name: doc(z.string().regex(/^[\w\-.]{1,64}$/, 'letters, digits, - _ . (1-64 characters)').refine(...notReserved), ['Name', '名称']),
  type: doc(z.enum(['searxng', 'tavily', 'bing', 'brave']), ['Type', '类型']),
  /** '' = the provider's public API (SearXNG has none: its address is required) */
  baseUrl: doc(z.union([z.literal(''), z.url({ protocol: /^https?$/, error: 'must be a valid http(s) URL' })]).default(''), ['Address', '地址', '"" = the provider\'s public API (required for SearXNG).', '留空 = 服务商的公共接口（SearXNG 必填）。']),
  /** tried round-robin; a key answered 401/403/429 cools down for keyCooldownMs and the next is tried */
  apiKeys: doc(z.array(z.strictObject({
    name: doc(z.string().max(100).optional(), ['Key name', '密钥名称']),
    // a mask that matched no stored key (a key moved or its provider renamed) must not become the key
    key: doc(z.string().min(1).refine((k) => !k.includes('****'), 'a masked key that matches no stored key: type the key again'), ['Key', '密钥']),
    enabled: doc(z.boolean().default(true), ['Enabled', '启用'])
  })).default([]), ['API keys', 'API 密钥']),
  enabled: doc(z.boolean().default(true), ['Enabled', '启用']),
  /** lower first; equal orders keep the list order */
  order: doc(z.number().int().default(0), ['Order', '顺序', 'Lower first.', '数值小的先用。'])
}).superRefine((p, ctx) => {
  if (p.type === 'searxng' && !p.baseUrl) ctx.addIssue({ code: 'custom', path: ['baseUrl'], message: 'a SearXNG provider needs its address' })
})

const PROVIDERS_NOTE = [
  'Providers tried in order (lower `order` first, then as listed); when one fails (error, time-out, every key refused) the next answers. Each entry:',
  '  - name: my-searx        # letters, digits, - _ .',
  '    type: searxng         # searxng | tavily | bing | brave',
  '    baseUrl: http://127.0.0.1:8888   # "" = the provider\'s public API; required for SearXNG',
  '                          # (its settings.yml must list `json` under search.formats)',
  '    apiKeys:              # secrets: shown masked, kept out of logs and errors',
  '      - { name: main, key: "tvly-..." }',
  '    enabled: true',
  '    order: 0',
  'Keys are used round-robin; a key answered 401, 403 or 429 cools down keyCooldownMs and the next key is tried. Provider addresses are the master\'s choice, so a private one (a SearXNG on the LAN) is fine here; fetch_url\'s targets are checked (see fetch).'
].join('\n')

const webToolsSchema = doc(z.strictObject({
  search: doc(z.strictObject({
    providers: doc(z.array(webProviderSchema).default([]).superRefine((list, ctx) => {
      const seen = new Set<string>()
      list.forEach((p, i) => {
        if (seen.has(p.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `duplicate provider name ${p.name}` })
        seen.add(p.name)
      })
    }), ['Search providers', '搜索服务', 'Tried in order; when one fails the next answers.', '按顺序尝试；一个失败时由下一个回答。'], { note: PROVIDERS_NOTE }),
    /** results given to the model (the model may ask for fewer) */
    maxResults: doc(z.number().int().min(1).max(20).default(5), ['Most results', '最多结果数', 'Results given to the model per search (1-20).', '每次搜索交给模型的结果数上限（1-20）。']),
    /** characters of one result's snippet */
    snippetChars: doc(z.number().int().min(50).max(2000).default(300), ['Snippet length', '摘要字数', 'Characters of one result\'s snippet at most.', '每条结果摘要的最多字符数。']),
    /** time limit of one provider request */
    timeoutMs: doc(z.number().int().min(1000).max(120000).default(10000), ['Search time limit (ms)', '搜索超时（毫秒）', 'A provider slower than this is left for the next one.', '一个搜索服务的请求超过这个时间就换下一个。'], {
      note: 'Time limit of one provider request (ms): a provider slower than this is left for the next one.'
    }),
    keyCooldownMs: doc(z.number().int().min(0).max(3600000).default(60000), ['Key rest (ms)', '密钥暂停（毫秒）', 'A refused key goes last for this long.', '被拒绝的密钥在这段时间内排到最后。'])
  }).prefault({}), ['Web search', '网络搜索']),
  fetch: doc(z.strictObject({
    /** bytes of a page read at most (the rest is not downloaded) */
    maxBytes: doc(z.number().int().min(1024).max(20_000_000).default(2_000_000), ['Most bytes downloaded', '最多下载字节数', 'A larger page is read up to here, then the download stops.', '页面超过这个大小时只读取开头部分，然后断开。'], {
      note: 'Bytes of a page read at most: the download stops there and the text says it was cut.'
    }),
    /** characters of readable text given to the model */
    maxChars: doc(z.number().int().min(200).max(200000).default(12000), ['Most characters of text', '最多正文字数', 'Characters of the page\'s text given to the model.', '交给模型的正文字符数上限。']),
    /** time limit of the whole fetch (redirects and body included) */
    timeoutMs: doc(z.number().int().min(1000).max(120000).default(15000), ['Page time limit (ms)', '读取超时（毫秒）', 'For the whole fetch, redirects and body included.', '整个读取（包括跳转和正文）的时间上限。']),
    maxRedirects: doc(z.number().int().min(0).max(10).default(5), ['Most redirects', '最多跳转次数', 'Each redirect\'s target is checked again.', '每次跳转都会重新检查目标地址。']),
    /** allow loopback, private, link-local and other non-public addresses (off: refused) */
    allowPrivate: doc(z.boolean().default(false), ['Allow private addresses', '允许读取内网地址', 'Off (recommended): loopback, LAN, link-local and other non-public addresses are refused, also through names and redirects. On: the model may read pages of your own network.', '关闭（推荐）时拒绝本机、局域网、链路本地等非公网地址，包括解析到这些地址的域名和跳转。打开后模型可以读取你内网里的页面。'], {
      note: 'Off: loopback, private (10/8, 172.16/12, 192.168/16, fc00::/7), link-local, CGNAT (100.64/10), multicast, unspecified and reserved addresses are refused, in any spelling, also for names that resolve to them and for every redirect. On: the bot may read pages of your own network.'
    }),
    userAgent: doc(z.string().min(1).max(300).default('Mozilla/5.0 (compatible; lingxi-plugin; +fetch_url)'), ['User-Agent', 'User-Agent', 'The browser name sent when reading pages.', '读取网页时发送的浏览器标识。'])
  }).prefault({}), ['Page fetch', '网页读取'])
}), ['Web tools', '网络工具', 'web_search and fetch_url.', 'web_search 与 fetch_url。'], {
  note: 'Web tools (lib/web): web_search and fetch_url, tools of category web (switch them like any tool). Not the `web` section, which is the dashboard\'s web server.'
})
export const webToolsSection = webToolsSchema.prefault({})
