// The `channels` section: the model channels (OpenAI-compatible APIs) the bot talks through, edited on
// the dashboard's Channels page (lib/channels/service.ts writes it). lib/config/README.md, "A domain's
// section".
import { z } from 'zod'
import { notReserved } from '../core/dict.js'
import { doc } from '../config/field-doc.js'

const channelKeySchema = z.strictObject({
  name: doc(z.string().max(100).default(''), ['Key name', '密钥名称']),
  key: doc(z.string().min(1), ['Key', '密钥']),
  enabled: doc(z.boolean().default(true), ['Enabled', '启用'])
})

/** The providers whose wire rules differ (lib/channels/profiles.ts); `auto` guesses from the base URL. */
export const PROVIDER_PROFILES = ['openai', 'deepseek', 'moonshot', 'zhipu', 'qwen', 'siliconflow', 'gemini', 'openrouter', 'minimax', 'relay'] as const

export const channelSchema = z.strictObject({
  name: doc(z.string().regex(/^[\w\-.\u4e00-\u9fff]{1,64}$/, 'letters, digits, - _ . or Chinese, 1-64 characters').refine(...notReserved), ['Name', '名称', 'Letters, digits, - _ . or Chinese, 1-64 characters.', '字母、数字、- _ . 或汉字，1-64 个字符。']),
  id: doc(z.string().min(1).max(64).refine(...notReserved).optional(), ['Id', 'ID']),
  type: doc(z.enum(['openai', 'openai-compatible', 'azure', 'deepseek', 'custom']).default('openai'), ['Type', '类型']),
  /** the provider's wire rules (reasoning, usage, stream quirks); auto: guessed from the base URL */
  profile: doc(z.enum(['auto', ...PROVIDER_PROFILES]).default('auto'), ['Provider', '服务商', 'Whose wire rules to follow (reasoning sent back in tool loops, usage, stream quirks). Auto guesses from the base URL; a relay (one-api, new-api) follows the model it serves.', '按哪家服务商的接口规则（工具循环中回传思考内容、用量、流式差异）。自动：按接口地址判断；中转（one-api、new-api）按所用模型。']),
  baseUrl: doc(z.url({ protocol: /^https?$/, error: 'must be a valid http(s) URL' }), ['Base URL', '接口地址', 'e.g. https://api.openai.com/v1', '如 https://api.openai.com/v1']),
  apiKey: doc(z.string().default(''), ['API key', 'API 密钥', 'Shown masked; a mask sent back keeps the stored key.', '显示为掩码；保持掩码不变即保留原密钥。']),
  apiKeys: doc(z.array(channelKeySchema).default([]), ['More API keys', '更多 API 密钥', 'Used in turn; a failing key cools down.', '轮流使用；出错的密钥会暂停一段时间。']),
  model: doc(z.string().default(''), ['Default model', '默认模型']),
  models: doc(z.array(z.string().min(1)).default([]), ['Models', '模型列表']),
  enabled: doc(z.boolean().default(true), ['Enabled', '启用']),
  priority: doc(z.number().int().default(0), ['Priority', '优先级', 'Higher is tried first.', '数值大的先使用。']),
  /** Path appended to baseUrl instead of /chat/completions (custom gateways). */
  customPath: doc(z.string().default(''), ['Custom path', '自定义路径', 'Appended to the base URL instead of /chat/completions.', '代替 /chat/completions 追加到接口地址后。']),
  /** Extra request headers; values may use {{placeholders}}. */
  headersTemplate: doc(z.record(z.string(), z.string()).default({}), ['Extra headers', '额外请求头', 'Values may use {{placeholders}}; secret.', '值可以使用 {{占位符}}；视为密钥。']),
  /** Extra JSON merged into the request body; string values may use {{placeholders}}. */
  bodyTemplate: doc(z.record(z.string(), z.unknown()).default({}), ['Extra body', '额外请求体', 'JSON merged into the request body.', '合并进请求体的 JSON。']),
  image: doc(z.strictObject({
    enabled: doc(z.boolean().default(false), ['Draw images', '用于绘图']),
    model: doc(z.string().default(''), ['Image model', '绘图模型'])
  }).default({ enabled: false, model: '' }), ['Images', '图片生成']),
  /** the model can read images; false: images are captioned first (input.captionChannel) */
  vision: doc(z.boolean().default(true), ['Can see images', '能看图片', 'Off: images are captioned first by input.captionChannel.', '关闭：图片先由 input.captionChannel 描述成文字。']),
  timeoutMs: doc(z.number().int().min(1000).max(600000).default(60000), ['Timeout (ms)', '超时（毫秒）']),
  /** A stream that sends nothing for this long is aborted (the client timeout does not cover it). */
  idleTimeoutMs: doc(z.number().int().min(1000).max(600000).default(30000), ['Stream idle timeout (ms)', '流空闲超时（毫秒）', 'A stream that sends nothing this long is aborted.', '流式回答这么久没有数据就中止。']),
  keyCooldownMs: doc(z.number().int().min(0).max(3600000).default(60000), ['Key cooldown (ms)', '密钥冷却（毫秒）']),
  /** the channel is not used once its cost this month reaches this (pricing.currency; 0: no budget) */
  monthlyBudget: doc(z.number().min(0).default(0), ['Monthly budget', '每月预算', 'In pricing.currency; 0 = none.', '以 pricing.currency 计；0 = 不限。'])
})

export const channelsSection = doc(z.array(channelSchema).superRefine((list, ctx) => {
  const seen = new Set<string>()
  list.forEach((c, i) => {
    if (seen.has(c.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `duplicate channel name ${c.name}` })
    seen.add(c.name)
  })
}), ['Model channels', '模型渠道', 'OpenAI-compatible APIs the bot talks through (edited on the Channels page).', '机器人使用的 OpenAI 兼容接口（在“渠道”页面编辑）。'], {
  default: [],
  note: 'Model channels. Add them in the dashboard (Channels page) or here. A channel\'s monthlyBudget (in pricing.currency; 0 or absent: none) stops using it once its cost this month reaches the budget: the next channel answers instead, and it is used again from the 1st of the next month (pricing.timezone).'
})
