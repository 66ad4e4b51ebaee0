// Issue 5 target: a registry with 500 tools lists in under 5 ms. Measured warm (cached list, config
// switches applied per call), cold (right after a source announced a change) and as the chat
// pipeline sees it (ToolProvider.definitionsFor with model-safe aliases).
import type { ResolvedPreset, TurnContext } from '../lib/chat/contracts.js'
import { systemClock } from '../lib/core/clock.js'
import type { Runtime } from '../lib/runtime.js'
import { RegistryToolProvider } from '../lib/tools/provider.js'
import { ToolRegistry } from '../lib/tools/registry.js'
import type { RegisteredTool, ToolSource } from '../lib/tools/types.js'
import { percentile, type BenchRow } from './types.js'

const ROUNDS = 200
const TARGET_MS = 5

function source (server: number, count: number): ToolSource & { touch(): void } {
  const tools: RegisteredTool[] = Array.from({ length: count }, (_, i) => ({
    name: `mcp:server${server}:tool_${i}`,
    description: `Tool ${i} of server ${server}`,
    category: i % 3 === 0 ? 'mcp' : `cat${i % 7}`,
    source: 'mcp',
    server: `server${server}`,
    inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
    risk: 'low',
    dangerous: i % 25 === 0,
    execute: async () => ({ content: [{ type: 'text', text: 'ok' }], isError: false })
  }))
  const fns: Array<() => void> = []
  return { id: `mcp:server${server}`, kind: 'mcp', list: () => tools, onChange: (fn) => { fns.push(fn) }, touch: () => { for (const f of fns) f() } }
}

function time (fn: () => unknown): number[] {
  const out: number[] = []
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now()
    fn()
    out.push(performance.now() - t0)
  }
  return out
}

export async function run (): Promise<BenchRow[]> {
  const tools = {
    enabled: true, enabledCategories: [], allowedTools: [], disabledTools: Array.from({ length: 50 }, (_, i) => `mcp:server1:tool_${i}`),
    disabledCategories: ['cat6'], allowDangerous: false, dangerousTools: [], approvalMode: 'auto', approvalTimeoutMs: 60000,
    approvalLowRiskTools: [], approvalMediumRiskTools: [], approvalHighRiskTools: [], approvalBypassTools: [],
    approvalAllowSessionBypass: true, approvalSessionBypassMaxRisk: 'medium', maxRounds: 5, watchScripts: false, eventProbability: 0.1
  }
  const rt = {
    clock: systemClock,
    config: { get: () => ({ tools }), update: async () => ({ updated: [] }) },
    log: { warn: () => {}, info: () => {}, error: () => {}, debug: () => {} },
    stats: { recordToolCall: () => {} }
  } as unknown as Runtime
  const reg = new ToolRegistry(rt)
  const sources = Array.from({ length: 10 }, (_, i) => source(i, 50))
  for (const s of sources) reg.addSource(s)
  const provider = new RegistryToolProvider(reg)
  const preset: ResolvedPreset = { id: 'd', name: 'd', systemPrompt: '', tools: { enabled: true, allowedTools: [], excludedTools: [], allowDangerous: false }, memory: { enabled: false, maxMemories: 0 } }
  const turn: TurnContext = { scope: { userId: '1', isMaster: false, via: 'bot', conversationId: 'private:1' }, preset, input: '' }

  if (reg.list({ includeDisabled: true }).length !== 500) throw new Error('expected 500 tools')
  const warm = time(() => reg.list())
  const cold = time(() => { sources[3]!.touch(); return reg.list() })
  const defs: number[] = []
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now()
    await provider.definitionsFor(turn)
    defs.push(performance.now() - t0)
  }
  const row = (name: string, values: number[]): BenchRow => {
    const p50 = Math.round(percentile(values, 50) * 1000) / 1000
    return { name, figure: p50, unit: 'ms (p50)', target: `< ${TARGET_MS} ms`, pass: p50 < TARGET_MS }
  }
  return [
    row('tools: list 500 tools (warm)', warm),
    row('tools: list 500 tools after a source change', cold),
    row('tools: chat definitions for 500 tools', defs)
  ]
}
