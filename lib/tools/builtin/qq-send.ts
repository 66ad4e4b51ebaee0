// Category `qq`, sending: poke a member, send an image, a voice record, a file, a QQ face or a music
// card to the current group through the host (lib/host/actions.ts), each after the rules of
// qq-rules.ts. Media come from http(s) links only: never a path on the bot's machine, and not a
// loopback, private or link-local address written as such (the host downloads the link).
import { BlockList, isIP } from 'node:net'
import * as act from '../../host/actions.js'
import type { Runtime } from '../../runtime.js'
import { outcomeText, qqId, qqTool } from './qq-moderation.js'
import { qqText } from './qq-rules.js'
import { str, type BuiltinTool } from './util.js'

const LOCAL = new BlockList()
for (const [net, bits] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.168.0.0', 16]] as const) LOCAL.addSubnet(net, bits, 'ipv4')
for (const [net, bits] of [['::', 127], ['fc00::', 7], ['fe80::', 10], ['::ffff:0:0', 96]] as const) LOCAL.addSubnet(net, bits, 'ipv6')

/** An http(s) link whose host is not a local name or a loopback / private / link-local address literal. */
function publicLink (v: unknown): string | undefined {
  const s = str(v)
  if (!s) return undefined
  let u: URL
  try { u = new URL(s) } catch { return undefined }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined
  const host = u.hostname.replace(/^\[|\]$/g, '').toLowerCase()
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local')) return undefined
  const kind = isIP(host)
  if (kind && LOCAL.check(host, kind === 4 ? 'ipv4' : 'ipv6')) return undefined
  return u.href
}

type Kind = 'image' | 'record' | 'file'
const WHAT: Record<Kind | 'face' | 'music', { 'zh-CN': string; en: string }> = {
  image: { 'zh-CN': '图片', en: 'image' },
  record: { 'zh-CN': '语音', en: 'voice message' },
  file: { 'zh-CN': '文件', en: 'file' },
  face: { 'zh-CN': 'QQ 表情', en: 'QQ face' },
  music: { 'zh-CN': '音乐卡片', en: 'music card' }
}

export function qqSendTools (rt: Runtime): BuiltinTool[] {
  const bad = (name: string): string => qqText(rt, 'qq.badArg', { name })
  const sent = (what: keyof typeof WHAT): string => qqText(rt, 'qq.sent', { what: WHAT[what][rt.config.get().language] })
  const media = (name: string, kind: Kind, description: string): BuiltinTool => qqTool(rt, {
    name,
    description,
    tier: 'send',
    properties: {
      url: { type: 'string', description: 'http(s) link' },
      ...(kind === 'file' ? { name: { type: 'string', description: 'file name shown in the group' } } : {})
    },
    required: ['url'],
    ask: (args) => (publicLink(args.url) ? {} : qqText(rt, 'qq.badUrl')),
    run: async (place, args) => {
      const url = publicLink(args.url)!
      const fileName = str(args.name)
      const out = await act.sendMedia(place.groupId, kind, url, place.botId, fileName ? { name: fileName } : {})
      return outcomeText(rt, out, sent(kind), WHAT[kind])
    }
  })
  return [
    qqTool(rt, {
      name: 'qq_poke',
      description: '在当前群戳一戳一名成员 (poke a member of this group; 戳一戳)',
      tier: 'send',
      properties: { user_id: { type: 'string', description: 'QQ id of the member' } },
      required: ['user_id'],
      ask: (args) => {
        const target = qqId(args.user_id)
        return target ? { target, selfOk: true } : bad('user_id')
      },
      run: async (place, args) => {
        const target = qqId(args.user_id)!
        return outcomeText(rt, await act.pokeMember(place.groupId, target, place.botId), qqText(rt, 'qq.poked', { id: target }), { 'zh-CN': '戳一戳', en: 'pokes' })
      }
    }),
    media('qq_send_image', 'image', '向当前群发送一张图片（http(s) 链接） (send an image from an http(s) link to this group; 发图)'),
    media('qq_send_voice', 'record', '向当前群发送一条语音（音频的 http(s) 链接） (send a voice message from an http(s) audio link to this group; 语音)'),
    media('qq_send_file', 'file', '向当前群发送一个文件（http(s) 链接） (send a file from an http(s) link to this group; 发文件)'),
    qqTool(rt, {
      name: 'qq_send_face',
      description: '向当前群发送一个 QQ 表情（表情 ID，如 14 微笑、66 爱心、179 doge） (send a QQ face by its id, e.g. 14 smile, 66 heart, 179 doge)',
      tier: 'send',
      properties: { face_id: { type: 'number', description: 'QQ face id (0-500)' } },
      required: ['face_id'],
      ask: (args) => (typeof args.face_id === 'number' && Number.isInteger(args.face_id) && args.face_id >= 0 && args.face_id <= 500 ? {} : bad('face_id')),
      run: async (place, args) => outcomeText(rt, await act.sendMedia(place.groupId, 'face', String(args.face_id), place.botId), sent('face'), WHAT.face)
    }),
    qqTool(rt, {
      name: 'qq_send_music',
      description: '向当前群分享一张音乐卡片（平台的歌曲 ID；并非所有框架都支持） (share a music card by the song id of a platform: qq, 163, kugou, migu, kuwo; not every host supports it)',
      tier: 'send',
      properties: {
        song_id: { type: 'string', description: 'the song id on that platform' },
        platform: { type: 'string', enum: ['qq', '163', 'kugou', 'migu', 'kuwo'], description: 'default qq' }
      },
      required: ['song_id'],
      ask: (args) => {
        const id = typeof args.song_id === 'number' ? String(args.song_id) : str(args.song_id)
        if (!id || !/^[\w-]{1,64}$/.test(id)) return bad('song_id')
        return args.platform === undefined || ['qq', '163', 'kugou', 'migu', 'kuwo'].includes(String(args.platform)) ? {} : bad('platform')
      },
      run: async (place, args) => {
        const id = typeof args.song_id === 'number' ? String(args.song_id) : str(args.song_id)!
        const platform = typeof args.platform === 'string' ? args.platform : 'qq'
        return outcomeText(rt, await act.sendMedia(place.groupId, 'music', id, place.botId, { platform }), sent('music'), WHAT.music)
      }
    })
  ]
}
