// `#lx为什么` (`#lx why`): what shaped the bot's last answer to the sender (lib/why): preset, channel and
// model, knowledge passages, skills, tools, tokens (and the input served from the provider's cache) and
// time. Memories are the asker's own only: listed in a private chat, counted in a group (memories are
// personal, as with `#lx我的记忆`); memories of anyone else are only counted. In a group it is the last answer to the sender in that group; in a
// private chat the last answer to them anywhere.
import type { WhyRecord } from '../lib/why/types.js'
import { pluginBase, type HostEvent } from '../lib/host/port.js'
import type { TextKey } from '../lib/i18n.js'
import { commandPattern } from './command.js'
import { contextOf, type BotContext } from './context.js'

const short = (text: string, max: number): string => {
  const one = text.replace(/\s+/g, ' ').trim()
  return one.length > max ? `${one.slice(0, max)}…` : one
}

export class LingxiWhy extends pluginBase() {
  constructor () {
    super({
      name: 'lingxi-why',
      dsc: '灵犀回答依据',
      event: 'message',
      priority: 50,
      rule: [{ reg: commandPattern('(为什么|why)'), fnc: 'why' }]
    })
  }

  async why (e: HostEvent): Promise<boolean> {
    const ctx = await contextOf(e)
    const { rt, s, say } = ctx
    const why = rt.optional('why')
    const found = why?.store.lastFor(s.userId, s.isGroup ? s.groupId ?? '' : undefined)
    if (!why || !found) { await say('why.none'); return true }
    await s.reply(whyText(ctx, why.view(found)), s.isGroup)
    return true
  }
}

/** The turn's input served from the provider's cache: nothing to say when none was (or the record predates it). */
function cachedLine (tr: (key: TextKey, vars?: Record<string, string | number>) => string, u: WhyRecord['usage']): string | undefined {
  const cached = u.cachedTokens ?? 0
  if (cached <= 0 || u.promptTokens <= 0) return undefined
  const share = Math.round(Math.min(1, cached / u.promptTokens) * 1000) / 10
  return tr('why.cached', { cached, share })
}

/** How much of the previous request the turn's first model call started with (nothing when none was known). */
function prefixLine (tr: (key: TextKey, vars?: Record<string, string | number>) => string, r: WhyRecord): string | undefined {
  const first = r.calls?.[0]
  if (!first?.previousChars || first.reusedChars === undefined) return undefined
  const share = Math.round(Math.min(1, first.reusedChars / first.previousChars) * 1000) / 10
  return tr('why.prefix', { chars: first.reusedChars, share })
}

function whyText ({ s, tr }: BotContext, r: WhyRecord): string {
  const lines = [
    tr('why.head', { question: short(r.question, 40) }),
    tr('why.preset', { name: r.preset.name, id: r.preset.id }),
    tr('why.model', { channel: r.channel || '-', model: r.model || '-' })
  ]
  const own = r.memories.filter((m) => m.userId === s.userId)
  const shown = own.filter((m) => !m.removed)
  const others = r.memories.length - own.length
  if (shown.length) {
    lines.push(s.isGroup
      ? tr('why.memoriesCounted', { n: shown.length })
      : tr('why.memories', { lines: shown.map((m) => `• [${m.category}] ${m.content}`).join('\n') }))
  }
  if (own.length > shown.length) lines.push(tr('why.memoriesRemoved', { n: own.length - shown.length }))
  if (others > 0) lines.push(tr('why.othersMemories', { n: others }))
  if (r.knowledge.length) lines.push(tr('why.knowledge', { lines: r.knowledge.map((k) => `• ${k.title}: ${short(k.excerpt, 80)}`).join('\n') }))
  if (r.skills.length) lines.push(tr('why.skills', { list: r.skills.map((k) => k.name).join(', ') }))
  if (r.tools.length) {
    lines.push(tr('why.tools', {
      lines: r.tools.map((c) => {
        const approval = c.approval === 'none' ? '' : `（${tr('why.approval', { state: tr(`why.approval.${c.approval}` as TextKey) })}）`
        return `• ${c.name}(${short(c.arguments, 60)}) → ${c.isError ? `${tr('why.toolFailed')}: ` : ''}${short(c.result, 60)}${approval}`
      }).join('\n')
    }))
  }
  if (!r.memories.length && !r.knowledge.length && !r.skills.length && !r.tools.length) lines.push(tr('why.nothingUsed'))
  lines.push(tr('why.cost', { prompt: r.usage.promptTokens, completion: r.usage.completionTokens, secs: (r.durationMs / 1000).toFixed(1) }))
  const cached = cachedLine(tr, r.usage)
  if (cached) lines.push(cached)
  const prefix = prefixLine(tr, r)
  if (prefix) lines.push(prefix)
  return lines.join('\n')
}
