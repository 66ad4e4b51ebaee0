// The one alias rule for tool names seen outside the registry. Model-facing tool names must match
// OpenAI's ^[a-zA-Z0-9_-]{1,64}$, stricter than the MCP tool-name rule (letters, digits, `_`, `-`, `.`,
// at most 128), so the same aliases serve the chat (provider.ts) and our /mcp endpoint (lib/mcp/endpoint.ts).
// Registry names such as `mcp:<server>:<tool>` are mapped to a safe, unique alias and back.
import { createHash } from 'node:crypto'

const SAFE_NAME = /^[a-zA-Z0-9_-]{1,64}$/

export class AliasMap {
  private toAlias = new Map<string, string>()
  private toName = new Map<string, string>()

  /** Rebuilds the maps for the given registry names (stable: the same name gets the same alias). */
  rebuild (names: string[]): void {
    this.toAlias.clear(); this.toName.clear()
    // Safe names first so an alias never takes a real tool's name.
    for (const n of names) if (SAFE_NAME.test(n)) this.set(n, n)
    for (const n of names) {
      if (SAFE_NAME.test(n)) continue
      let base = n.replace(/[^a-zA-Z0-9_-]/g, '_').replace(/^_+/, '') || 'tool'
      let alias = base.slice(0, 64)
      if (this.toName.has(alias) || alias.length < base.length) {
        const h = createHash('sha1').update(n).digest('hex').slice(0, 8)
        base = base.slice(0, 55)
        alias = `${base}_${h}`
      }
      this.set(n, alias)
    }
  }

  private set (name: string, alias: string): void { this.toAlias.set(name, alias); this.toName.set(alias, name) }
  alias (name: string): string { return this.toAlias.get(name) ?? name }
  name (alias: string): string | undefined { return this.toName.get(alias) }
}
