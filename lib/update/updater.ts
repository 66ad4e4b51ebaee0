// `#lx更新` / `#lx强制更新`: bring the plugin's checkout to its remote branch, install the packages when
// package.json or a lockfile changed (or one is missing), and say what came. The restart that applies it
// is the host's own (apps/update.ts). Refuses a checkout with local changes unless forced; forced, the
// tracked files are reset to the remote (the user's config.yaml and data/ are not tracked: they stay).
import { installAndCheck, installPlan, missingDependencies, type CheckedInstall } from '../../boot/deps.mjs'
import { commitsOf, git, gitValue, type Commit } from './git.js'
import { fetchUpstream, firstLine, localChanges, MAX_LISTED, UpdateRefused } from './version.js'

/** Files whose change means the installed packages may no longer fit. */
const PACKAGE_FILES = ['package.json', 'package-lock.json', 'pnpm-lock.yaml', 'yarn.lock']

export interface UpdateResult {
  before: string
  after: string
  /** the new commits, newest first (at most MAX_LISTED) */
  commits: Commit[]
  /** how many commits came in all */
  total: number
  /** the install run because packages changed or were missing; undefined when none was needed */
  install?: CheckedInstall & { command: string }
}

export interface UpdateOptions {
  force: boolean
  /** each line of the package manager's output (the log) */
  log?: (line: string) => void
  installTimeoutMs?: number
  /** called before an install starts, with the command (the chat says it: an install takes a while) */
  onInstall?: (command: string) => Promise<void> | void
}

let running: Promise<UpdateResult> | undefined

/** One update at a time per process (a second `#lx更新` while one runs is refused, not queued). */
export function updatePlugin (root: string, opts: UpdateOptions): Promise<UpdateResult> {
  if (running) return Promise.reject(new UpdateRefused('busy', 'An update is already running'))
  running = run(root, opts)
  const clear = (): void => { running = undefined }
  running.then(clear, clear)
  return running
}

async function run (root: string, opts: UpdateOptions): Promise<UpdateResult> {
  const upstream = await fetchUpstream(root)
  const before = await gitValue(root, ['rev-parse', 'HEAD']) ?? ''
  if (opts.force) {
    const reset = await git(root, ['reset', '--hard', '--quiet', '@{u}'])
    if (!reset.ok) throw new Error(`git reset failed: ${firstLine(reset.stderr)}`)
  } else {
    const changes = await localChanges(root)
    if (changes.length) throw new UpdateRefused('dirty', 'Files of the plugin were changed by hand', changes)
    const merged = await git(root, ['merge', '--ff-only', '--quiet', '@{u}'])
    if (!merged.ok) throw new UpdateRefused('diverged', `The checkout has commits ${upstream} does not have: ${firstLine(merged.stderr)}`)
  }
  const after = await gitValue(root, ['rev-parse', 'HEAD']) ?? before
  const result: UpdateResult = { before, after, commits: [], total: 0 }
  if (after !== before) {
    const count = await gitValue(root, ['rev-list', '--count', `${before}..${after}`])
    result.total = Number(count ?? 0)
    result.commits = await commitsOf(root, `${before}..${after}`, MAX_LISTED)
  }
  const changed = after === before ? [] : (await gitValue(root, ['diff', '--name-only', before, after, '--', ...PACKAGE_FILES]) ?? '').split('\n').filter(Boolean)
  if (changed.length || missingDependencies(root).length) {
    const plan = installPlan(root)
    await opts.onInstall?.(plan.display)
    const installed = await installAndCheck(root, plan, { ...(opts.log ? { log: opts.log } : {}), ...(opts.installTimeoutMs ? { timeoutMs: opts.installTimeoutMs } : {}) })
    result.install = { ...installed, command: plan.display }
  }
  return result
}
