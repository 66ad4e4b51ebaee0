// Start-up of the skills domain: the service, its watcher, the chat prompt contributor and the
// skills' tools in the tool registry (when the tools domain is running).
import { isAbsolute, join, resolve } from 'node:path'
import { containedPath } from '../core/paths.js'
import type { Domain, Runtime } from '../runtime.js'
import type { ToolRegistryApi } from '../tools/types.js'
import { skillsPromptSection } from './activation.js'
import { guardChatTools } from './chat-tools.js'
import { SkillService, type SkillRoot } from './service.js'
import { skillToolSource } from './tools.js'

declare module '../runtime.js' {
  interface Services { skills: SkillService }
}

/** The tool registry when the tools domain runs. */
export function toolRegistryOf (rt: Runtime): ToolRegistryApi | undefined {
  return rt.optional('tools')?.registry
}

/**
 * The user's skills folder: config `skills.dir`, default `<data>/skills`. A relative path must stay
 * inside the data folder (README, "Security model"); an absolute path is the owner's explicit choice (e.g. a
 * cloned skills repository). A relative path that escapes falls back to the default, with a warning.
 */
export function userSkillsDir (rt: Runtime): string {
  const dir = rt.config.get().skills.dir.trim()
  const fallback = join(rt.paths.dataDir, 'skills')
  if (!dir) return fallback
  if (isAbsolute(dir)) return resolve(dir)
  try {
    return containedPath(rt.paths.dataDir, dir)
  } catch {
    rt.log.warn('skills.dir escapes the data folder; using the default skills folder', { dir })
    return fallback
  }
}

function skillRoots (rt: Runtime): SkillRoot[] {
  return [{ dir: rt.paths.bundledSkillsDir, origin: 'bundled' }, { dir: userSkillsDir(rt), origin: 'user' }]
}

async function initSkills (rt: Runtime): Promise<void> {
  const skills = await SkillService.open({
    roots: () => skillRoots(rt),
    watch: () => rt.config.get().skills.watch && rt.config.get().context.autoReloadSkills,
    dataDir: rt.paths.dataDir,
    bus: rt.bus,
    log: rt.log,
    clock: rt.clock
  })
  rt.provide('skills', skills)
  await skills.start()
  rt.onStop.push(() => skills.stop())

  const off = rt.bus.on('config', (paths) => {
    if (paths.some((p) => p.startsWith('skills.') || p === 'context.autoReloadSkills')) {
      skills.restart().catch((err: unknown) => rt.log.error('Restarting the skills watcher failed', {}, err))
    }
  })
  rt.onStop.push(off)

  rt.chat.contributors.push({
    name: 'skills',
    slot: 'skills',
    contribute: async (turn) => {
      const active = skills.activeFor(turn)
      if (active.length) turn.trace?.skills(active)
      return skillsPromptSection(active)
    }
  })

  guardChatTools(rt.chat, skills)
  attachSkillTools(rt)
}

export const skillsDomain: Domain = { name: 'skills', provides: ['skills'], needs: [], optional: ['tools'], start: initSkills }

const attached = new WeakSet<ToolRegistryApi>()

/**
 * Adds the skills' tools to the registry once. Called at init and again by the skills routes, so the
 * tools appear even when the tools domain happens to start after this one.
 */
export function attachSkillTools (rt: Runtime): void {
  const registry = toolRegistryOf(rt)
  const skills = rt.optional('skills')
  if (!registry || !skills || attached.has(registry)) return
  if (!registry.get('list_skills')) registry.addSource(skillToolSource(skills))
  attached.add(registry)
}
