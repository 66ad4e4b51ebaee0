// Issue 19 target: choosing the tools of one request among 500 enabled tools (lib/tools/select.ts)
// takes under 1 ms p50. Measured on the selector alone (warm index: built once per change of the
// registry) and on the chat's whole path (ToolProvider.definitionsFor: listing, preset filter,
// selection, aliases), with a different message each round.
import type { ResolvedPreset, TurnContext } from '../lib/chat/contracts.js'
import { systemClock } from '../lib/core/clock.js'
import type { Runtime } from '../lib/runtime.js'
import { RegistryToolProvider } from '../lib/tools/provider.js'
import { ToolRegistry } from '../lib/tools/registry.js'
import { ToolSelector } from '../lib/tools/select.js'
import type { RegisteredTool, ToolSource } from '../lib/tools/types.js'
import { percentile, type BenchRow } from './types.js'

const ROUNDS = 500
const TARGET_MS = 1
const VERBS = ['search', 'read', 'write', 'list', 'delete', 'convert', 'translate', 'summarize', 'send', 'fetch']
const THINGS = ['file', 'issue', 'weather', 'calendar event', 'email', 'image', 'note', 'repository', 'message', 'ticket', '天气预报', '快递物流', '群公告']
const MESSAGES = [
  'please read the file notes.txt and summarize it',
  '帮我查一下明天北京的天气预报',
  'send an email to the team about the release',
  'list the open issues of the repository',
  '查询一下快递物流到哪里了',
  'translate this message into English: 你好世界'
]

function source (server: number, count: number): ToolSource {
  const tools: RegisteredTool[] = Array.from({ length: count }, (_, i) => {
    const verb = VERBS[(i + server) % VERBS.length] as string
    const thing = THINGS[(i * 7 + server) % THINGS.length] as string
    return {
      name: `mcp:server${server}:${verb}_${thing.replace(/\s/g, '_')}_${i}`,
      description: `${verb} a ${thing} (${i} of server ${server}); returns the result as text`,
      category: 'mcp',
      source: 'mcp',
      server: `server${server}`,
      inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
      risk: 'low',
      dangerous: false,
      execute: async () => ({ content: [{ type: 'text', text: 'ok' }], isError: false })
    }
  })
  return { id: `mcp:server${server}`, kind: 'mcp', list: () => tools }
}

export async function run (): Promise<BenchRow[]> {
  const tools = {
    enabled: true, enabledCategories: [], allowedTools: [], disabledTools: [], disabledCategories: [], allowDangerous: false,
    dangerousTools: [], approvalMode: 'auto', approvalTimeoutMs: 60000, approvalLowRiskTools: [], approvalMediumRiskTools: [],
    approvalHighRiskTools: [], approvalBypassTools: [], approvalAllowSessionBypass: true, approvalSessionBypassMaxRisk: 'medium',
    maxRounds: 5, watchScripts: false, eventProbability: 0.1, maxToolsPerRequest: 64, alwaysOnTools: []
  }
  const rt = {
    clock: systemClock,
    config: { get: () => ({ tools }), update: async () => ({ updated: [] }) },
    log: { warn: () => {}, info: () => {}, error: () => {}, debug: () => {} },
    stats: { recordToolCall: () => {} }
  } as unknown as Runtime
  const reg = new ToolRegistry(rt)
  for (let i = 0; i < 10; i++) reg.addSource(source(i, 50))
  const all = reg.list({ includeDisabled: true })
  if (all.length !== 500) throw new Error('expected 500 tools')
  const selector = new ToolSelector()
  selector.select(all, () => all, { input: 'warm up', pinned: [], max: 64 })
  const alone: number[] = []
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now()
    const picked = selector.select(all, () => all, { input: MESSAGES[i % MESSAGES.length] as string, recent: MESSAGES[(i + 1) % MESSAGES.length], pinned: [], max: 64 })
    alone.push(performance.now() - t0)
    if (picked.length !== 64) throw new Error('expected 64 tools')
  }
  const provider = new RegistryToolProvider(reg)
  const preset: ResolvedPreset = { id: 'd', name: 'd', systemPrompt: '', tools: { enabled: true, allowedTools: [], excludedTools: [], allowDangerous: false }, memory: { enabled: false, maxMemories: 0 } }
  const turn = (i: number): TurnContext => ({ scope: { userId: '1', isMaster: false, via: 'bot', conversationId: 'private:1' }, preset, input: MESSAGES[i % MESSAGES.length] as string, recent: MESSAGES[(i + 2) % MESSAGES.length] as string })
  await provider.definitionsFor(turn(0))
  const whole: number[] = []
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now()
    await provider.definitionsFor(turn(i))
    whole.push(performance.now() - t0)
  }
  const row = (name: string, values: number[]): BenchRow => {
    const p50 = Math.round(percentile(values, 50) * 1000) / 1000
    return { name, figure: p50, unit: 'ms (p50)', target: `< ${TARGET_MS} ms`, pass: p50 < TARGET_MS }
  }
  return [
    row('tools: choose 64 of 500 tools for a message', alone),
    row('tools: chat definitions, 64 chosen of 500', whole)
  ]
}
