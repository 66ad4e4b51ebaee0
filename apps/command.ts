// Builds command regexes from the configured prefix (`#lx` by default): `#lx面板`, `#lx panel`.
import { readConfigFiles } from '../lib/config/service.js'
import type { ConfigService } from '../lib/config/service.js'
import { resolvePaths } from '../lib/core/paths.js'
import { running } from '../lib/lifecycle.js'

const FALLBACK_PREFIX = '#lx'

/** The running plugin's config once it has started (and until it stops). */
let live: ConfigService | undefined
let watching = false
/** What the files said before the plugin ran (read once, by the config service's own reader). */
let beforeStart: string | undefined

function liveConfig (): ConfigService | undefined {
  const current = running()
  if (!watching && current) {
    watching = true
    current.then((r) => {
      live = r.rt.config
      r.rt.bus.on('stopping', () => { live = undefined; watching = false })
    }, () => { watching = false })
  }
  return live
}

/**
 * The command prefix: rt.config's `commandPrefix` while the plugin runs. Plugin constructors run
 * before any service starts (they build their rules from it), so until then the configuration files
 * are read once through the config service's reader.
 */
export function commandPrefix (): string {
  const config = liveConfig()
  if (config) return config.get().commandPrefix
  if (beforeStart === undefined) {
    const paths = resolvePaths()
    try { beforeStart = readConfigFiles({ defaultFile: paths.defaultConfig, userFile: paths.userConfig }).commandPrefix } catch { beforeStart = FALLBACK_PREFIX }
  }
  return beforeStart
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

const patterns = new Map<string, RegExp>()

/** `^#lx\s*(body)$` with the configured prefix, case-insensitive for the English aliases. Compiled once:
 * the hosts construct every plugin class again for each message. */
export function commandPattern (body: string, tail = '$'): RegExp {
  const source = `^${escape(commandPrefix())}\\s*${body}${tail}`
  let re = patterns.get(source)
  if (!re) patterns.set(source, (re = new RegExp(source, 'i')))
  return re
}
