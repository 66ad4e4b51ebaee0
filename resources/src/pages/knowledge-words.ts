// The knowledge page's texts (i18n-knowledge.ts) in the page language; other keys fall back to i18n.ts's t().
import { lang, t } from '../i18n'
import { knowledgeEn, knowledgeZh } from '../i18n-knowledge'

export function kt (key: string): string {
  return (lang.get() === 'zh' ? knowledgeZh : knowledgeEn)[key] ?? t(key)
}

/** kt() with `{name}` placeholders filled from vars. */
export function ktv (key: string, vars: Record<string, string | number>): string {
  return kt(key).replace(/\{(\w+)\}/g, (m, k: string) => k in vars ? String(vars[k]) : m)
}
