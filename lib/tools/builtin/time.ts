// Category `time`: the current date and time (models do not know it).
import type { Clock } from '../../core/clock.js'
import { str, text, type BuiltinTool } from './util.js'

export function timeTools (clock: Clock): BuiltinTool[] {
  return [{
    name: 'get_current_time',
    description: '获取当前日期和时间 (current date and time; optional IANA timezone, default Asia/Shanghai)',
    category: 'time',
    risk: 'low',
    dangerous: false,
    cleanResult: true,
    inputSchema: { type: 'object', properties: { timezone: { type: 'string', description: 'IANA timezone, e.g. Asia/Shanghai' } } },
    execute: async (args) => {
      const timeZone = str(args.timezone) ?? 'Asia/Shanghai'
      const now = new Date(clock.now())
      try {
        const local = new Intl.DateTimeFormat('zh-CN', { timeZone, dateStyle: 'full', timeStyle: 'long' }).format(now)
        return text({ iso: now.toISOString(), timestamp: now.getTime(), timezone: timeZone, local })
      } catch {
        return text(`Unknown timezone: ${timeZone}`, true)
      }
    }
  }]
}
