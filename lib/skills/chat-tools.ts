// Applies the active skills' allowedTools / disallowedTools to the tools chat offers and runs.
// rt.chat.tools belongs to the tools domain; whatever provider is assigned there (before or after
// this domain starts) is wrapped on assignment, so the rule holds whatever the start-up order.
import type { ChatHooks, ToolProvider } from '../chat/contracts.js'
import type { SkillService } from './service.js'

const guarded = new WeakSet<ToolProvider>()

function guardProvider (inner: ToolProvider, skills: SkillService): ToolProvider {
  if (guarded.has(inner)) return inner
  const outer: ToolProvider = {
    definitionsFor: async (turn) => skills.filterTools(await inner.definitionsFor(turn), turn),
    execute: async (name, args, turn) => {
      if (!skills.isToolAllowed(name, turn)) {
        return { content: [{ type: 'text', text: `Tool ${name} is not available while the active skills are in use` }], isError: true }
      }
      return inner.execute(name, args, turn)
    }
  }
  guarded.add(outer)
  return outer
}

/** Makes `hooks.tools` always hold a skill-guarded provider. */
export function guardChatTools (hooks: ChatHooks, skills: SkillService): void {
  let current = hooks.tools ? guardProvider(hooks.tools, skills) : undefined
  Object.defineProperty(hooks, 'tools', {
    configurable: true,
    enumerable: true,
    get: () => current,
    set: (p: ToolProvider | undefined) => { current = p ? guardProvider(p, skills) : undefined }
  })
}
