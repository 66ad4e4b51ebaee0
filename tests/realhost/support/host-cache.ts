// An installed host kept once per install key under node_modules/.cache and copied per suite with its links
// (`cp -a`): a `pnpm install` per suite cost each real-host suite its resolution and linking again (TRSS has no
// lockfile: every install resolved the whole tree from the registry's metadata). What decides the install
// goes into the key; a key not used for `keepDays` (by its marker's time) is removed by the next install.
import { execFile } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { withInstallLock } from './toolchain.js'

const run = promisify(execFile)
const MARKER = '.lingxi-installed'
const removeTree = (dir: string): void => { rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }) }

interface HostCache {
  /** the folder holding the installed hosts (`host-<key>`) */
  dir: string
  /** what decides the install (a hash) */
  key: string
  /** a cached host not used for this many days goes */
  keepDays: number
  /** installs the host into the empty folder `dir` (a copy of the snapshot and the install) */
  install(dir: string): Promise<void>
}

/** A copy keeping pnpm's relative links as links (cp -a; Node's cpSync would make them absolute). */
async function copyInstalled (from: string, to: string): Promise<void> {
  try {
    await run('cp', ['-a', from, to], { maxBuffer: 8 << 20 })
  } catch {
    removeTree(to)
    cpSync(from, to, { recursive: true, verbatimSymlinks: true })
  }
}

/** Cached hosts of other keys not used for `keepDays`, and unfinished installs of processes that are gone. */
function prune (c: HostCache, keep: string): void {
  if (!existsSync(c.dir)) return
  const old = Date.now() - c.keepDays * 86_400_000
  for (const name of readdirSync(c.dir)) {
    const dir = join(c.dir, name)
    const tmp = /^host-[0-9a-f]+\.tmp-(\d+)$/.exec(name)
    if (tmp) {
      let alive = true
      try { process.kill(Number(tmp[1]), 0) } catch { alive = false }
      if (!alive) removeTree(dir)
      continue
    }
    if (!/^host-[0-9a-f]+$/.test(name) || dir === keep) continue
    const marker = join(dir, MARKER)
    if (!existsSync(marker) || statSync(marker).mtimeMs < old) removeTree(dir)
  }
}

/** Whether the host of this key is installed in the cache. */
export function hostCached (c: Pick<HostCache, 'dir' | 'key'>): boolean {
  return existsSync(join(c.dir, `host-${c.key}`, MARKER))
}

/**
 * The installed host in `root`: installed into the cache first when it is not there (one install per key at a
 * time: a suite beside this one waits for it, tests/README.md "Running in parallel"), then copied.
 */
export async function installFromCache (c: HostCache, root: string): Promise<{ seconds: number; cached: boolean }> {
  const t0 = Date.now()
  const cached = join(c.dir, `host-${c.key}`)
  const wasCached = hostCached(c)
  if (!wasCached) await withInstallLock(cached, async () => {
    if (hostCached(c)) return // installed meanwhile
    prune(c, cached)
    // installed under a name of its own, then renamed: a run that died half-way leaves no half cache
    const building = `${cached}.tmp-${process.pid}`
    removeTree(building)
    mkdirSync(c.dir, { recursive: true })
    try {
      await c.install(building)
      writeFileSync(join(building, MARKER), `${new Date().toISOString()}\n`)
      if (!hostCached(c)) {
        if (existsSync(cached)) removeTree(cached) // left without its marker
        try { renameSync(building, cached) } catch { if (!hostCached(c)) throw new Error(`could not move ${building} to ${cached}`) }
      }
    } finally {
      removeTree(building)
    }
  })
  // used: pruning goes by the marker's time
  try { utimesSync(join(cached, MARKER), new Date(), new Date()) } catch { /* a read-only cache: pruned by age only */ }
  await copyInstalled(cached, root)
  removeTree(join(root, MARKER))
  return { seconds: (Date.now() - t0) / 1000, cached: wasCached }
}
