// The proactive decision (lib/proactive/decide.ts), the answer filter (prompt.ts) and the keyword
// trigger (lib/chat/trigger.ts), as pure functions: every rule with chosen times and random draws.
import { expect } from 'chai'
import { chanceFor, countReply, decideProactive, HOUR_MS, localDay, type GroupCounters, type ProactiveInput } from '../../lib/proactive/decide.js'
import { logLines, proactiveAnswer } from '../../lib/proactive/prompt.js'
import { decideTrigger } from '../../lib/chat/trigger.js'
import type { Config, ProactiveSettings } from '../../lib/config/schema.js'

const settings = (over: Partial<ProactiveSettings> = {}): ProactiveSettings => ({
  enabled: true, probability: 0.2, busyMessages: 30, busyMultiplier: 2, quietMessages: 3, quietMultiplier: 0.5,
  hourlyCap: 3, dailyCap: 5, cooldownSeconds: 300, ...over
})
// 10:00 local time, so a day boundary is far in both directions
const T0 = new Date(2026, 10, 26, 10, 0, 0).getTime()
const input = (over: Partial<ProactiveInput> = {}): ProactiveInput => ({ settings: settings(), counters: undefined, now: T0, activity: 10, random: 0, ...over })
const repliesAt = (...times: number[]): GroupCounters | undefined => times.reduce<GroupCounters | undefined>((c, t) => countReply(c, t), undefined)

describe('proactive: the decision', () => {
  it('off, or probability 0: never', () => {
    expect(decideProactive(input({ settings: settings({ enabled: false, probability: 1 }) }))).to.deep.equal({ join: false, reason: 'disabled' })
    expect(decideProactive(input({ settings: settings({ probability: 0 }), random: 0 }))).to.include({ join: false, reason: 'disabled' })
  })

  it('the chance is probability x the busy or quiet multiplier, capped at 1', () => {
    const s = settings()
    expect(chanceFor(s, 10)).to.equal(0.2)
    expect(chanceFor(s, 30), 'busy at busyMessages').to.equal(0.4)
    expect(chanceFor(s, 3), 'quiet at quietMessages').to.equal(0.1)
    expect(chanceFor(settings({ probability: 0.8, busyMultiplier: 5 }), 100)).to.equal(1)
    expect(chanceFor(settings({ quietMultiplier: 0 }), 0), 'the default quiet multiplier silences a quiet group').to.equal(0)
  })

  it('the multipliers decide the same random draw differently', () => {
    // random 0.3: above the plain chance (0.2) and the quiet one (0.1), below the busy one (0.4)
    expect(decideProactive(input({ activity: 10, random: 0.3 }))).to.deep.equal({ join: false, reason: 'chance', chance: 0.2 })
    expect(decideProactive(input({ activity: 2, random: 0.3 }))).to.deep.equal({ join: false, reason: 'chance', chance: 0.1 })
    expect(decideProactive(input({ activity: 31, random: 0.3 }))).to.deep.equal({ join: true, chance: 0.4 })
    expect(decideProactive(input({ activity: 2, random: 0.05 }))).to.deep.equal({ join: true, chance: 0.1 })
    expect(decideProactive(input({ settings: settings({ probability: 1, busyMultiplier: 1 }), activity: 100, random: 0.999999 }))).to.include({ join: true })
  })

  it('cooldown: no reply within cooldownSeconds of the last one', () => {
    const c = repliesAt(T0)
    expect(decideProactive(input({ counters: c, now: T0 + 299_999 }))).to.deep.equal({ join: false, reason: 'cooldown' })
    expect(decideProactive(input({ counters: c, now: T0 + 300_000 }))).to.include({ join: true })
  })

  it('hourly cap: a rolling hour', () => {
    const s = settings({ cooldownSeconds: 0 })
    const c = repliesAt(T0, T0 + 60_000, T0 + 120_000)
    expect(decideProactive(input({ settings: s, counters: c, now: T0 + 30 * 60_000 }))).to.deep.equal({ join: false, reason: 'hourlyCap' })
    expect(decideProactive(input({ settings: s, counters: c, now: T0 + HOUR_MS }))).to.include({ join: true }, 'the first reply has left the hour')
  })

  it('daily cap: counts across hours and restarts at local midnight', () => {
    const s = settings({ cooldownSeconds: 0, dailyCap: 5 })
    const c = repliesAt(T0, T0 + 1000, T0 + 2000, T0 + 2 * HOUR_MS, T0 + 2 * HOUR_MS + 1000)
    expect(c?.dayCount).to.equal(5)
    expect(decideProactive(input({ settings: s, counters: c, now: T0 + 5 * HOUR_MS }))).to.deep.equal({ join: false, reason: 'dailyCap' })
    const tomorrow = new Date(2026, 10, 27, 0, 0, 1).getTime()
    expect(localDay(tomorrow)).to.equal('2026-11-27')
    expect(decideProactive(input({ settings: s, counters: c, now: tomorrow }))).to.include({ join: true })
    expect(countReply(c, tomorrow).dayCount).to.equal(1)
  })

  it('counting keeps only the last hour of times', () => {
    const c = repliesAt(T0, T0 + HOUR_MS + 1)
    expect(c?.lastHour).to.deep.equal([T0 + HOUR_MS + 1])
    expect(c).to.include({ day: localDay(T0), dayCount: 2, last: T0 + HOUR_MS + 1 })
  })
})

describe('proactive: the prompt and the answer', () => {
  it('writes the log as name: text lines, the bot as "you", images marked', () => {
    const text = logLines([
      { at: 1, userId: '1', nickname: 'Alice', text: 'hi\nthere' },
      { at: 2, userId: '2', text: 'look', images: 2 },
      { at: 3, userId: '9', nickname: 'Bot', text: 'hello', fromBot: true }
    ], { self: 'you', image: '[image]' })
    expect(text).to.equal('Alice: hi there\n2: look [image][image]\nyou: hello')
  })

  it('an empty or "[skip]"-style answer sends nothing; reasoning never goes out', () => {
    for (const a of ['', '  ', '[skip]', '[SKIP]', '(skip)', '【跳过】', 'skip', 'pass.', '沉默', '<think>nothing to add</think>[skip]', 'meh [skip]']) {
      expect(proactiveAnswer(a), JSON.stringify(a)).to.equal(undefined)
    }
    expect(proactiveAnswer('<think>hmm</think> 哈哈确实')).to.equal('哈哈确实')
    expect(proactiveAnswer('skip the boring part, this is fun')).to.equal('skip the boring part, this is fun')
  })
})

describe('chat trigger: keywords', () => {
  type Cfg = Pick<Config, 'trigger' | 'groups'>
  const cfg = (keywords: string[], groups: Cfg['groups'] = {}, over: Partial<Config['trigger']> = {}): Cfg => ({
    trigger: { private: 'always', group: 'at', prefix: '灵犀', randomRate: 0, keywords, ...over }, groups
  })
  const group = (text: string, groupId = '1', atBot = false) => ({ isGroup: true, groupId, atBot, text, commandPrefix: '#lx' })
  const never = (): number => 0.99
  // groups.<id> as the schema leaves it once parsed (only what the test sets)
  const entry = (keywords?: string[], type?: 'at' | 'off', enabled = true) =>
    ({ preset: '', enabled, trigger: { ...(type ? { type } : {}), ...(keywords ? { keywords } : {}) } }) as unknown as Cfg['groups'][string]

  it('a group message containing a keyword is answered as if the bot were called (letter case ignored)', () => {
    expect(decideTrigger(cfg(['灵犀酱', 'Bot']), group('今天灵犀酱在吗'), never)).to.deep.equal({ triggered: true, text: '今天灵犀酱在吗', reason: 'keyword' })
    expect(decideTrigger(cfg(['灵犀酱', 'Bot']), group('hey BOT, hi'), never)).to.include({ triggered: true, reason: 'keyword' })
    expect(decideTrigger(cfg(['灵犀酱']), group('随便聊聊'), never).triggered).to.equal(false)
    expect(decideTrigger(cfg([]), group('灵犀酱'), never).triggered, 'no keywords').to.equal(false)
  })

  it('commands still are not chat, keyword or not', () => {
    const c = cfg(['面板'])
    expect(decideTrigger(c, group('#lx面板'), never).triggered).to.equal(false)
    expect(decideTrigger(c, group('*星铁面板'), never).triggered).to.equal(false)
    expect(decideTrigger(c, group('#面板'), never).triggered).to.equal(false)
    expect(decideTrigger(c, group('打开面板看看'), never)).to.include({ triggered: true, reason: 'keyword' })
  })

  it('per group: groups.<id>.trigger.keywords replaces the list; a group off or disabled never', () => {
    const c = cfg(['全局'], { 7: entry(['本群']), 8: entry(undefined, 'off'), 9: entry(undefined, undefined, false) })
    expect(decideTrigger(c, group('本群的事', '7'), never)).to.include({ reason: 'keyword' })
    expect(decideTrigger(c, group('全局的事', '7'), never).triggered, 'the group list replaces the global one').to.equal(false)
    expect(decideTrigger(c, group('全局的事', '6'), never)).to.include({ reason: 'keyword' })
    expect(decideTrigger(c, group('全局的事', '8'), never).triggered, 'trigger off').to.equal(false)
    expect(decideTrigger(c, group('全局的事', '9'), never).triggered, 'group disabled').to.equal(false)
  })

  it('an @bot or the prefix still reads as such; private prefix mode also answers a keyword', () => {
    expect(decideTrigger(cfg(['灵犀酱']), group('灵犀酱 hi', '1', true), never)).to.include({ reason: 'at' })
    const priv = cfg(['小灵'], {}, { private: 'prefix' })
    expect(decideTrigger(priv, { isGroup: false, atBot: false, text: '小灵在吗' })).to.include({ triggered: true, reason: 'keyword' })
    expect(decideTrigger(priv, { isGroup: false, atBot: false, text: '在吗' }).triggered).to.equal(false)
    expect(decideTrigger(cfg(['小灵'], {}, { private: 'off' }), { isGroup: false, atBot: false, text: '小灵在吗' }).triggered).to.equal(false)
  })
})
