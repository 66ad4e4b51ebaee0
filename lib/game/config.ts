// The `game` section: the visual-novel chat mode (lib/game/service.ts writes it). lib/config/README.md,
// "A domain's section".
import { z } from 'zod'
import { doc } from '../config/field-doc.js'

export const gameSection = doc(z.strictObject({
  probability: doc(z.number().min(0).max(1), ['Event probability', '事件概率'], { default: 1 }),
  enableTools: doc(z.boolean(), ['Tools in the game', '游戏中使用工具'], { default: false }),
  temperature: doc(z.number().min(0).max(2), ['Temperature', '温度'], { default: 0.9 }),
  maxTokens: doc(z.number().int().min(1).max(128000), ['Max tokens', '最大 Token 数'], { default: 1024 })
}), ['Game', '游戏', 'The visual-novel chat mode.', '视觉小说聊天模式。'])
