// The `image` section: drawing through the channels' images API (lib/drawing/service.ts writes it).
// lib/config/README.md, "A domain's section".
import { z } from 'zod'
import { doc } from '../config/field-doc.js'

export const imageSection = doc(z.strictObject({
  enabled: doc(z.boolean(), ['Drawing on', '启用绘图'], { default: false }),
  model: doc(z.string(), ['Image model', '图片模型'], { default: 'dall-e-3' }),
  videoModel: doc(z.string(), ['Video model', '视频模型'], { default: '' }),
  timeout: doc(z.number().int().min(1000).max(3600000), ['Timeout (ms)', '超时（毫秒）'], { default: 120000 }),
  maxImages: doc(z.number().int().min(1).max(10), ['Images per request', '每次图片数'], { default: 1 }),
  sendMode: doc(z.enum(['direct', 'forward', 'url']), ['Send mode', '发送方式'], { default: 'direct' }),
  remotePresetsUrl: doc(z.union([z.literal(''), z.url({ protocol: /^https?$/ })]), ['Remote presets URL', '远程预设地址', 'A JSON source of drawing presets (empty: none).', '绘图预设的 JSON 来源（留空：无）。'], { default: '' }),
  apis: doc(z.array(z.record(z.string(), z.unknown())), ['Image APIs', '图片接口', 'Edited on the Drawing page.', '在“绘图”页面编辑。'], { default: [] })
}), ['Drawing', '绘图', 'Image generation through the channels\' images API.', '通过渠道的图片接口生成图片。'])
