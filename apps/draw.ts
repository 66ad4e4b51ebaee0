// Drawing: a message starting with an image preset's keyword (e.g. `画图 一只橘猫`, `手办化` with an
// image) is drawn by the configured image model and sent back (image.sendMode: direct, url, forward).
import { AppError, errorText } from '../lib/core/errors.js'
import { drawImages, imageSource } from '../lib/drawing/draw.js'
import { pluginBase, segment, type HostEvent } from '../lib/host/port.js'
import { sessionOf } from '../lib/host/session.js'
import type { Sendable, Seg } from '../lib/host/types.js'
import { admitFeature, moderateInput } from '../lib/governance/gate.js'
import { contextOf } from './context.js'

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
    if (!sessionOf(e).text.trim()) return false
    const { rt, s, say } = await contextOf(e)
    const cfg = rt.config.get().image
    if (!cfg.enabled) return false
    const m = rt.need('drawing').match(s.text)
    if (!m) return false
    if (!(await admitFeature(rt, s, 'drawing'))) return true // access lists and quotas (lib/governance)
    if ((await moderateInput(rt, s, m.input)) === undefined) return true
    const image = s.images[0]
    if (m.preset.needImage && !image) {
      await say('draw.needImage', { keyword: m.preset.keywords[0] ?? '' }, true)
      return true
    }
    rt.log.info('Drawing', { userId: s.userId, preset: m.preset.uid })
    let urls: string[]
    try {
      urls = await drawImages(rt, m.preset, m.input, image)
    } catch (err) {
      const timeout = err instanceof AppError && err.code === 'TIMEOUT'
      rt.log.warn('Drawing failed', { preset: m.preset.uid, error: errorText(err) })
      await say(timeout ? 'draw.timeout' : 'draw.failed', {}, true)
      return true
    }
    if (!urls.length) { await say('draw.empty', {}, true); return true }
    const seg = segment()
    const images: Seg[] = urls.map((u) => seg.image(imageSource(u)))
    if (cfg.sendMode === 'url' && urls.every((u) => /^https?:/.test(u))) {
      await s.reply(urls.join('\n'), true)
    } else if (cfg.sendMode === 'forward' && images.length > 1) {
      const target = s.isGroup ? e.group : e.friend
      const forward: unknown = await target?.makeForwardMsg?.(images.map((img) => ({ message: img, user_id: e.self_id })))
      if (forward) await s.reply(forward as Sendable)
      // Without forward messages: one message per image.
      else for (const img of images) await s.reply(img)
    } else {
      await s.reply(images)
    }
    return true
  }
}
