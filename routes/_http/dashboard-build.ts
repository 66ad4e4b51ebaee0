// Builds the dashboard (resources/src -> resources/dist) when dist is missing or older than its sources.
// Runs Vite in a child process so the plugin's own process stays light; a lock file keeps two processes
// (for example two bots sharing one plugin folder) from building into the same folder at once.
import { spawn } from 'node:child_process'
import { closeSync, existsSync, openSync, readdirSync, rmSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createHash } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const LOCK_STALE_MS = 120_000

/** Newest modification time (ms) of a file or of any file below a folder. */
function newest (path: string): number {
  if (!existsSync(path)) return 0
  const st = statSync(path)
  if (!st.isDirectory()) return st.mtimeMs
  let max = st.mtimeMs
  for (const name of readdirSync(path)) max = Math.max(max, newest(join(path, name)))
  return max
}

function dashboardSources (pluginDir: string): string[] {
  const res = join(pluginDir, 'resources')
  // lib/ files the pages import as code, not only as types (the chat page's "as QQ shows it": the delivery's own rule)
  return [join(res, 'src'), join(res, 'index.html'), join(res, 'vite.config.ts'), join(pluginDir, 'lib', 'delivery', 'markdown.ts')]
}

/** True when resources/dist is missing or older than any source file. */
export function dashboardStale (pluginDir: string): boolean {
  const built = join(pluginDir, 'resources', 'dist', 'index.html')
  if (!existsSync(built)) return true
  const src = Math.max(...dashboardSources(pluginDir).map(newest))
  return src > statSync(built).mtimeMs
}

function viteBin (pluginDir: string): string | null {
  try {
    const req = createRequire(join(pluginDir, 'package.json'))
    return join(req.resolve('vite/package.json'), '..', 'bin', 'vite.js')
  } catch { return null }
}

function runBuild (pluginDir: string): Promise<void> {
  const bin = viteBin(pluginDir)
  if (!bin) return Promise.reject(new Error('vite is not installed (run npm install)'))
  const lock = join(tmpdir(), `lingxi-web-build-${createHash('sha1').update(pluginDir).digest('hex').slice(0, 12)}.lock`)
  try {
    if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS) rmSync(lock, { force: true })
    closeSync(openSync(lock, 'wx'))
  } catch {
    return Promise.resolve() // another process is building
  }
  return new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'build', '-c', join(pluginDir, 'resources', 'vite.config.ts'), '--logLevel', 'error'],
      // always a production build (a NODE_ENV of the host or the tests would give the dev JSX runtime)
      { cwd: pluginDir, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NODE_ENV: 'production' } })
    let err = ''
    child.stderr.on('data', (d: Buffer) => { err = (err + d.toString()).slice(-2000) })
    child.on('error', reject)
    child.on('close', (code) => {
      rmSync(lock, { force: true })
      if (code === 0) resolve()
      else reject(new Error(`dashboard build failed (exit ${code ?? 'signal'}): ${err.trim()}`))
    })
  })
}

let pending: Promise<void> | null = null

/** Builds when stale; resolves at once when fresh. Concurrent callers share one build. */
export function ensureDashboardBuilt (pluginDir: string): Promise<void> {
  if (!dashboardStale(pluginDir)) return Promise.resolve()
  pending ??= runBuild(pluginDir).finally(() => { pending = null })
  return pending
}
