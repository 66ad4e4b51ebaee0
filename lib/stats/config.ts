// The `pricing` section: what model calls cost (lib/stats/cost.ts), prices per million tokens in one
// currency, applied to the recorded usage (/api/stats/*) and to the channels' monthly budgets
// (channels[].monthlyBudget). lib/config/README.md, "A domain's section".
import { z } from 'zod'
import { doc, sectionDefaults } from '../config/field-doc.js'

/** An IANA timezone name Intl knows. */
function knownTimeZone (tz: string): boolean {
  try { new Intl.DateTimeFormat('en-US', { timeZone: tz }); return true } catch { return false }
}

const pricing = doc(z.strictObject({
  currency: doc(z.string().trim().min(1).max(10), ['Currency', '货币', 'Any short code or sign: USD, CNY, ¥ ...', '任意简短代码或符号：USD、CNY、¥……'], {
    default: 'USD',
    note: 'Any short code or sign: USD, CNY, ¥ ... (the one currency of the table and the budgets)'
  }),
  /** IANA timezone where a budget month starts ('' = the machine's) */
  timezone: doc(z.string().max(64).refine((tz) => tz === '' || knownTimeZone(tz), { error: 'unknown timezone (an IANA name such as Asia/Shanghai)' }), ['Budget timezone', '预算时区', 'IANA timezone where a budget month starts ("" = the machine\'s).', '预算月份开始所用的 IANA 时区（留空 = 本机时区）。'], {
    default: '',
    note: 'IANA timezone where a budget month starts, e.g. Asia/Shanghai ("" = the machine\'s).'
  }),
  /** matched by exact name first, then by the patterns with `*`, longest first */
  models: doc(z.array(z.strictObject({
    model: doc(z.string().trim().min(1).max(200), ['Model or pattern', '模型或模式']),
    input: doc(z.number().min(0), ['Input price', '输入价格', 'Per 1,000,000 prompt tokens.', '每 1,000,000 个输入 Token。']),
    output: doc(z.number().min(0), ['Output price', '输出价格', 'Per 1,000,000 completion tokens.', '每 1,000,000 个输出 Token。']),
    /** price of prompt tokens served from the provider's cache (unset: the input price) */
    cachedInput: doc(z.number().min(0).optional(), ['Cached input price', '缓存输入价格', 'Empty: the input price.', '留空：使用输入价格。'])
  })).max(2000).superRefine((list, ctx) => {
    const seen = new Set<string>()
    list.forEach((p, i) => {
      if (seen.has(p.model)) ctx.addIssue({ code: 'custom', path: [i, 'model'], message: `duplicate price for ${p.model}` })
      seen.add(p.model)
    })
  }), ['Model prices', '模型价格', 'Matched by exact name, then by patterns with *, longest first.', '先按完整名称匹配，再按带 * 的模式匹配（最长优先）。'], {
    default: [],
    note: 'input / output / cachedInput (optional; prompt tokens served from the provider\'s cache, else the input price): price per 1,000,000 tokens.'
  })
}), ['Pricing', '价格', 'What model calls cost, per million tokens, in one currency.', '模型调用的价格，每百万 Token，使用同一种货币。'], {
  note: 'What the model calls cost: prices per million tokens, in one currency of your choice, applied to the recorded usage (cost per day, model, channel, group and user in the statistics and on the dashboard\'s Cost page) and to the channels\' monthly budgets. A model is priced by the entry with its exact name, else by the longest matching pattern with * (any characters, letter case ignored), else it is unpriced (its cost shows as none, not 0). Prices apply to all recorded usage, also what was recorded before a price changed; usage recorded before input and output tokens were kept apart (older versions) is not priced (counted in unpricedTokens). Example:\n' +
    '  models:\n' +
    '    - { model: gpt-4o, input: 2.5, output: 10, cachedInput: 1.25 }\n' +
    '    - { model: "deepseek-*", input: 2, output: 8 }'
})
export const pricingSection = pricing.prefault(sectionDefaults(pricing))
