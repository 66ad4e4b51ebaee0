// Where the plugin keeps its files. LINGXI_DATA_DIR moves data and the user's config (several copies
// side by side: tests, trials); otherwise data/ and config/config.yaml inside the plugin folder.
import { dirname, join, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensurePrivateDirSync } from './private-file.js'

/** The plugin's own folder (its package.json, sources and bundled files). */
export const PLUGIN_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const pluginDir = PLUGIN_DIR

export interface Paths {
  pluginDir: string
  dataDir: string
  defaultConfig: string
  userConfig: string
  logsDir: string
  bundledSkillsDir: string
}

export function resolvePaths (env: NodeJS.ProcessEnv = process.env): Paths {
  const custom = env.LINGXI_DATA_DIR ? resolve(env.LINGXI_DATA_DIR) : undefined
  const dataDir = custom ?? join(pluginDir, 'data')
  ensurePrivateDirSync(dataDir, { allowLink: true }) // 0700: only the bot's user reads its data
  return {
    pluginDir,
    dataDir,
    defaultConfig: join(pluginDir, 'config', 'default.yaml'),
    userConfig: custom ? join(dataDir, 'config.yaml') : join(pluginDir, 'config', 'config.yaml'),
    logsDir: join(dataDir, 'logs'),
    bundledSkillsDir: join(pluginDir, 'skills')
  }
}

/**
 * Resolves `name` inside `root` and refuses anything that escapes it (`..`, absolute paths, NUL).
 * Every path built from user input goes through here (README, "Security model").
 */
export function containedPath (root: string, name: string): string {
  if (name.includes('\0')) throw new Error('invalid path')
  const base = resolve(root)
  const full = resolve(base, name)
  if (full !== base && !full.startsWith(base + sep)) throw new Error('path escapes its folder')
  return full
}
