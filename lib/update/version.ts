// The running plugin's version: package.json's, and where the plugin is a git checkout of its own (as
// the README's install makes it) its commit, date and branch; and, on demand only, what the remote has
// that this checkout does not (a fetch: no traffic otherwise).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { AppError } from '../core/errors.js'
import { commitsOf, git, gitValue, isOwnCheckout, type Commit } from './git.js'

export interface VersionInfo {
  version: string
  /** false: not a git checkout of its own (a copy, an archive): no commit, no update from QQ */
  git: boolean
  commit?: string
  shortCommit?: string
  /** the commit's date, ISO 8601 */
  date?: string
  branch?: string
  /** the remote branch it follows, e.g. origin/main */
  upstream?: string
  /** tracked files changed by hand (an update refuses them unless forced) */
  dirty?: boolean
}

export interface RemoteCheck {
  checkedAt: string
  upstream: string
  /** commits the remote has that this checkout has not */
  behind: number
  /** local commits the remote has not */
  ahead: number
  /** the newest of the `behind` commits, newest first (at most 20) */
  commits: Commit[]
}

/** Commits listed in a check or an update report. */
export const MAX_LISTED = 20

function packageVersion (root: string): string {
  try {
    const v = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: unknown }).version
    return typeof v === 'string' ? v : ''
  } catch {
    return ''
  }
}

/** Tracked files changed in the working tree (`git status`, untracked files aside). */
export async function localChanges (root: string): Promise<string[]> {
  const out = await gitValue(root, ['status', '--porcelain', '--untracked-files=no'])
  return out ? out.split('\n').map((l) => l.slice(3)).filter(Boolean) : []
}

export async function versionInfo (root: string): Promise<VersionInfo> {
  const version = packageVersion(root)
  if (!(await isOwnCheckout(root))) return { version, git: false }
  const [commit, date, branch, upstream, changes] = await Promise.all([
    gitValue(root, ['rev-parse', 'HEAD']),
    gitValue(root, ['log', '-1', '--format=%cI']),
    gitValue(root, ['rev-parse', '--abbrev-ref', 'HEAD']),
    gitValue(root, ['rev-parse', '--abbrev-ref', '--symbolic-full-name', '@{u}']),
    localChanges(root)
  ])
  return {
    version,
    git: true,
    ...(commit ? { commit, shortCommit: commit.slice(0, 7) } : {}),
    ...(date ? { date } : {}),
    ...(branch ? { branch } : {}),
    ...(upstream ? { upstream } : {}),
    dirty: changes.length > 0
  }
}

export type RefusalReason = 'noGit' | 'noUpstream' | 'fetchFailed' | 'dirty' | 'diverged' | 'busy'

/** Why an update or a check cannot run here: 502 when the remote could not be reached, else 409. */
export class UpdateRefused extends AppError {
  constructor (readonly reason: RefusalReason, message: string, readonly detail: string[] = []) {
    super(reason === 'fetchFailed' ? 'CONNECTION_FAILED' : 'CONFLICT', message)
    this.name = 'UpdateRefused'
  }
}

/** The remote branch this checkout follows, fetched now. */
export async function fetchUpstream (root: string): Promise<string> {
  if (!(await isOwnCheckout(root))) throw new UpdateRefused('noGit', 'The plugin folder is not a git checkout of its own')
  const upstream = await gitValue(root, ['rev-parse', '--abbrev-ref', '--symbolic-full-name', '@{u}'])
  if (!upstream) throw new UpdateRefused('noUpstream', 'The current branch follows no remote branch')
  const fetched = await git(root, ['fetch', '--quiet', '--no-tags'])
  if (!fetched.ok) throw new UpdateRefused('fetchFailed', `git fetch failed: ${firstLine(fetched.stderr)}`)
  return upstream
}

export async function checkRemote (root: string, now: () => number): Promise<RemoteCheck> {
  const upstream = await fetchUpstream(root)
  const counts = await gitValue(root, ['rev-list', '--left-right', '--count', 'HEAD...@{u}'])
  const [ahead = 0, behind = 0] = (counts ?? '0\t0').split(/\s+/).map(Number)
  return { checkedAt: new Date(now()).toISOString(), upstream, behind, ahead, commits: behind > 0 ? await commitsOf(root, 'HEAD..@{u}', MAX_LISTED) : [] }
}

export const firstLine = (text: string): string => text.split('\n').find((l) => l.trim())?.trim() ?? text
