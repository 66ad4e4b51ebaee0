// The registry on its own: switches, name collisions, model-safe aliases, the ToolProvider of the
// chat pipeline and the approval gate (with a manual clock: no sleeping).
import { expect } from 'chai'
import type { ChatScope, ResolvedPreset, TurnContext } from '../../lib/chat/contracts.js'
import type { Clock } from '../../lib/core/clock.js'
import type { Runtime } from '../../lib/runtime.js'
import type { ApprovalRequest } from '../../lib/tools/approval.js'
import { RegistryToolProvider } from '../../lib/tools/provider.js'
import { ToolRegistry } from '../../lib/tools/registry.js'
import type { ToolCallContext } from '../../lib/tools/types.js'
import { fakeSource, fakeTool } from './helpers.js'

/** A clock whose timers fire only when the test advances it. */
export function manualClock (): Clock & { advance(ms: number): void; timers: number } {
  let now = 1_700_000_000_000
  let seq = 0
  const timers = new Map<number, { at: number; fn: () => void }>()
  return {
    now: () => now,
    setTimeout: (fn, ms) => { const id = ++seq; timers.set(id, { at: now + ms, fn }); return id as unknown as NodeJS.Timeout },
    clearTimeout: (t) => { timers.delete(t as unknown as number) },
    setInterval: () => { throw new Error('not used') },
    clearInterval: () => {},
    advance (ms: number) {
      now += ms
      for (const [id, t] of [...timers]) if (t.at <= now) { timers.delete(id); t.fn() }
    },
    get timers () { return timers.size }
  }
}

const defaults = {
  enabled: true, enabledCategories: [] as string[], allowedTools: [] as string[], disabledTools: [] as string[], disabledCategories: [] as string[],
  allowDangerous: false, dangerousTools: [] as string[], approvalMode: 'auto' as 'auto' | 'manual' | 'deny' | 'allow', approvalTimeoutMs: 60000,
  approvalLowRiskTools: [] as string[], approvalMediumRiskTools: [] as string[], approvalHighRiskTools: [] as string[], approvalBypassTools: [] as string[],
  approvalAllowSessionBypass: true, approvalSessionBypassMaxRisk: 'medium' as const, maxRounds: 5, watchScripts: false, eventProbability: 0.1
}

function fakeRt (clock: Clock) {
  let cfg = { tools: { ...defaults }, commandPrefix: '#lx' }
  const calls: Array<{ name: string; success: boolean }> = []
  const rt = {
    clock,
    config: {
      get: () => cfg,
      update: async (p: { tools?: Partial<typeof defaults> }) => { cfg = { ...cfg, tools: { ...cfg.tools, ...p.tools } }; return { updated: [] } },
      writer: () => ({ get: () => cfg.tools, update: async (p: Partial<typeof defaults>) => rt.config.update({ tools: p }) })
    },
    log: { warn: () => {}, info: () => {}, error: () => {}, debug: () => {} },
    stats: { recordToolCall: (c: { name: string; success: boolean }) => { calls.push(c) } }
  }
  return { rt: rt as unknown as Runtime, calls, set: (p: Partial<typeof defaults>) => rt.config.update({ tools: p }) }
}

const scope = (over: Partial<ChatScope> = {}): ChatScope => ({ userId: '20002', groupId: '300', isMaster: false, via: 'bot', conversationId: 'group:300:20002', ...over })
const ctxOf = (s: ChatScope): ToolCallContext => ({ scope: s, userPermission: s.isMaster ? 'master' : 'member', isMaster: s.isMaster })
const preset = (tools: Partial<ResolvedPreset['tools']> = {}): ResolvedPreset => ({
  id: 'default', name: 'd', systemPrompt: '', tools: { enabled: true, allowedTools: [], excludedTools: [], allowDangerous: false, ...tools }, memory: { enabled: false, maxMemories: 0 }
})
const turn = (p = preset(), s = scope()): TurnContext => ({ scope: s, preset: p, input: 'hi' })
const textOf = (r: { content: Array<{ type: string; text?: string }> }): string => r.content.map((c) => c.text ?? '').join('')

describe('tools: registry, provider and approval gate', () => {
  let clock: ReturnType<typeof manualClock>
  let env: ReturnType<typeof fakeRt>
  let reg: ToolRegistry
  let asked: ApprovalRequest[]
  let ran: string[]

  beforeEach(() => {
    clock = manualClock()
    env = fakeRt(clock)
    reg = new ToolRegistry(env.rt)
    asked = []
    ran = []
    reg.approvals.notify = (req) => { asked.push(req) }
    const exec = (n: string) => async () => { ran.push(n); return { content: [{ type: 'text' as const, text: `${n} done` }], isError: false } }
    reg.addSource(fakeSource('base', [
      fakeTool('safe', { category: 'basic', execute: exec('safe') }),
      fakeTool('wipe', { category: 'system', dangerous: true, risk: 'high', execute: exec('wipe') }),
      fakeTool('kick', { category: 'group', dangerous: true, risk: 'medium', execute: exec('kick') })
    ]))
  })

  describe('sources and switches', () => {
    it('two MCP servers with the same tool name never overwrite each other; the first source wins a name', () => {
      reg.addSource(fakeSource('mcp:a', [fakeTool('mcp:a:search', { source: 'mcp', server: 'a' })], 'mcp'))
      reg.addSource(fakeSource('mcp:b', [fakeTool('mcp:b:search', { source: 'mcp', server: 'b' }), fakeTool('safe', { description: 'impostor' })], 'mcp'))
      expect(reg.get('mcp:a:search')?.server).to.equal('a')
      expect(reg.get('mcp:b:search')?.server).to.equal('b')
      expect(reg.get('safe')?.description).to.equal('fake safe')
      reg.removeSource('mcp:a')
      expect(reg.get('mcp:a:search')).to.equal(undefined)
    })
    it('a source announcing a change is re-listed', () => {
      const src = fakeSource('dyn', [fakeTool('one')])
      reg.addSource(src)
      expect(reg.get('one')).to.not.equal(undefined)
      src.set([fakeTool('two')])
      expect(reg.get('one')).to.equal(undefined)
      expect(reg.get('two')).to.not.equal(undefined)
    })
    it('per tool, per category, allow list and the global switch', async () => {
      await reg.switches.setTool('safe', false)
      expect(reg.isEnabled('safe')).to.equal(false)
      expect(reg.list().map((t) => t.name)).to.not.include('safe')
      expect(reg.list({ includeDisabled: true }).map((t) => t.name)).to.include('safe')
      await reg.switches.setTool('safe', true)
      await reg.switches.setCategory('system', false)
      expect(reg.isEnabled('wipe')).to.equal(false)
      expect(reg.isCategoryEnabled('system')).to.equal(false)
      await reg.switches.setCategory('system', true)
      expect(reg.isEnabled('wipe')).to.equal(true)
      await env.set({ allowedTools: ['safe'] })
      expect(reg.list().map((t) => t.name)).to.deep.equal(['safe'])
      await env.set({ allowedTools: [], enabledCategories: ['group'] })
      expect(reg.list().map((t) => t.name)).to.deep.equal(['kick'])
      await env.set({ enabledCategories: [], enabled: false })
      expect(reg.list()).to.deep.equal([])
    })
    it('a disabled or unknown tool is refused with TOOL_DISABLED / TOOL_NOT_FOUND', async () => {
      await reg.switches.setTool('safe', false)
      let err: unknown
      try { await reg.call('safe', {}, ctxOf(scope())) } catch (e) { err = e }
      expect(err).to.have.property('code', 'TOOL_DISABLED')
      err = undefined
      try { await reg.call('ghost', {}, ctxOf(scope())) } catch (e) { err = e }
      expect(err).to.have.property('code', 'TOOL_NOT_FOUND')
    })
    it('records a log entry and the stats of each call', async () => {
      await reg.call('safe', { x: 1 }, ctxOf(scope()))
      const { logs, total } = reg.log.query({})
      expect(total).to.equal(1)
      expect(logs[0]).to.include({ toolName: 'safe', status: 'success', userId: '20002', groupId: '300', timestamp: new Date(clock.now()).toISOString() })
      expect(logs[0]!.args).to.deep.equal({ x: 1 })
      expect(env.calls).to.deep.equal([{ name: 'safe', durationMs: logs[0]!.duration, success: true, userId: '20002', groupId: '300' }])
    })
    it('keeps at most 1000 log entries, newest first', async () => {
      for (let i = 0; i < 1005; i++) reg.log.push({ ...reg.log.all()[0]!, id: String(i), toolName: 't', args: {}, result: { error: '' }, status: 'success', duration: 0, userId: String(i), timestamp: '' })
      expect(reg.log.size).to.equal(1000)
      expect(reg.log.all()[0]!.userId).to.equal('1004')
    })
  })

  describe('ToolProvider for chat', () => {
    it('offers enabled tools under model-safe names and maps them back', async () => {
      reg.addSource(fakeSource('mcp:x', [
        fakeTool('mcp:web:fetch', { source: 'mcp', server: 'web', execute: async () => ({ content: [{ type: 'text', text: 'fetched' }], isError: false }) }),
        fakeTool('mcp:web2:fetch', { source: 'mcp', server: 'web2' }),
        fakeTool(`mcp:${'long'.repeat(20)}:tool`, { source: 'mcp' })
      ], 'mcp'))
      const p = new RegistryToolProvider(reg)
      const defs = await p.definitionsFor(turn())
      const names = defs.map((d) => d.name)
      for (const n of names) expect(n).to.match(/^[a-zA-Z0-9_-]{1,64}$/)
      expect(new Set(names).size).to.equal(names.length)
      expect(names).to.include('safe')
      expect(names).to.not.include('wipe') // dangerous tools are offered only when allowed
      const alias = p.aliasOf('mcp:web:fetch')
      expect(names).to.include(alias)
      expect(p.nameOf(alias)).to.equal('mcp:web:fetch')
      expect(textOf(await p.execute(alias, {}, turn()))).to.equal('fetched')
      expect(textOf(await p.execute('no_such_tool', {}, turn()))).to.include('does not exist')
    })
    it('applies the preset: off, allowed, excluded, allowDangerous', async () => {
      const p = new RegistryToolProvider(reg)
      expect(await p.definitionsFor(turn(preset({ enabled: false })))).to.deep.equal([])
      expect((await p.definitionsFor(turn(preset({ allowedTools: ['safe', 'kick'] })))).map((d) => d.name)).to.deep.equal(['safe'])
      expect((await p.definitionsFor(turn(preset({ excludedTools: ['safe'], allowDangerous: true })))).map((d) => d.name)).to.deep.equal(['wipe', 'kick'])
    })
  })

  describe('approval gate', () => {
    it('a dangerous tool called in chat waits for the master; approved, it runs', async () => {
      const pending = reg.call('wipe', { path: '/tmp' }, ctxOf(scope()))
      await Promise.resolve()
      expect(asked).to.have.length(1)
      expect(asked[0]).to.include({ toolName: 'wipe', risk: 'high' })
      expect(ran).to.deep.equal([])
      expect(reg.approvals.decide(asked[0]!.id, true)).to.not.equal(undefined)
      const r = await pending
      expect(r.isError).to.equal(false)
      expect(ran).to.deep.equal(['wipe'])
    })
    it('refused, it does not run and the model is told', async () => {
      const pending = reg.call('wipe', {}, ctxOf(scope()))
      await Promise.resolve()
      reg.approvals.decide(asked[0]!.id, false)
      const r = await pending
      expect(r.isError).to.equal(true)
      expect(textOf(r)).to.include('refused')
      expect(ran).to.deep.equal([])
      expect(reg.log.query({}).logs[0]!.status).to.equal('error')
    })
    it('unanswered, it times out after approvalTimeoutMs', async () => {
      await env.set({ approvalTimeoutMs: 5000 })
      const pending = reg.call('wipe', {}, ctxOf(scope()))
      await Promise.resolve()
      clock.advance(4999)
      let settled = false
      void pending.then(() => { settled = true })
      await Promise.resolve(); await Promise.resolve()
      expect(settled).to.equal(false)
      clock.advance(1)
      const r = await pending
      expect(textOf(r)).to.include('timed out')
      expect(ran).to.deep.equal([])
      expect(clock.timers).to.equal(0)
      expect(reg.approvals.decide(asked[0]!.id, true)).to.equal(undefined) // too late
    })
    it('session bypass: approved for the session, the next call of a medium-risk tool does not ask', async () => {
      let pending = reg.call('kick', {}, ctxOf(scope()))
      await Promise.resolve()
      reg.approvals.decide(asked[0]!.id, true, { session: true })
      await pending
      pending = reg.call('kick', {}, ctxOf(scope()))
      expect((await pending).isError).to.equal(false)
      expect(asked).to.have.length(1)
      // high risk is above approvalSessionBypassMaxRisk (medium): it asks every time
      pending = reg.call('wipe', {}, ctxOf(scope()))
      await Promise.resolve()
      reg.approvals.decide(asked[1]!.id, true, { session: true })
      await pending
      pending = reg.call('wipe', {}, ctxOf(scope()))
      await Promise.resolve()
      expect(asked).to.have.length(3)
      reg.approvals.decide(asked[2]!.id, false)
      await pending
    })
    it('modes: allow runs, deny refuses, manual asks even the master; bypass list skips', async () => {
      await env.set({ approvalMode: 'allow' })
      expect((await reg.call('wipe', {}, ctxOf(scope()))).isError).to.equal(false)
      await env.set({ approvalMode: 'deny' })
      expect(textOf(await reg.call('wipe', {}, ctxOf(scope())))).to.include('dangerous')
      await env.set({ approvalBypassTools: ['wipe'] })
      expect((await reg.call('wipe', {}, ctxOf(scope()))).isError).to.equal(false)
      await env.set({ approvalBypassTools: [], approvalMode: 'auto' })
      expect((await reg.call('wipe', {}, ctxOf(scope({ isMaster: true })))).isError).to.equal(false) // auto: the master's own call
      await env.set({ approvalMode: 'manual' })
      const pending = reg.call('wipe', {}, ctxOf(scope({ isMaster: true })))
      await Promise.resolve()
      expect(asked).to.have.length(1)
      reg.approvals.decide(asked[0]!.id, true)
      expect((await pending).isError).to.equal(false)
      expect(asked).to.have.length(1)
    })
    it('outside a QQ chat nobody can be asked: MCP callers are refused, the master via the API and the test panel run', async () => {
      expect(textOf(await reg.call('wipe', {}, { ...ctxOf(scope({ via: 'mcp' })), userPermission: 'admin' }))).to.include('approval')
      expect((await reg.call('wipe', {}, ctxOf(scope({ via: 'api', isMaster: true })))).isError).to.equal(false)
      expect((await reg.call('wipe', {}, { ...ctxOf(scope({ via: 'admin-test', isMaster: true })), isAdminTest: true })).isError).to.equal(false)
      expect(asked).to.have.length(0)
    })
    it('a notifier that fails refuses instead of hanging; close() refuses what waits', async () => {
      reg.approvals.notify = () => { throw new Error('no host') }
      expect(textOf(await reg.call('wipe', {}, ctxOf(scope())))).to.include('refused')
      reg.approvals.notify = () => {}
      const pending = reg.call('wipe', {}, ctxOf(scope()))
      await Promise.resolve()
      reg.approvals.close()
      expect((await pending).isError).to.equal(true)
    })
    it('risk lists override a tool\'s risk', async () => {
      await env.set({ approvalLowRiskTools: ['wipe'] })
      expect(reg.riskOf(reg.get('wipe')!)).to.equal('low')
      await env.set({ approvalHighRiskTools: ['safe'] })
      expect(reg.riskOf(reg.get('safe')!)).to.equal('high')
    })
  })
})
