// The one alias rule for tool names seen outside the registry. Model-facing tool names follow the
// tool-name rule (names.ts), so the same aliases serve the chat (provider.ts) and our /mcp endpoint
// (lib/mcp/endpoint.ts). Registry names such as `mcp:<server>:<tool>` are mapped to a safe, unique alias and back.
import { createHash } from 'node:crypto'
import { isToolName, NON_NAME_CHARS, TOOL_NAME_MAX } from './names.js'

/** room for `_` and 8 hex digits of the name's hash */
const HASHED_BASE = TOOL_NAME_MAX - 9

export class AliasMap {
  private toAlias = new Map<string, string>()
  private toName = new Map<string, string>()

  /** Rebuilds the maps for the given registry names (stable: the same name gets the same alias). */
  rebuild (names: string[]): void {
    this.toAlias.clear(); this.toName.clear()
    // Safe names first so an alias never takes a real tool's name.
    for (const n of names) if (isToolName(n)) this.set(n, n)
    for (const n of names) {
      if (isToolName(n)) continue
      let base = n.replace(NON_NAME_CHARS, '_').replace(/^_+/, '') || 'tool'
      let alias = base.slice(0, TOOL_NAME_MAX)
      if (this.toName.has(alias) || alias.length < base.length) {
        const h = createHash('sha1').update(n).digest('hex').slice(0, 8)
        base = base.slice(0, HASHED_BASE)
        alias = `${base}_${h}`
      }
      this.set(n, alias)
    }
  }

  private set (name: string, alias: string): void { this.toAlias.set(name, alias); this.toName.set(alias, name) }
  alias (name: string): string { return this.toAlias.get(name) ?? name }
  name (alias: string): string | undefined { return this.toName.get(alias) }
}
