// Host configuration: the YAML files written into the host root and the object the
// `lib/config/config.js` stub exports (Miao `getGroup(group_id)`, TRSS
// `getGroup(bot_id, group_id)` and `master: {[bot_id]: string[]}`).
import { stringify } from 'yaml'
import { hostId } from './ids.js'
import { HOST_PACKAGE_NAME, HOST_VERSION, LIMITS } from './profile.js'
import type { GroupConfig, Id, OtherConfig, Profile } from './types.js'

export interface HostConfigInput {
  profile: Profile
  botId: string
  masters: string[]
  other?: Partial<OtherConfig>
  /** group id (or TRSS `bot:group`) → settings; `default` applies everywhere */
  groups?: Record<string, Partial<GroupConfig>>
  /** TRSS server settings, filled once the HTTP server listens */
  server?: { port: number; url: string }
}

const DEFAULT_GROUP: GroupConfig = { onlyReplyAt: 0, botAlias: [], enable: [], disable: [] }

export class HostConfig {
  readonly profile: Profile
  readonly botId: string
  masters: string[]
  other: OtherConfig
  groups: Record<string, Partial<GroupConfig>>
  server?: { port: number; url: string }
  /** bot.yaml; TRSS's `/→#` switch turns a leading `/` into `#` */
  bot: Record<string, unknown>

  constructor(input: HostConfigInput) {
    this.profile = input.profile
    this.botId = input.botId
    this.masters = input.masters.map(String)
    this.other = { blackQQ: [], whiteQQ: [], blackGroup: [], whiteGroup: [], ...input.other }
    this.groups = { default: {}, ...input.groups }
    this.server = input.server
    this.bot = input.profile === 'trss'
      ? { log_level: 'info', '/→#': true, file_watch: false, plugin_load_timeout: 60 }
      : { log_level: 'info', ignore_self: true, serial_load: false }
  }

  /** `masterQQ` keeps YAML types: numeric ids are numbers. */
  get masterQQ(): Id[] {
    return this.masters.map((m) => hostId('miao', m))
  }

  /** TRSS `cfg.master`: per bot id. */
  get master(): Record<string, string[]> {
    return { [this.botId]: [...this.masters] }
  }

  isMaster(userId: Id, selfId: Id): boolean {
    const list = this.profile === 'trss' ? this.master[String(selfId)] ?? [] : this.masterQQ.map(String)
    return list.includes(String(userId))
  }

  group(groupId?: Id, botId: Id = this.botId): GroupConfig {
    const g = groupId === undefined ? {} : { ...this.groups[String(groupId)], ...this.groups[`${botId}:${groupId}`] }
    return { ...DEFAULT_GROUP, ...this.groups.default, ...g }
  }

  /** The default export of the `lib/config/config.js` stub, shaped like the profile's host. */
  view(): Record<string, unknown> {
    const pkg = { name: HOST_PACKAGE_NAME[this.profile], version: HOST_VERSION, type: 'module' }
    const common = {
      masterQQ: this.masterQQ,
      bot: this.bot,
      package: pkg,
      other: this.otherYaml(),
      group: this.groupYaml(),
      getOther: () => this.otherYaml(),
      getConfig: (name: string) => this.yamlObject(name)
    }
    if (this.profile === 'miao') return { ...common, getGroup: (groupId?: Id) => this.group(groupId) }
    return { ...common, master: this.master, server: this.serverYaml(), getGroup: (botId?: Id, groupId?: Id) => this.group(groupId, botId) }
  }

  private serverYaml(): Record<string, unknown> {
    return { port: this.server?.port ?? 0, url: this.server?.url ?? '', auth: {}, https: { enable: false } }
  }

  private otherYaml(): Record<string, unknown> {
    const base: Record<string, unknown> = { masterQQ: this.masterQQ, ...this.other, disablePrivate: false, autoFriend: 1 }
    if (this.profile === 'trss') base.master = this.masters.map((m) => `${this.botId}:${m}`)
    return base
  }

  private groupYaml(): Record<string, unknown> {
    const { groupCD, singleCD } = LIMITS[this.profile]
    const cds = this.profile === 'trss' ? { groupCD, singleCD } : { groupGlobalCD: groupCD, singleCD }
    return { ...this.groups, default: { ...cds, ...DEFAULT_GROUP, ...this.groups.default } }
  }

  private yamlObject(name: string): Record<string, unknown> {
    switch (name) {
      case 'other': return this.otherYaml()
      case 'group': return this.groupYaml()
      case 'bot': return this.bot
      case 'server': return this.profile === 'trss' ? this.serverYaml() : {}
      default: return {}
    }
  }

  /** Files to write under the host root (relative path → content). */
  files(): Record<string, string> {
    const files: Record<string, string> = {
      'config/config/other.yaml': stringify(this.otherYaml()),
      'config/config/group.yaml': stringify(this.groupYaml()),
      'config/config/bot.yaml': stringify(this.bot)
    }
    if (this.profile === 'trss') files['config/config/server.yaml'] = stringify(this.serverYaml())
    return files
  }
}
