// The plugin really installed into a copy of the real TRSS-Yunzai, for the upgrade suites: where
// prepareHost (support/prepare.ts) copies this working tree in and links the project's node_modules,
// prepareInstalledHost makes a git remote of the working tree (support/git-remote.ts), clones it into
// plugins/lingxi-plugin and runs `pnpm install` at the host root, as the README's "Install into a
// Yunzai host" says. The host then finds `pnpm` on its PATH (TRSS's own #更新 runs `pnpm install` through
// the shell) and runs as on a user's machine, not as in a CI (pnpm would refuse the changed lockfile).
import { execFile } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { createPluginRemote, headOf, type PluginRemote } from './git-remote.js'
import type { FakeOneBot } from './onebot.js'
import { startHostWith, type PreparedHost } from './prepare.js'
import { ensureToolchain, type Toolchain } from './toolchain.js'
import { freePort, installHost, outputLines, PLUGIN_KEY, removeTree, startRedis, waitForHttp, writeHostConfig, type HostProcess } from './trss-host.js'

const run = promisify(execFile)

// The commits both hosts' upgrade suites push (upgrade-trss.test.ts, upgrade-miao.test.ts):
/** The package commit B adds: small, no dependencies of its own, not among the plugin's before. */
export const NEW_DEP = { name: 'picocolors', version: '1.1.1' }
/** The package commit C adds, through the plugin's own `#lx更新`. */
export const SECOND_DEP = { name: 'ms', version: '2.1.3' }
/** A package commit D adds that the registry does not have: the install fails. */
export const NO_SUCH_DEP = { name: 'lingxi-upgrade-test-no-such-package', version: '1.0.0' }
/** From an update command to the restart: a pull and a `pnpm install` (a cold pnpm store fetches the package). */
export const UPDATE_MS = 10 * 60_000
/** How long the host may take to come back (its first start after a change bundles the plugin again). */
const START_MS = 120_000

export interface InstalledHost extends PreparedHost {
  /** the plugin's git remote (its first commit is the working tree) */
  remote: PluginRemote
  /** plugins/lingxi-plugin in the host copy: a clone of `remote` */
  pluginDir: string
  /** what the host's environment adds: `pnpm` first on PATH (with Node 24), CI=false */
  env: Record<string, string>
  /** seconds taken: the host's own install, the plugin's clone, its `pnpm install` */
  seconds: { host: number; clone: number; pluginInstall: number }
}

/** A folder with `pnpm` (pnpm 11 under Node 24), as a user has it on PATH. */
export function pnpmOnPath (tc: Pick<Toolchain, 'node' | 'pnpm'>, work: string): string {
  const bin = join(work, 'bin')
  mkdirSync(bin, { recursive: true })
  const q = (s: string): string => `'${s.replace(/'/g, "'\\''")}'`
  writeFileSync(join(bin, 'pnpm'), `#!/bin/sh\nexec ${q(tc.node)} ${q(tc.pnpm)} "$@"\n`)
  chmodSync(join(bin, 'pnpm'), 0o755)
  return bin
}

const UNREACHABLE = /ERR_PNPM_(META_)?FETCH|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ERR_SOCKET/

/**
 * The `before` of an upgrade suite: the toolchain, a TRSS-Yunzai copy installed in a temp folder, a
 * redis, the plugin's remote at the working tree, `git clone <remote> plugins/lingxi-plugin` and
 * `pnpm install` (full, as TRSS's #更新 later runs it) at the host root, two free ports and the host's
 * config. Skips the suite in one line where it cannot run (no snapshot, no toolchain, the registry out
 * of reach).
 */
export async function prepareInstalledHost (ctx: Mocha.Context, suite: string, ids: { botId: number | string; masterId: number | string }): Promise<InstalledHost> {
  const got = await ensureToolchain()
  if (typeof got === 'string') {
    console.warn(`    real-host ${suite} suite skipped: ${got}`)
    ctx.skip()
  }
  const tc = got as Toolchain
  const work = mkdtempSync(join(tmpdir(), `lingxi-realhost-${suite}-`))
  const redis = await startRedis(tc, work)
  try {
    return await installInto(ctx, suite, ids, tc, work, redis)
  } catch (err) {
    // a skip or a failure before the suite has the host: nothing of it may outlive the suite
    await redis.stop()
    if (err instanceof Error && !process.env.CI) console.log(`    kept for inspection: ${work}`)
    else removeTree(work)
    throw err
  }
}

async function installInto (ctx: Mocha.Context, suite: string, ids: { botId: number | string; masterId: number | string }, tc: Toolchain, work: string, redis: InstalledHost['redis']): Promise<InstalledHost> {
  const root = join(work, 'trss-yunzai')
  const skipUnreachable = (err: Error & { unreachable?: boolean }): never => {
    if (!err.unreachable) throw err
    console.warn(`    real-host ${suite} suite skipped: packages could not be fetched (${err.message.split('\n')[0]})`)
    ctx.skip()
  }
  const host = await installHost(tc, root).catch(skipUnreachable)
  const remote = await createPluginRemote(join(work, 'remote.git'))
  const env = {
    PATH: `${pnpmOnPath(tc, work)}:${tc.nodeBinDir}:${process.env.PATH ?? ''}`,
    // a user's machine: pnpm in a CI would keep the lockfile frozen and refuse the plugin's new package
    CI: 'false',
    // as for the host's own install (installHost): puppeteer's browser download is out of reach here
    PUPPETEER_SKIP_DOWNLOAD: '1'
  }
  const pluginDir = join(root, 'plugins', PLUGIN_KEY)
  let t0 = Date.now()
  await run('git', ['clone', '--quiet', remote.url, pluginDir], { cwd: root })
  const clone = (Date.now() - t0) / 1000
  t0 = Date.now()
  // as a user's shell: none of the test process's own settings (tests/support/setup.ts) leak in
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LINGXI_') && k !== 'NODE_ENV'))
  await run('pnpm', ['install'], { cwd: root, env: { ...base, ...env }, timeout: 900_000, maxBuffer: 64 << 20 })
    .catch((err: Error & { stdout?: string; stderr?: string }) => {
      const out = `${err.stdout ?? ''}\n${err.stderr ?? ''}`
      const failure = new Error(`pnpm install of the plugin in the host failed: ${err.message.split('\n')[0]}\n${out.slice(-4000)}`)
      skipUnreachable(Object.assign(failure, { unreachable: UNREACHABLE.test(out) }))
    })
  const pluginInstall = (Date.now() - t0) / 1000
  const serverPort = await freePort()
  let lingxiPort: number
  do lingxiPort = await freePort(); while (lingxiPort === serverPort)
  writeHostConfig(root, { botId: String(ids.botId), masterId: String(ids.masterId), serverPort, redisPort: redis.port })
  return {
    tc, work, root, dataDir: join(work, 'lingxi-data'), redis, serverPort, lingxiPort,
    remote, pluginDir, env, seconds: { host: host.seconds, clone, pluginInstall }
  }
}

/** Starts the host with the installed plugin and connects `bot` (startHostWith with the host's env). */
export function startInstalledHost (p: InstalledHost, bot: FakeOneBot): Promise<HostProcess> {
  return startHostWith(p, bot, p.env)
}

/**
 * After the host replaced its own process (TRSS's restart: process.execve, same pid, so the protocol
 * connection drops): waits until `old` was dropped (within `timeoutMs`: whatever the host does before
 * its restart, an install included), then for the plugin's health on its port, and connects `next`.
 * Fails when the process ended instead.
 */
export async function reconnectAfterRestart (p: InstalledHost, host: HostProcess, old: FakeOneBot, next: FakeOneBot, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  // tags, not rejections: the losers of the race settle later (the host ends at the suite's end)
  const outcome = await Promise.race([
    old.closed.then(() => 'restarted' as const),
    host.exited.then(() => 'ended' as const),
    new Promise<'late'>((resolve) => { timer = setTimeout(() => resolve('late'), timeoutMs) })
  ])
  clearTimeout(timer)
  if (outcome === 'ended') throw new Error(`the host ended (${host.child.exitCode ?? host.child.signalCode}) instead of restarting:\n${host.output().slice(-3000)}`)
  if (outcome === 'late') throw new Error(`the host did not restart within ${timeoutMs} ms:\n${host.output().slice(-3000)}`)
  old.close()
  await waitForHttp(`http://127.0.0.1:${p.lingxiPort}/api/system/health`, host, START_MS)
  await next.connectToHost(p.serverPort, () => host.output())
}

/** Waits until the host's output (colours removed) has a line matching `re`; returns that line. */
export async function waitForLine (host: HostProcess, re: RegExp, timeoutMs: number, fromLine = 0): Promise<string> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const line = outputLines(host.output()).slice(fromLine).find((l) => re.test(l))
    if (line !== undefined) return line
    if (host.child.exitCode !== null) throw new Error(`the host exited (${host.child.exitCode}) before a line matched ${re}:\n${host.output().slice(-3000)}`)
    if (Date.now() > until) throw new Error(`no line of the host matched ${re} within ${timeoutMs} ms:\n${host.output().slice(-3000)}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

/** Run by the host's Node in the plugin folder: how `name` resolves and loads there. */
const RESOLVE_SCRIPT = `
const { existsSync, readFileSync } = require('node:fs')
const { dirname, join } = require('node:path')
const name = process.argv[1]
let entry
try { entry = require.resolve(name) } catch { console.log('{}'); process.exit(0) }
let version = ''
for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
  const manifest = join(dir, 'package.json')
  if (!existsSync(manifest)) continue
  const pkg = JSON.parse(readFileSync(manifest, 'utf8'))
  if (pkg.name === name) { version = pkg.version ?? ''; break }
}
import(name).then(() => console.log(JSON.stringify({ entry, version, loads: true })), (err) => console.log(JSON.stringify({ entry, version, loads: false, error: String(err) })))
`

/**
 * How `name` resolves from plugins/lingxi-plugin (its node_modules, then up), asked of the host's Node
 * in a process of its own (the test process's resolver caches what it once did not find): the file it
 * resolves to, the version of the package holding it, and whether an import of it loads. Undefined
 * when it does not resolve.
 */
export async function resolvedFromPlugin (p: InstalledHost, name: string): Promise<{ entry: string; version: string; loads: boolean; error?: string } | undefined> {
  const { stdout } = await run(p.tc.node, ['-e', RESOLVE_SCRIPT, name], { cwd: p.pluginDir })
  const got = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { entry?: string; version?: string; loads?: boolean; error?: string }
  if (!got.entry) return undefined
  return { entry: got.entry, version: got.version ?? '', loads: got.loads === true, ...(got.error ? { error: got.error } : {}) }
}

/** The commit plugins/lingxi-plugin is at. */
export function pluginCommit (p: InstalledHost): Promise<string> {
  return headOf(p.pluginDir)
}
