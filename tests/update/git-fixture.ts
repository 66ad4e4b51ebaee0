// A plugin-like git checkout for the update tests: a bare "remote", a checkout of it that follows
// origin/main (what the README's `git clone` gives), and a second clone to push new commits from.
// Real git, temp folders; the identity is given per command, the machine's git config is not touched.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const ID = ['-c', 'user.name=Lingxi Test', '-c', 'user.email=test@example.invalid', '-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false']

export function gitIn (cwd: string, ...args: string[]): string {
  return execFileSync('git', [...ID, ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim()
}

export interface GitFixture {
  dir: string
  remote: string
  /** the checkout the code under test works in */
  checkout: string
  /** another clone, for pushing what "upstream" publishes */
  upstream: string
  /** commits `files` in the upstream clone and pushes them; returns the new commit id */
  publish(message: string, files: Record<string, string>): string
  /** commits `files` in the checkout itself (a local commit the remote does not have) */
  commitLocally(message: string, files: Record<string, string>): string
  head(): string
  remove(): void
}

function writeAll (dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
}

export function gitFixture (opts: { version?: string; files?: Record<string, string> } = {}): GitFixture {
  const dir = mkdtempSync(join(tmpdir(), 'lingxi-update-git-'))
  const remote = join(dir, 'remote.git')
  const upstream = join(dir, 'upstream')
  const checkout = join(dir, 'checkout')
  gitIn(dir, 'init', '--quiet', '--bare', remote)
  gitIn(dir, 'clone', '--quiet', remote, upstream)
  writeAll(upstream, {
    'package.json': `${JSON.stringify({ name: 'fixture-plugin', version: opts.version ?? '1.2.3', type: 'module', dependencies: {} }, null, 2)}\n`,
    '.gitignore': 'node_modules/\nconfig.yaml\n',
    'README.md': 'fixture\n',
    ...opts.files
  })
  gitIn(upstream, 'add', '-A')
  gitIn(upstream, 'commit', '--quiet', '-m', 'first')
  gitIn(upstream, 'push', '--quiet', 'origin', 'HEAD:main')
  gitIn(dir, 'clone', '--quiet', remote, checkout)
  const commitIn = (where: string, message: string, more: Record<string, string>): string => {
    writeAll(where, more)
    gitIn(where, 'add', '-A')
    gitIn(where, 'commit', '--quiet', '-m', message)
    return gitIn(where, 'rev-parse', 'HEAD')
  }
  return {
    dir,
    remote,
    checkout,
    upstream,
    publish (message, more) {
      const id = commitIn(upstream, message, more)
      gitIn(upstream, 'push', '--quiet', 'origin', 'HEAD:main')
      return id
    },
    commitLocally: (message, more) => commitIn(checkout, message, more),
    head: () => gitIn(checkout, 'rev-parse', 'HEAD'),
    remove: () => rmSync(dir, { recursive: true, force: true })
  }
}
