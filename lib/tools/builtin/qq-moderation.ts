// Category `qq`, moderation: mute / unmute a member, mute the whole group, kick, recall a message, a
// member's card and special title, essence, a group notice. Each runs through the rules of qq-rules.ts
// (and the master's approval where they say) before the host is asked (lib/host/actions.ts).
import * as act from '../../host/actions.js'
import type { ActionOutcome } from '../../host/actions.js'
import type { Runtime } from '../../runtime.js'
import type { ToolResult } from '../../chat/contracts.js'
import type { ToolCallContext } from '../types.js'
import { checkQq, inBotGroup, qqText, TIER_RISK, type QqAsk, type QqPlace, type QqTier } from './qq-rules.js'
import { str, text, type BuiltinTool } from './util.js'
import { describeQq } from './qq-describe.js'

const QQ_ID = /^\d{1,20}$/
/** A QQ id argument (number or digits), or undefined. */
export const qqId = (v: unknown): string | undefined => {
  const s = typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : str(v)
  return s && QQ_ID.test(s) ? s : undefined
}

/** The tool's answer for a host outcome: `done` on success, else why (unsupported / the host's reason). */
export function outcomeText (rt: Runtime, out: ActionOutcome, done: string, what: { 'zh-CN': string; en: string }): ToolResult {
  if (out.ok) return text(done)
  if ('unsupported' in out) return text(qqText(rt, 'qq.unsupported', { action: what[rt.config.get().language] }), true)
  return text(qqText(rt, 'qq.failed', { error: out.error.slice(0, 200) }), true)
}

interface Spec {
  name: string
  description: string
  tier: QqTier
  properties: Record<string, unknown>
  required?: string[]
  /** the checks' input from the arguments (a string: the arguments are invalid, this is why) */
  ask(args: Record<string, unknown>, ctx: ToolCallContext): Omit<QqAsk, 'tool' | 'tier' | 'args'> | string | Promise<Omit<QqAsk, 'tool' | 'tier' | 'args'> | string>
  run(place: QqPlace, args: Record<string, unknown>, ctx: ToolCallContext): Promise<ToolResult>
}

/** A QQ-action tool from its spec: arguments, then the rules (and approval), then the action. */
export function qqTool (rt: Runtime, spec: Spec): BuiltinTool {
  return {
    name: spec.name,
    description: spec.description,
    category: 'qq',
    risk: TIER_RISK[spec.tier],
    dangerous: false,
    inputSchema: { type: 'object', properties: spec.properties, ...(spec.required ? { required: spec.required } : {}) },
    offeredIn: inBotGroup,
    describe: (args, lang) => describeQq(spec.name, args, lang) ?? '',
    cleanResult: true, // the action's own outcome, in our words
    execute: async (args, ctx) => {
      const ask = await spec.ask(args, ctx)
      if (typeof ask === 'string') return text(ask, true)
      const check = await checkQq(rt, { ...ask, tool: spec.name, tier: spec.tier, args }, ctx)
      if (!check.ok) return text(check.text, true)
      return spec.run(check.place, args, ctx)
    }
  }
}

/** The message a recall / essence means: its id, else the newest logged message of a member (the group log). */
function messageOf (rt: Runtime, groupId: string | undefined, args: Record<string, unknown>): { id: string; author?: string } | undefined {
  const given = typeof args.message_id === 'number' ? String(args.message_id) : str(args.message_id)
  const entries = groupId ? rt.optional('groupLog')?.recent(groupId, 500) ?? [] : []
  if (given) return { id: given, ...authorOf(entries, given) }
  const user = qqId(args.user_id)
  if (!user) return undefined
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!
    if (e.messageId && e.userId === user && !e.fromBot) return { id: e.messageId, author: user }
  }
  return undefined
}
const authorOf = (entries: ReadonlyArray<{ messageId?: string; userId: string }>, id: string): { author?: string } => {
  const e = entries.find((x) => x.messageId === id)
  return e ? { author: e.userId } : {}
}

const userProp = { user_id: { type: 'string', description: 'QQ id of the group member' } }

export function qqModerationTools (rt: Runtime): BuiltinTool[] {
  const bad = (name: string): string => qqText(rt, 'qq.badArg', { name })
  const botOf = (ctx: ToolCallContext): string | undefined => ctx.scope.botId
  /** What the unmute and kick tools ask first: a member named by user_id, acted on by a bot that is admin. */
  const memberByAdmin = (args: Record<string, unknown>): { target: string; botNeeds: 'admin' } | string => {
    const target = qqId(args.user_id)
    return target ? { target, botNeeds: 'admin' } : bad('user_id')
  }
  return [
    qqTool(rt, {
      name: 'qq_mute_member',
      description: '在当前群禁言一名成员 N 秒 (mute a member of this group for N seconds; 禁言)',
      tier: 'moderation',
      properties: { ...userProp, seconds: { type: 'number', description: 'how long, in seconds (60 or more)' } },
      required: ['user_id', 'seconds'],
      ask: (args) => {
        const target = qqId(args.user_id)
        if (!target) return bad('user_id')
        if (typeof args.seconds !== 'number' || !(args.seconds >= 1)) return bad('seconds')
        return { target, botNeeds: 'admin' }
      },
      run: async (place, args) => {
        const target = qqId(args.user_id)!
        const max = rt.config.get().qqActions.maxMuteSeconds
        const asked = Math.max(60, Math.floor(args.seconds as number))
        const secs = Math.min(asked, max)
        const out = await act.muteMember(place.groupId, target, secs, place.botId)
        const done = qqText(rt, 'qq.muted', { id: target, secs }) + (asked > max ? qqText(rt, 'qq.muteCut', { max }) : '')
        return outcomeText(rt, out, done, { 'zh-CN': '禁言', en: 'muting' })
      }
    }),
    qqTool(rt, {
      name: 'qq_unmute_member',
      description: '解除当前群一名成员的禁言 (lift the mute of a member of this group; 解除禁言)',
      tier: 'moderation',
      properties: userProp,
      required: ['user_id'],
      ask: memberByAdmin,
      run: async (place, args) => {
        const target = qqId(args.user_id)!
        return outcomeText(rt, await act.muteMember(place.groupId, target, 0, place.botId), qqText(rt, 'qq.unmuted', { id: target }), { 'zh-CN': '解除禁言', en: 'unmuting' })
      }
    }),
    qqTool(rt, {
      name: 'qq_mute_all',
      description: '开启或关闭当前群的全员禁言 (mute or unmute the whole group; 全员禁言)',
      tier: 'high',
      properties: { enable: { type: 'boolean', description: 'true: mute everyone; false: lift it' } },
      required: ['enable'],
      ask: (args) => (typeof args.enable === 'boolean' ? { botNeeds: 'admin' } : bad('enable')),
      run: async (place, args) => {
        const on = args.enable === true
        return outcomeText(rt, await act.muteAll(place.groupId, on, place.botId), qqText(rt, on ? 'qq.mutedAll' : 'qq.unmutedAll'), { 'zh-CN': '全员禁言', en: 'muting the whole group' })
      }
    }),
    qqTool(rt, {
      name: 'qq_kick_member',
      description: '把一名成员移出当前群 (remove a member from this group; 踢人)',
      tier: 'high',
      properties: userProp,
      required: ['user_id'],
      ask: memberByAdmin,
      run: async (place, args) => {
        const target = qqId(args.user_id)!
        return outcomeText(rt, await act.kickMember(place.groupId, target, place.botId), qqText(rt, 'qq.kicked', { id: target }), { 'zh-CN': '踢人', en: 'removing members' })
      }
    }),
    qqTool(rt, {
      name: 'qq_recall_message',
      description: '撤回当前群的一条消息：给出消息 ID，或给出成员 QQ 撤回其最近一条 (recall a message of this group: by message id, or the newest message of a member; 撤回)',
      tier: 'moderation',
      properties: { message_id: { type: 'string', description: 'the message id' }, ...userProp },
      ask: (args, ctx) => {
        const m = messageOf(rt, ctx.scope.groupId, args)
        if (!m) return qqText(rt, 'qq.noMessage')
        // a message whose author the log does not know: only masters and the group's admins may ask
        return m.author ? { target: m.author, botNeeds: 'admin' } : { botNeeds: 'admin', askerAdmin: true }
      },
      run: async (place, args) => {
        const m = messageOf(rt, place.groupId, args)!
        return outcomeText(rt, await act.recallMessage(place.groupId, m.id, place.botId), qqText(rt, 'qq.recalled', { id: m.id }), { 'zh-CN': '撤回消息', en: 'recalling messages' })
      }
    }),
    qqTool(rt, {
      name: 'qq_set_card',
      description: '修改群成员的群名片（群昵称） (set a member\'s group card, the name shown in this group; 改群名片)',
      tier: 'moderation',
      properties: { ...userProp, card: { type: 'string', description: 'the new card (empty: clear it)' } },
      required: ['user_id', 'card'],
      ask: (args, ctx) => {
        const target = qqId(args.user_id)
        if (!target) return bad('user_id')
        if (typeof args.card !== 'string' || args.card.length > 60) return bad('card')
        // its own card the bot sets as any member may
        return target === botOf(ctx) ? { target, selfOk: true } : { target, botNeeds: 'admin' }
      },
      run: async (place, args) => {
        const target = qqId(args.user_id)!
        const card = (args.card as string).trim()
        return outcomeText(rt, await act.setCard(place.groupId, target, card, place.botId), qqText(rt, 'qq.cardSet', { id: target, card }), { 'zh-CN': '修改群名片', en: 'setting group cards' })
      }
    }),
    qqTool(rt, {
      name: 'qq_set_title',
      description: '设置群成员的专属头衔（需要我是群主） (set a member\'s special title; needs the bot to be the group owner; 头衔)',
      tier: 'moderation',
      properties: { ...userProp, title: { type: 'string', description: 'the title (empty: remove it)' }, seconds: { type: 'number', description: 'how long (default: for good)' } },
      required: ['user_id', 'title'],
      ask: (args, ctx) => {
        const target = qqId(args.user_id)
        if (!target) return bad('user_id')
        if (typeof args.title !== 'string' || args.title.length > 30) return bad('title')
        return { target, botNeeds: 'owner', selfOk: target === botOf(ctx) }
      },
      run: async (place, args) => {
        const target = qqId(args.user_id)!
        const title = (args.title as string).trim()
        const secs = typeof args.seconds === 'number' && args.seconds > 0 ? Math.floor(args.seconds) : -1
        return outcomeText(rt, await act.setTitle(place.groupId, target, title, secs, place.botId), qqText(rt, 'qq.titleSet', { id: target, title }), { 'zh-CN': '设置头衔', en: 'special titles' })
      }
    }),
    qqTool(rt, {
      name: 'qq_set_essence',
      description: '把当前群的一条消息设为精华：给出消息 ID，或成员 QQ（其最近一条） (set a message of this group as essence, by id or the newest of a member; 设精)',
      tier: 'moderation',
      properties: { message_id: { type: 'string', description: 'the message id' }, ...userProp },
      ask: (args, ctx) => (messageOf(rt, ctx.scope.groupId, args) ? { botNeeds: 'admin' } : qqText(rt, 'qq.noMessage')),
      run: async (place, args) => {
        const m = messageOf(rt, place.groupId, args)!
        return outcomeText(rt, await act.setEssence(place.groupId, m.id, place.botId), qqText(rt, 'qq.essenceSet', { id: m.id }), { 'zh-CN': '设置精华消息', en: 'essence messages' })
      }
    }),
    qqTool(rt, {
      name: 'qq_send_notice',
      description: '在当前群发布群公告 (post a group notice / announcement; 群公告)',
      tier: 'high',
      properties: { content: { type: 'string', description: 'the notice text' } },
      required: ['content'],
      ask: (args) => {
        const content = str(args.content)
        return content && content.length <= 1000 ? { botNeeds: 'admin' } : bad('content')
      },
      run: async (place, args) => {
        const content = str(args.content)!
        return outcomeText(rt, await act.sendNotice(place.groupId, content, place.botId), qqText(rt, 'qq.noticeSent'), { 'zh-CN': '群公告', en: 'group notices' })
      }
    })
  ]
}
