// A QQ action and its target in the asker's words, for the confirmation question of the approval policy
// (lib/tools/policy.ts): "禁言 @20004 120 秒". The member is named by id: an @ segment would notify them.
import type { Language } from '../../i18n.js'

type Words = (a: Record<string, unknown>, at: string, lang: Language) => string

const num = (v: unknown): string => (typeof v === 'number' && Number.isFinite(v) ? String(Math.floor(v)) : '?')
const quote = (v: unknown, max = 60): string => {
  const s = typeof v === 'string' ? v.replace(/\s+/g, ' ').trim() : ''
  return s.length > max ? `${s.slice(0, max)}…` : s
}
const zhEn = (zh: string, en: string): Words => (_a, _at, lang) => (lang === 'en' ? en : zh)

const ACTIONS = new Map<string, Words>([
  ['qq_mute_member', (a, at, lang) => (lang === 'en' ? `mute ${at} for ${num(a.seconds)} s` : `禁言 ${at} ${num(a.seconds)} 秒`)],
  ['qq_unmute_member', (_a, at, lang) => (lang === 'en' ? `lift the mute of ${at}` : `解除 ${at} 的禁言`)],
  ['qq_mute_all', (a, _at, lang) => (a.enable === false ? (lang === 'en' ? 'lift the whole-group mute' : '关闭全员禁言') : (lang === 'en' ? 'mute the whole group' : '开启全员禁言'))],
  ['qq_kick_member', (_a, at, lang) => (lang === 'en' ? `remove ${at} from the group` : `把 ${at} 移出本群`)],
  ['qq_recall_message', (a, at, lang) => (typeof a.message_id === 'string' || typeof a.message_id === 'number'
    ? (lang === 'en' ? `recall message ${String(a.message_id)}` : `撤回消息 ${String(a.message_id)}`)
    : (lang === 'en' ? `recall the newest message of ${at}` : `撤回 ${at} 最近的一条消息`))],
  ['qq_set_card', (a, at, lang) => (lang === 'en' ? `set the card of ${at} to "${quote(a.card)}"` : `把 ${at} 的群名片改成“${quote(a.card)}”`)],
  ['qq_set_title', (a, at, lang) => (lang === 'en' ? `give ${at} the title "${quote(a.title)}"` : `给 ${at} 设置头衔“${quote(a.title)}”`)],
  ['qq_set_essence', (a, at, lang) => (typeof a.message_id === 'string' || typeof a.message_id === 'number'
    ? (lang === 'en' ? `set message ${String(a.message_id)} as essence` : `把消息 ${String(a.message_id)} 设为精华`)
    : (lang === 'en' ? `set the newest message of ${at} as essence` : `把 ${at} 最近的一条消息设为精华`))],
  ['qq_send_notice', (a, _at, lang) => (lang === 'en' ? `post the group notice "${quote(a.content, 100)}"` : `发布群公告“${quote(a.content, 100)}”`)],
  ['qq_poke', (_a, at, lang) => (lang === 'en' ? `poke ${at}` : `戳一戳 ${at}`)],
  ['qq_send_image', (a, _at, lang) => (lang === 'en' ? `send the image ${quote(a.url, 120)}` : `发送图片 ${quote(a.url, 120)}`)],
  ['qq_send_voice', (a, _at, lang) => (lang === 'en' ? `send the voice message ${quote(a.url, 120)}` : `发送语音 ${quote(a.url, 120)}`)],
  ['qq_send_file', (a, _at, lang) => (lang === 'en' ? `send the file ${quote(a.url, 120)}` : `发送文件 ${quote(a.url, 120)}`)],
  ['qq_send_face', zhEn('发送 QQ 表情', 'send a QQ face')],
  ['qq_send_music', zhEn('发送音乐卡片', 'send a music card')]
])

/** The words for a QQ action's confirmation; undefined for a tool not listed (the policy's generic words). */
export function describeQq (tool: string, args: Record<string, unknown>, lang: Language): string | undefined {
  const words = ACTIONS.get(tool)
  if (!words) return undefined
  const id = typeof args.user_id === 'number' || typeof args.user_id === 'string' ? String(args.user_id) : '?'
  return words(args, `@${id}`, lang)
}
