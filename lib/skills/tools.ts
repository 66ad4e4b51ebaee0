// The skills' built-in tools for the model: list_skills, load_skill, get_skill_info.
import type { ToolResult } from '../chat/contracts.js'
import type { RegisteredTool, ToolSource } from '../tools/types.js'
import type { SkillService } from './service.js'

const text = (value: unknown, isError = false): ToolResult => ({
  content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value, null, 2) }],
  isError
})

const nameSchema = { type: 'object' as const, properties: { name: { type: 'string', description: '技能名称 (skill name)' } }, required: ['name'] }

function nameArg (args: Record<string, unknown>): string | undefined {
  return typeof args.name === 'string' && args.name.trim() ? args.name.trim() : undefined
}

export function skillTools (skills: SkillService): RegisteredTool[] {
  const base = { category: 'skills', source: 'builtin' as const, risk: 'low' as const, dangerous: false }
  return [
    {
      ...base,
      name: 'list_skills',
      description: '列出所有可用的技能及其说明 (list the available document skills)',
      inputSchema: { type: 'object', properties: {} },
      execute: async () => text({
        count: skills.list().length,
        skills: skills.list().map((s) => ({ name: s.name, description: s.description, triggers: s.triggers, autoActivate: s.autoActivate, loaded: skills.isLoaded(s.name) }))
      })
    },
    {
      ...base,
      name: 'load_skill',
      description: '在当前对话中启用一个技能，并返回它的完整说明 (activate a skill in this conversation and return its instructions)',
      inputSchema: nameSchema,
      execute: async (args, ctx) => {
        const name = nameArg(args)
        if (!name) return text('name is required', true)
        if (!skills.activate(ctx.scope.conversationId, name)) return text(`Skill ${name} does not exist`, true)
        const s = skills.get(name)
        return text(`已启用技能 ${name}。请按以下说明行事：\n\n${s?.instructions ?? ''}`)
      }
    },
    {
      ...base,
      name: 'get_skill_info',
      description: '查看一个技能的详细信息 (details of one skill)',
      inputSchema: nameSchema,
      execute: async (args) => {
        const name = nameArg(args)
        if (!name) return text('name is required', true)
        const s = skills.get(name)
        if (!s) return text(`Skill ${name} does not exist`, true)
        const { path: _p, directory: _d, ...doc } = skills.document(s)
        return text({ ...doc, instructions: s.instructions })
      }
    }
  ]
}

export function skillToolSource (skills: SkillService): ToolSource {
  const tools = skillTools(skills)
  return { id: 'skills', kind: 'builtin', list: () => tools }
}
