// Builds command regexes from the configured prefix (`#lx` by default): `#lx面板`, `#lx panel`.
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { resolvePaths } from '../lib/core/paths.js'

let prefixCache: string | undefined

/** The command prefix, read synchronously: plugin constructors run before any service starts. */
export function commandPrefix (): string {
  if (prefixCache) return prefixCache
  const paths = resolvePaths()
  let prefix = '#lx'
  for (const file of [paths.defaultConfig, paths.userConfig]) {
    try {
      const v = (parse(readFileSync(file, 'utf8')) as { commandPrefix?: unknown } | null)?.commandPrefix
      if (typeof v === 'string' && v) prefix = v
    } catch { /* missing or broken file: the config service reports it */ }
  }
  prefixCache = prefix
  return prefix
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
