// What the skills routes need from the tool registry beyond ToolRegistryApi (toggles, categories,
// reload). The registry may offer these itself (methods detected at run time); otherwise tool and
// category switches are written to the tools configuration (`tools.disabledTools`,
// `tools.enabledCategories`) that the registry honours.
import { own } from '../core/dict.js'
import type { Runtime } from '../runtime.js'
import type { RegisteredTool, ToolRegistryApi } from '../tools/types.js'
import { toolRegistryOf } from './index.js'

/** Optional registry methods used when present. */
interface RegistryExtras {
  setEnabled?(name: string, enabled: boolean): unknown
  setToolEnabled?(name: string, enabled: boolean): unknown
  setCategoryEnabled?(category: string, enabled: boolean): unknown
  isCategoryEnabled?(category: string): boolean
  reload?(): unknown
  refresh?(): unknown
}

export interface CategoryInfo { key: string; name: string; label: string; toolCount: number; enabled: boolean }

const LABELS: Record<string, string> = {
  skills: '技能', basic: '基础', time: '时间', user: '用户', group: '群组', message: '消息', memory: '记忆',
  knowledge: '知识库', web: '网络', file: '文件', image: '图像', system: '系统', custom: '自定义', script: '脚本', mcp: 'MCP'
}

export class ToolAdmin {
  constructor (private readonly rt: Runtime, readonly registry: ToolRegistryApi) {}

  private get extras (): RegistryExtras { return this.registry as unknown as RegistryExtras }

  all (): RegisteredTool[] { return this.registry.list({ includeDisabled: true }) }
  enabled (name: string): boolean { return this.registry.isEnabled(name) }

  categories (): CategoryInfo[] {
    const map = new Map<string, RegisteredTool[]>()
    for (const t of this.all()) map.set(t.category, [...(map.get(t.category) ?? []), t])
    return [...map.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([key, tools]) => ({
      key,
      name: own(LABELS, key) ?? key,
      label: own(LABELS, key) ?? key,
      toolCount: tools.length,
      enabled: this.extras.isCategoryEnabled ? this.extras.isCategoryEnabled(key) : tools.some((t) => this.enabled(t.name))
    }))
  }

  hasCategory (key: string): boolean { return this.all().some((t) => t.category === key) }

  async setTool (name: string, enabled: boolean): Promise<void> {
    const x = this.extras
    if (x.setEnabled) { await x.setEnabled.call(this.registry, name, enabled); return }
    if (x.setToolEnabled) { await x.setToolEnabled.call(this.registry, name, enabled); return }
    await this.writeDisabled([name], enabled)
  }

  async setCategory (key: string, enabled: boolean): Promise<void> {
    const x = this.extras
    if (x.setCategoryEnabled) { await x.setCategoryEnabled.call(this.registry, key, enabled); return }
    const cfg = this.rt.config.get().tools
    if (cfg.enabledCategories.length > 0) {
      const cats = new Set(cfg.enabledCategories)
      if (enabled) cats.add(key); else cats.delete(key)
      await this.rt.config.update({ tools: { enabledCategories: [...cats] } })
    }
    await this.writeDisabled(this.all().filter((t) => t.category === key).map((t) => t.name), enabled)
  }

  /** Switches every tool; returns how many tools there are. */
  async setAll (enabled: boolean): Promise<number> {
    const tools = this.all()
    const cats = [...new Set(tools.map((t) => t.category))]
    if (this.extras.setCategoryEnabled) {
      for (const c of cats) await this.setCategory(c, enabled)
    }
    if (this.extras.setEnabled || this.extras.setToolEnabled) {
      for (const t of tools) await this.setTool(t.name, enabled)
    } else {
      await this.rt.config.update({ tools: { disabledTools: enabled ? [] : tools.map((t) => t.name), ...(enabled ? { enabledCategories: [] } : {}) } })
    }
    return tools.length
  }

  async reload (): Promise<void> {
    const x = this.extras
    if (x.reload) await x.reload.call(this.registry)
    else if (x.refresh) await x.refresh.call(this.registry)
  }

  private async writeDisabled (names: string[], enabled: boolean): Promise<void> {
    const disabled = new Set(this.rt.config.get().tools.disabledTools)
    for (const n of names) { if (enabled) disabled.delete(n); else disabled.add(n) }
    await this.rt.config.update({ tools: { disabledTools: [...disabled] } })
  }
}

export function toolAdminOf (rt: Runtime): ToolAdmin | undefined {
  const registry = toolRegistryOf(rt)
  return registry ? new ToolAdmin(rt, registry) : undefined
}
