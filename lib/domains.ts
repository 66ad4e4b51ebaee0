// Start-up of the domain services, in order (a later domain may use an earlier one). Each domain
// augments the Runtime interface in its own files (`declare module '../runtime.js'`) and assigns its
// service here, before the web server starts.
import type { Runtime } from './runtime.js'
import { initChannels } from './channels/index.js'
import { initChat } from './chat/index.js'
import { initSkills } from './skills/index.js'
import { initTools } from './tools/index.js'
import { initMcp } from './mcp/index.js'
import { initPresets } from './presets/index.js'
import { initDrawing } from './drawing/index.js'
import { initGame } from './game/index.js'
import { initMemory } from './memory/index.js'
import { initKnowledge } from './knowledge/index.js'

export type DomainInit = (rt: Runtime) => Promise<void> | void

const DOMAINS: Array<[name: string, init: DomainInit]> = [
  // [name, init] entries are added by each domain, one line each.
  ['channels', initChannels],
  ['chat', initChat], // after channels: the pipeline calls rt.chat.models
  ['tools', initTools], // before skills and mcp: they add their tool sources to rt.tools
  ['skills', initSkills], // after 'tools': adds the skills' tools to rt.tools
  ['presets', initPresets],
  ['drawing', initDrawing],
  ['game', initGame],
  ['memory', initMemory], // after chat: adds its observer and prompt contributor
  ['knowledge', initKnowledge],
  ['mcp', initMcp], // servers connect in the background; their tools join rt.tools when it exists
]

export async function initDomains (rt: Runtime): Promise<void> {
  for (const [name, init] of DOMAINS) {
    try {
      await init(rt)
    } catch (err) {
      rt.log.error(`Failed to start ${name}`, {}, err)
      throw err
    }
  }
}
