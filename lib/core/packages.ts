// Which of the plugin's npm dependencies are installed, and what is off without one. The loader
// (boot/deps.mjs) checks package.json's dependencies at every start and installs missing ones; what it
// could not install is read here. The packages bundled into the plugin (INLINE) are what every start
// needs; every other dependency is imported where it is used, never at start, so a missing one turns
// off the features listed below and nothing else (README, Updating).
import { installPlan, missingDependencies, REPORT_KEY, type DependencyReport } from '../../boot/deps.mjs'
import { PLUGIN_DIR } from './paths.js'

export type { DependencyReport }

/** What the plugin can do, as far as its packages decide it. */
export type Feature = 'models' | 'mcp' | 'reminders' | 'webFetch' | 'outbound' | 'fileWatch' | 'apiBodies' | 'dashboard' | 'fastStart' | 'standalone' | 'versionCheck' | 'textNormalize' | 'tokenCount' | 'knowledgeFiles' | 'database' | 'sharedState' | 'cronSchedules'

/**
 * The features each dependency outside INLINE serves. Every dependency in package.json is INLINE or
 * listed here (tests/structure/dependencies.test.ts holds that), so a new one says what it is for.
 */
export const PACKAGE_FEATURES: ReadonlyMap<string, readonly Feature[]> = new Map<string, readonly Feature[]>([
  ['openai', ['models']],
  ['undici', ['models', 'webFetch', 'outbound']],
  ['@modelcontextprotocol/sdk', ['mcp']],
  ['@mozilla/readability', ['webFetch', 'knowledgeFiles']],
  ['linkedom', ['webFetch', 'knowledgeFiles']],
  ['unpdf', ['knowledgeFiles']],
  ['mammoth', ['knowledgeFiles']],
  ['read-excel-file', ['knowledgeFiles']],
  ['ipaddr.js', ['webFetch', 'outbound']],
  ['chrono-node', ['reminders']],
  ['chokidar', ['fileWatch']],
  ['koa-body', ['apiBodies']],
  ['koa-send', ['dashboard']],
  ['preact', ['dashboard']],
  ['vite', ['dashboard']],
  ['@cfworker/json-schema', ['dashboard']],
  ['markdown-it', ['dashboard']],
  ['esbuild', ['fastStart']],
  ['tsx', ['fastStart']],
  ['compression', ['standalone']],
  ['body-parser', ['standalone']],
  ['semver', ['versionCheck']],
  ['opencc-js', ['textNormalize']],
  ['gpt-tokenizer', ['tokenCount']],
  ['pg', ['database']],
  ['ioredis', ['sharedState']],
  ['croner', ['cronSchedules']]
])

/** What each feature is, for the master (zh-CN first, as the bot's replies). */
export const FEATURE_TEXT: Readonly<Record<Feature, { zh: string; en: string }>> = {
  models: { zh: '模型回答（聊天、画图、语音转写、记忆整理）', en: 'model answers (chat, drawing, transcription, memory)' },
  mcp: { zh: 'MCP 服务器与 /mcp 接口', en: 'MCP servers and the /mcp endpoint' },
  reminders: { zh: '提醒与定时任务（时间解析）', en: 'reminders (reading times)' },
  webFetch: { zh: '读取网页（fetch_url）', en: 'reading web pages (fetch_url)' },
  knowledgeFiles: { zh: '知识库读取文件（PDF、Word、Excel、网页）', en: 'reading files into the knowledge base (PDF, Word, Excel, web pages)' },
  outbound: { zh: '下载他人指定的地址（语音、画图的输入图片、自定义 HTTP 工具、远程画图预设）', en: 'fetching addresses others chose (voice messages, drawing input images, custom HTTP tools, remote drawing presets)' },
  fileWatch: { zh: '技能与脚本工具文件改动后自动重载', en: 'reloading skills and script tools when their files change' },
  apiBodies: { zh: '管理接口的写入（面板登录、保存设置）', en: 'API requests with a body (dashboard login, saving settings)' },
  dashboard: { zh: '网页面板', en: 'the dashboard' },
  fastStart: { zh: '快速启动（改用 tsx 加载，较慢）', en: 'fast start (loads through tsx, slower)' },
  standalone: { zh: '独立测试宿主（npm start）', en: 'the standalone host (npm start)' },
  versionCheck: { zh: '依赖版本检查（只检查是否安装）', en: 'dependency version check (presence only)' },
  textNormalize: { zh: '违禁词与触发词匹配繁体字（繁体按简体匹配）', en: 'matching banned and trigger words written in traditional Chinese (folded to simplified)' },
  tokenCount: { zh: '服务商没报用量时的精确计数（改用按字数估算）', en: 'exact token counts when a provider reports no usage (estimated from characters instead)' },
  database: { zh: '多实例共享的 PostgreSQL 存储（storage.database.url）', en: 'the PostgreSQL storage shared by several instances (storage.database.url)' },
  sharedState: { zh: '多个实例通过 Redis 共享登录链接、会话、限流与变更通知', en: 'sharing login links, sessions, rate limits and change notices between instances through Redis' },
  cronSchedules: { zh: '定时任务的 cron 表达式（用文字写的时间照常可用）', en: 'cron expressions of scheduled tasks (schedules in words still work)' }
}

/** The report the loader left, for modules loaded without it (tests, tsx) computed once from the folder. */
let computed: DependencyReport | undefined
export function dependencyReport (): DependencyReport {
  const fromLoader = (globalThis as Record<symbol, unknown>)[REPORT_KEY] as DependencyReport | undefined
  if (fromLoader) return fromLoader
  return (computed ??= { missing: missingDependencies(PLUGIN_DIR), command: installPlan(PLUGIN_DIR).display })
}

/** The missing packages `feature` needs (empty: it works). */
export function missingFor (feature: Feature): string[] {
  return dependencyReport().missing.map((m) => m.name).filter((name) => PACKAGE_FEATURES.get(name)?.includes(feature))
}

export function featureAvailable (feature: Feature): boolean {
  return missingFor(feature).length === 0
}

/** The features that are off, each with the missing packages that turn it off. */
export function featuresOff (): Array<{ feature: Feature; packages: string[] }> {
  const off = new Map<Feature, string[]>()
  for (const m of dependencyReport().missing) {
    for (const f of PACKAGE_FEATURES.get(m.name) ?? []) off.set(f, [...(off.get(f) ?? []), m.name])
  }
  return [...off].map(([feature, packages]) => ({ feature, packages }))
}

/**
 * Imports an optional dependency where it is used: the module, or an Error naming the package and the
 * command that installs it (the caller's feature then fails with that text, never with a bare
 * "Cannot find package").
 */
export async function importOptional<T> (name: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load()
  } catch (err) {
    const code = (err as { code?: unknown }).code
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new Error(`The package ${name} is not installed (run: ${dependencyReport().command})`, { cause: err })
    }
    throw err
  }
}
