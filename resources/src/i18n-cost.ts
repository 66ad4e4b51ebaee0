// Texts of the cost page (pages/cost.tsx) and the channel budget fields, zh-CN and en. Merged into
// i18n.ts's dictionaries.
type Dict = Record<string, string>

export const costZh: Dict = {
  cost: '费用',
  'co.hint': '按模型价格（每百万 Tokens）把记录的用量换算成费用。价格对全部记录生效，包括设置价格之前的用量；没有价格的模型不计费（显示为“未定价”，不是 0）；旧版本只记录了 Tokens 总数的用量无法计费，计入“未计费 Tokens”。',
  'co.prices': '价格表', 'co.currency': '货币', 'co.currencyHelp': '整张价格表和渠道月预算使用的货币，例如 CNY、USD、¥。',
  'co.timezone': '时区', 'co.timezoneHelp': '月预算按这个时区的自然月计算，例如 Asia/Shanghai；留空使用服务器时区。',
  'co.model': '模型', 'co.modelHelp': '完整模型名，或带 * 的模式（如 deepseek-*）。先按完整名匹配，再按最长的模式匹配，不区分大小写。',
  'co.input': '输入价格', 'co.output': '输出价格', 'co.cachedInput': '缓存输入价格', 'co.cachedHelp': '可不填：命中服务商缓存的输入 Tokens 按输入价格计。',
  'co.perMillion': '价格单位：每百万 Tokens。', 'co.addPrice': '添加价格', 'co.noPrices': '还没有价格：所有费用都显示为未定价。',
  'co.usage': '费用统计', 'co.total': '总费用', 'co.unpriced': '未计费 Tokens', 'co.none': '未定价', 'co.daily': '每日费用',
  'co.byModel': '按模型', 'co.byChannel': '按渠道', 'co.byGroup': '按群', 'co.byUser': '按用户', 'co.pricedAs': '价格来源',
  'co.inputTokens': '输入 Tokens', 'co.outputTokens': '输出 Tokens', 'co.cachedTokens': '缓存 Tokens',
  'co.cache': '缓存命中', 'co.cacheLine': '缓存命中 {share}，节省 {saved}', 'co.date': '日期', 'co.requests': '请求数',
  'co.thisMonth': '本月花费', 'co.budget': '月预算', 'co.noBudget': '无预算', 'co.exhausted': '预算已用完，本月不再使用',
  'co.monthlyBudget': '月预算（0 为不限）', 'co.monthlyBudgetHelp': '本月费用达到这个数（价格表的货币）后不再使用这个渠道，改用下一个渠道；下个月自动恢复。只计算有价格的模型。'
}

export const costEn: Dict = {
  cost: 'Cost',
  'co.hint': 'Recorded usage priced by the models\' prices (per million tokens). Prices apply to all records, also usage from before a price was set; a model without a price costs nothing known (shown as "unpriced", not 0); usage recorded by older versions, which kept only token totals, cannot be priced and counts as unpriced tokens.',
  'co.prices': 'Price table', 'co.currency': 'Currency', 'co.currencyHelp': 'The one currency of the table and of the channels\' monthly budgets, e.g. CNY, USD, ¥.',
  'co.timezone': 'Timezone', 'co.timezoneHelp': 'Monthly budgets follow the calendar month of this timezone, e.g. Asia/Shanghai; empty: the server\'s.',
  'co.model': 'Model', 'co.modelHelp': 'A full model name or a pattern with * (e.g. deepseek-*). The full name wins, then the longest pattern; letter case is ignored.',
  'co.input': 'Input price', 'co.output': 'Output price', 'co.cachedInput': 'Cached input price', 'co.cachedHelp': 'Optional: input tokens served from the provider\'s cache cost the input price without it.',
  'co.perMillion': 'Prices are per million tokens.', 'co.addPrice': 'Add a price', 'co.noPrices': 'No prices yet: every cost shows as unpriced.',
  'co.usage': 'Spending', 'co.total': 'Total cost', 'co.unpriced': 'Unpriced tokens', 'co.none': 'unpriced', 'co.daily': 'Cost per day',
  'co.byModel': 'By model', 'co.byChannel': 'By channel', 'co.byGroup': 'By group', 'co.byUser': 'By user', 'co.pricedAs': 'Priced as',
  'co.inputTokens': 'Input tokens', 'co.outputTokens': 'Output tokens', 'co.cachedTokens': 'Cached tokens',
  'co.cache': 'From cache', 'co.cacheLine': '{share} of input from cache, saved {saved}', 'co.date': 'Date', 'co.requests': 'Requests',
  'co.thisMonth': 'This month', 'co.budget': 'Monthly budget', 'co.noBudget': 'no budget', 'co.exhausted': 'budget spent: not used this month',
  'co.monthlyBudget': 'Monthly budget (0: none)', 'co.monthlyBudgetHelp': 'Once this month\'s cost reaches this (in the price table\'s currency) the channel is not used and the next one answers; it comes back next month. Only priced models count.'
}
