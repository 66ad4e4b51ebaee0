// A local git remote of the plugin for the upgrade tests: a bare repository whose first commit is this
// working tree as a clone of it would be (tracked and untracked-but-not-ignored files, uncommitted work
// included; without tests/ and screenshots/, as support/trss-host.ts copyPlugin leaves them out), and
// later commits made the way a maintainer makes them (clone, change, commit, push). Hosts then
// `git clone` / `git pull` it like the real repository. Nothing here touches the project's own git state:
// the first commit is written through a separate git dir and index with the project as its work tree.
import { execFile } from 'node:child_process'
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { REPO_ROOT } from './toolchain.js'

const run = promisify(execFile)

/** The identity of the test commits, given per command (no git config is written anywhere). */
const IDENTITY = ['-c', 'user.name=lingxi upgrade test', '-c', 'user.email=upgrade-test@lingxi.invalid']
/** The branch the remote serves (its HEAD), whatever the machine's init.defaultBranch says. */
const BRANCH = 'main'

export interface PluginRemote {
  /** the bare repository's folder */
  path: string
  /** what a host clones: file://<path> (git's own transport, as for a server, not a local hard-linked copy) */
  url: string
  /** the branch the remote's HEAD names */
  branch: string
  /** the first commit: the working tree */
  commit: string
}

/** One commit on the remote, as a maintainer would push it. */
export interface RemoteChange {
  /** the commit message (its first line is what TRSS's update log shows) */
  message: string
  /** `name@exactVersion` (scoped names too: `@scope/name@1.2.3`), added to package.json `dependencies` */
  addDependencies?: string[]
  /** files to write, by path relative to the plugin root (folders are made) */
  files?: Record<string, string | Buffer>
}

async function git (args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  try {
    const { stdout } = await run('git', args, { cwd: opts.cwd, env: opts.env ?? process.env, maxBuffer: 64 << 20 })
    return stdout.trim()
  } catch (err) {
    const e = err as Error & { stderr?: string }
    throw new Error(`git ${args.join(' ')} failed: ${e.message.split('\n')[0]}\n${e.stderr ?? ''}`)
  }
}

/** The files a clone of the current work would hold, minus the test folders (what the plugin ships). */
async function shippedFiles (): Promise<string[]> {
  const out = await git(['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO_ROOT })
  return out.split('\0').filter((rel) => {
    if (!rel || rel.startsWith('tests/') || rel.startsWith('screenshots/')) return false
    const abs = join(REPO_ROOT, rel)
    // deleted in the tree but not yet from the index, or a submodule's folder
    return existsSync(abs) && !lstatSync(abs).isDirectory()
  })
}

/**
 * A bare repository in `dir` (made if missing) with one commit on `main`: this working tree as a clone
 * would hold it. Returns where it is and that commit.
 */
export async function createPluginRemote (dir: string): Promise<PluginRemote> {
  const path = resolve(dir)
  mkdirSync(path, { recursive: true })
  await git(['init', '--quiet', '--bare', `--initial-branch=${BRANCH}`, path])
  const files = await shippedFiles()
  const list = join(path, 'lingxi-shipped-files')
  writeFileSync(list, files.join('\0'))
  // the project as the work tree, but the bare repository's own git dir and a throwaway index: the
  // project's .git is neither read nor written, and file modes and symlinks go in as git sees them
  const env = { ...process.env, GIT_INDEX_FILE: join(path, 'lingxi-first-index') }
  const base = ['--literal-pathspecs', `--git-dir=${path}`, `--work-tree=${REPO_ROOT}`]
  try {
    await git([...base, 'add', '--force', `--pathspec-from-file=${list}`, '--pathspec-file-nul'], { env })
    const tree = await git([...base, 'write-tree'], { env })
    const commit = await git([...IDENTITY, `--git-dir=${path}`, 'commit-tree', tree, '-m', 'lingxi-plugin: the working tree under test'])
    await git([`--git-dir=${path}`, 'update-ref', `refs/heads/${BRANCH}`, commit])
    return { path, url: pathToFileURL(path).href, branch: BRANCH, commit }
  } finally {
    rmSync(list, { force: true })
    rmSync(env.GIT_INDEX_FILE, { force: true })
  }
}

/** npm's order of dependency names (@npmcli/package-json sorts with localeCompare in 'en'). */
const npmOrder = (a: string, b: string): number => a.localeCompare(b, 'en')

/** Splits `name@version` (`@scope/name@version` too). */
function parseSpec (spec: string): { name: string; version: string } {
  const at = spec.lastIndexOf('@')
  if (at <= 0) throw new Error(`a dependency is name@exactVersion, not ${spec}`)
  return { name: spec.slice(0, at), version: spec.slice(at + 1) }
}

/** Adds dependencies to a package.json text, kept as npm writes it: its indent, sorted names, final newline. */
function withDependencies (packageJson: string, specs: string[]): string {
  const pkg = JSON.parse(packageJson) as { dependencies?: Record<string, string> }
  const deps: Record<string, string> = { ...pkg.dependencies }
  for (const spec of specs) {
    const { name, version } = parseSpec(spec)
    deps[name] = version
  }
  pkg.dependencies = Object.fromEntries(Object.keys(deps).sort(npmOrder).map((k) => [k, deps[k]!]))
  const indent = /^[ \t]+(?=")/m.exec(packageJson)?.[0] ?? '  '
  return `${JSON.stringify(pkg, null, indent)}${packageJson.endsWith('\n') ? '\n' : ''}`
}

/**
 * Clones `remote` into a scratch folder, applies `change`, commits it and pushes it to the remote's
 * branch; returns the new commit id. The scratch folder is removed.
 */
export async function advanceRemote (remote: PluginRemote, change: RemoteChange): Promise<string> {
  const scratch = mkdtempSync(join(tmpdir(), 'lingxi-remote-change-'))
  try {
    const tree = join(scratch, 'plugin')
    await git(['clone', '--quiet', '--branch', remote.branch, remote.url, tree])
    if (change.addDependencies?.length) {
      const file = join(tree, 'package.json')
      writeFileSync(file, withDependencies(readFileSync(file, 'utf8'), change.addDependencies))
    }
    for (const [rel, content] of Object.entries(change.files ?? {})) {
      const file = resolve(tree, rel)
      const inside = relative(tree, file)
      if (!inside || inside.startsWith('..') || isAbsolute(inside) || inside.split(/[\\/]/)[0] === '.git') throw new Error(`not a file of the plugin: ${rel}`)
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, content)
    }
    await git(['add', '--all'], { cwd: tree })
    await git([...IDENTITY, 'commit', '--quiet', '-m', change.message], { cwd: tree })
    await git(['push', '--quiet', 'origin', `HEAD:refs/heads/${remote.branch}`], { cwd: tree })
    return await git(['rev-parse', 'HEAD'], { cwd: tree })
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

/** The commit a clone (its work tree) is at. */
export function headOf (worktree: string): Promise<string> {
  return git(['rev-parse', 'HEAD'], { cwd: worktree })
}
