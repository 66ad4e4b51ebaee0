// Drawing: a message starting with an image preset's keyword (e.g. `画图 一只橘猫`, `手办化` with an
// image) is drawn by the configured image model and sent back (image.sendMode: direct, url, forward).
import { AppError } from '../lib/core/errors.js'
import { drawImages, imageSource } from '../lib/drawing/draw.js'
import { ensureStarted } from '../lib/lifecycle.js'
import { pluginBase, segment, type HostEvent } from '../lib/host/port.js'
import type { Sendable, Seg } from '../lib/host/types.js'

export class LingxiDraw extends pluginBase() {
  constructor () {
    super({
      name: 'lingxi-draw',
      dsc: '灵犀绘图',
      event: 'message',
      // Before the chat handler: a drawing keyword is not a chat message.
      priority: 200,
      rule: [{ reg: /^[#＃]?\S/, fnc: 'draw', log: false }]
    })
  }

  async draw (e: HostEvent): Promise<boolean> {
    const text = e.msg ?? ''
    if (!text.trim()) return false
    const { rt } = await ensureStarted()
    const cfg = rt.config.get().image
    if (!cfg.enabled) return false
    const m = rt.drawing.match(text)
    if (!m) return false
    const image = e.img?.[0]
    if (m.preset.needImage && !image) {
      await e.reply(`请在消息里附上一张图片再发送「${m.preset.keywords[0] ?? ''}」`, true)
      return true
    }
    rt.log.info('Drawing', { userId: String(e.user_id), preset: m.preset.uid })
    let urls: string[]
    try {
      urls = await drawImages(rt, m.preset, m.input, image)
    } catch (err) {
      const timeout = err instanceof AppError && err.code === 'TIMEOUT'
      rt.log.warn('Drawing failed', { preset: m.preset.uid, error: err instanceof Error ? err.message : String(err) })
      await e.reply(timeout ? '绘图超时了，请稍后再试。' : '绘图失败了，请稍后再试。', true)
      return true
    }
    if (!urls.length) { await e.reply('没有生成图片，换个描述试试？', true); return true }
    const seg = segment()
    const images: Seg[] = urls.map((u) => seg.image(imageSource(u)))
    if (cfg.sendMode === 'url' && urls.every((u) => /^https?:/.test(u))) {
      await e.reply(urls.join('\n'), true)
    } else if (cfg.sendMode === 'forward' && images.length > 1) {
      const target = e.isGroup ? e.group : e.friend
      const forward: unknown = await target?.makeForwardMsg?.(images.map((img) => ({ message: img, user_id: e.self_id })))
      if (forward) await e.reply(forward as Sendable)
      // Without forward messages: one message per image.
      else for (const img of images) await e.reply(img)
    } else {
      await e.reply(images)
    }
    return true
  }
}
