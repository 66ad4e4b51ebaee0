// Texts of the web tools page (pages/web-tools.tsx), zh-CN and en; the settings' labels and help are the
// configuration schema's (form-engine.tsx). Merged into i18n.ts's dictionaries.
type Dict = Record<string, string>

export const webZh: Dict = {
  webTools: '网络工具',
  'wt.hint': '机器人的 web_search（联网搜索）和 fetch_url（读取网页正文）两个工具的设置；工具本身在“工具与技能”页的“网络”分类里开关。',
  'wt.card.providers': '搜索服务', 'wt.card.search': '搜索限制', 'wt.card.fetch': '读取网页',
  'wt.providersHint': '按“顺序”从小到大依次使用；一个服务出错、超时或所有密钥都被拒绝时换下一个。密钥轮流使用，被拒绝（401/403/429）的密钥暂停一段时间。',
  'wt.none': '还没有搜索服务：web_search 会告诉模型没有配置。', 'wt.add': '添加搜索服务',
  'wt.nameHelp': '字母、数字、- _ .，不能重复。',
  'wt.type.searxng': 'SearXNG（自建）', 'wt.type.tavily': 'Tavily', 'wt.type.bing': 'Bing 搜索 API v7', 'wt.type.brave': 'Brave 搜索 API',
  'wt.typeHelp.searxng': '自建的 SearXNG：需要填写地址，并在它的 settings.yml 的 search.formats 里加上 json；密钥可不填。',
  'wt.typeHelp.tavily': 'Tavily 搜索 API，需要密钥（tvly-…）。', 'wt.typeHelp.bing': '微软 Bing Web Search v7，需要订阅密钥。',
  'wt.typeHelp.brave': 'Brave Search API，需要订阅令牌。',
  'wt.baseUrl': '地址', 'wt.defaultUrl': '留空 = 官方地址', 'wt.baseUrlHelp': '留空使用官方接口地址；可以是局域网地址（由你配置，不做限制）。',
  'wt.key': '密钥', 'wt.order': '顺序', 'wt.orderHelp': '数字小的先用；相同时按列表顺序。', 'wt.enabledHelp': '关闭后不再使用这个服务。'
}

export const webEn: Dict = {
  webTools: 'Web tools',
  'wt.hint': 'Settings of the bot\'s web_search and fetch_url tools; the tools themselves are switched on the Tools & Skills page (category "web").',
  'wt.card.providers': 'Search providers', 'wt.card.search': 'Search limits', 'wt.card.fetch': 'Reading pages',
  'wt.providersHint': 'Used by their order, lowest first; when one fails, times out or refuses every key, the next one answers. Keys take turns; a key refused (401/403/429) rests for a while.',
  'wt.none': 'No search provider yet: web_search tells the model it is not configured.', 'wt.add': 'Add a provider',
  'wt.nameHelp': 'Letters, digits, - _ .; unique.',
  'wt.type.searxng': 'SearXNG (self-hosted)', 'wt.type.tavily': 'Tavily', 'wt.type.bing': 'Bing Web Search API v7', 'wt.type.brave': 'Brave Search API',
  'wt.typeHelp.searxng': 'Your own SearXNG: its address is required and its settings.yml must list json under search.formats; a key is optional.',
  'wt.typeHelp.tavily': 'The Tavily search API; needs a key (tvly-…).', 'wt.typeHelp.bing': 'Microsoft Bing Web Search v7; needs a subscription key.',
  'wt.typeHelp.brave': 'The Brave Search API; needs a subscription token.',
  'wt.baseUrl': 'Address', 'wt.defaultUrl': 'empty = the official API', 'wt.baseUrlHelp': 'Empty for the provider\'s official API; may be an address of your own network (your choice, not restricted).',
  'wt.key': 'Key', 'wt.order': 'Order', 'wt.orderHelp': 'Lower first; equal ones in list order.', 'wt.enabledHelp': 'Off: this provider is not used.'
}
