// The memory page's review and timeline texts (i18n-memory.ts) in the page language; other keys fall back to i18n.ts's t().
import { lang, locale, t } from '../i18n'
import { memoryEn, memoryZh } from '../i18n-memory'
import type { MemoryRecord } from '../contracts'

export function mt (key: string): string {
  return (lang.get() === 'zh' ? memoryZh : memoryEn)[key] ?? t(key)
}

/** mt() with `{name}` placeholders filled from vars. */
export function mtv (key: string, vars: Record<string, string | number>): string {
  return mt(key).replace(/\{(\w+)\}/g, (m, k: string) => k in vars ? String(vars[k]) : m)
}

export const when = (ms: number): string => new Date(ms).toLocaleString(locale(), { hour12: false })

/** "你说过：" / "我推测：" / "手动添加：" by the memory's origin (a memory without one: by hand unless extracted). */
export function saidOrGuessed (m: MemoryRecord): string {
  const kind = m.origin?.kind ?? (m.source === 'auto' ? 'inferred' : 'manual')
  return mt(`mr.${kind}`)
}

/** Where and when it was learnt: "来自 私聊 · 2026/12/2 10:00". */
export function learntWhere (m: MemoryRecord): string {
  const chat = m.origin?.chat ?? (m.groupId ? 'group' : 'api')
  const place = chat === 'group' ? mtv('mr.group', { id: m.groupId }) : mt(`mr.${chat}`)
  return mtv('mr.from', { chat: place, time: when(m.origin?.at ?? m.createdAt) })
}
