// The plugin's npm dependencies at start: which of package.json's `dependencies` resolve from the plugin
// folder (and in a version its range accepts), and the install that brings the missing ones the way the
// README's install does for the host the plugin sits in. An update from QQ (Miao-Yunzai's `#更新` only
// pulls) can bring a package.json that names packages nobody installed: the loader (load-plugin.mjs)
// checks and installs before anything imports them (README, Updating).
// Plain JavaScript with Node built-ins only: it runs before anything can compile TypeScript, and before
// any dependency is known to be there. lib/core/packages.ts reads the outcome.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, dirname, join } from 'node:path'

/** Packages bundled into the plugin (with what they import); every start needs them. */
export const INLINE = ['zod', 'yaml', 'koa', 'koa-compose', '@koa/router', 'koa-jwt', 'jsonwebtoken', 'lowdb', 'gray-matter']

/** Where the loader keeps what it learnt at start, for the plugin (lib/core/packages.ts) to read. */
export const REPORT_KEY = Symbol.for('lingxi.dependencies')

/** Default time limit of the install at start (LINGXI_INSTALL_TIMEOUT, seconds, overrides it). */
const INSTALL_TIMEOUT_S = 300
/** Lines of the package manager's output kept for the report (the log has them all). */
const KEEP_LINES = 30

function readJson (file) {
  try { return JSON.parse(readFileSync(file, 'utf8')) } catch { return undefined }
}

/** The plugin's declared runtime dependencies: name -> range. */
function declaredDependencies (root) {
  const deps = readJson(join(root, 'package.json'))?.dependencies
  return deps && typeof deps === 'object' ? Object.entries(deps).filter(([, range]) => typeof range === 'string') : []
}

/**
 * The installed version of `name` as Node would resolve it from the plugin folder ('' when its
 * package.json has no version), or undefined when it is not installed. The package's own
 * package.json is looked up along the module paths (a package's `exports` may hide it from resolve).
 */
export function installedVersion (root, name) {
  const req = createRequire(join(root, 'package.json'))
  for (const dir of req.resolve.paths(name) ?? []) {
    if (basename(dir) !== 'node_modules') continue
    const manifest = join(dir, name, 'package.json')
    if (existsSync(manifest)) {
      const version = readJson(manifest)?.version
      return typeof version === 'string' ? version : ''
    }
  }
  return undefined
}

/**
 * semver's `satisfies` when it is installed (a dependency of the plugin too, found from this file, which
 * lives in the plugin); without it only presence counts.
 */
function rangeCheck () {
  try {
    const satisfies = createRequire(import.meta.url)('semver/functions/satisfies')
    return (version, range) => {
      try { return satisfies(version, range, { includePrerelease: true }) } catch { return true }
    }
  } catch {
    return () => true
  }
}

/**
 * Out-of-range versions an install left as they were (a host's `overrides` pinning its own version, as
 * the TRSS notes pin compression): `name@installed for range` lines, kept beside the bundles so later
 * starts use them as they are instead of installing again every time.
 */
const acceptedFile = (root) => join(root, 'node_modules', '.cache', 'lingxi-plugin', 'accepted-versions.json')
const acceptedKey = (m) => `${m.name}@${m.installed} for ${m.range}`

function acceptedVersions (root) {
  const list = readJson(acceptedFile(root))
  return new Set(Array.isArray(list) ? list.filter((x) => typeof x === 'string') : [])
}

function acceptVersions (root, list) {
  try {
    const file = acceptedFile(root)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, JSON.stringify([...new Set([...acceptedVersions(root), ...list.map(acceptedKey)])]))
  } catch { /* not writable: the next start installs again, no worse */ }
}

/**
 * Every declared dependency that does not resolve, or resolves to a version outside its range (an update
 * raised it) unless an earlier install left that version as it is: `{ name, range, installed? }`.
 * Ranges that name no version (git, file, link) count as present.
 */
export function missingDependencies (root) {
  const accepts = rangeCheck()
  const accepted = acceptedVersions(root)
  const missing = []
  for (const [name, range] of declaredDependencies(root)) {
    const version = installedVersion(root, name)
    if (version === undefined) missing.push({ name, range })
    else if (version && /^[\^~<>=\d]/.test(range.trim()) && !accepts(version, range) && !accepted.has(acceptedKey({ name, installed: version, range }))) missing.push({ name, range, installed: version })
  }
  return missing
}

/**
 * The host folder around the plugin (`<host>/plugins/<name>`) when there is one: its root, its package
 * manager (pnpm where it has a pnpm workspace or lockfile, as both Miao-Yunzai and TRSS-Yunzai do) and
 * whether its last pnpm install left out devDependencies (`pnpm install -P`, see below).
 */
export function hostFolder (root) {
  const parent = dirname(root)
  if (basename(parent) !== 'plugins') return undefined
  const hostRoot = dirname(parent)
  const manifest = readJson(join(hostRoot, 'package.json'))
  if (!manifest) return undefined
  const pnpm = existsSync(join(hostRoot, 'pnpm-workspace.yaml')) || existsSync(join(hostRoot, 'pnpm-lock.yaml'))
  return { root: hostRoot, name: typeof manifest.name === 'string' ? manifest.name : '', pnpm, prodOnly: pnpm && pnpmProdOnly(hostRoot) }
}

/**
 * True when the host's node_modules was installed without devDependencies (`pnpm install -P`, Miao's
 * notes): a plain `pnpm install` there would want to purge node_modules, which pnpm refuses to do
 * without a terminal, so the install repeats the same choice.
 */
function pnpmProdOnly (hostRoot) {
  try {
    // pnpm 10 and 11 write it as JSON (which is YAML too), older ones as block YAML: `included.devDependencies`
    const text = readFileSync(join(hostRoot, 'node_modules', '.modules.yaml'), 'utf8')
    return /["']?devDependencies["']?\s*:\s*false\b/.test(text)
  } catch {
    return false
  }
}

/**
 * The install the README gives for where the plugin is: in a pnpm host, `pnpm install` at the host's
 * root (its workspace covers plugins/*, so the plugin's packages come with it); elsewhere (the plugin's
 * own checkout, an npm host) `npm install` in the plugin folder. `display` is the command for a person.
 * Offline-safe: `--prefer-offline` takes what the package store already has without asking the registry
 * (both managers still fetch what is missing), and runInstall's time limit bounds a network that hangs.
 */
export function installPlan (root) {
  const host = hostFolder(root)
  if (host?.pnpm) {
    const args = ['install', '--no-frozen-lockfile', '--prefer-offline', ...(host.prodOnly ? ['--prod'] : [])]
    return { manager: 'pnpm', cwd: host.root, args, display: `cd "${host.root}" && pnpm install${host.prodOnly ? ' -P' : ''}` }
  }
  return { manager: 'npm', cwd: root, args: ['install', '--no-audit', '--no-fund', '--prefer-offline'], display: `cd "${root}" && npm install` }
}

/** Stops the install and every process it started (Windows has no process groups: taskkill /T). */
function killTree (child) {
  if (child.exitCode !== null || child.signalCode !== null) return
  if (process.platform === 'win32') {
    spawn('taskkill', ['/pid', String(child.pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on('error', () => {})
    return
  }
  try { process.kill(-child.pid, 'SIGKILL') } catch { try { child.kill('SIGKILL') } catch { /* gone */ } }
}

/**
 * Runs `plan` with a time limit, each output line to `log`. Resolves `{ ok, error?, output }` (the last
 * lines), never rejects. The host's NODE_OPTIONS (a loader of its own) is not passed to the package manager.
 */
export function runInstall (plan, { log = () => {}, timeoutMs = INSTALL_TIMEOUT_S * 1000 } = {}) {
  return new Promise((resolve) => {
    const env = { ...process.env }
    delete env.NODE_OPTIONS
    const lines = []
    let child
    try {
      // Windows: npm and pnpm are .cmd files, which Node starts only through a shell (the arguments are ours)
      child = spawn(plan.manager, plan.args, { cwd: plan.cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32', shell: process.platform === 'win32', windowsHide: true })
    } catch (err) {
      resolve({ ok: false, error: `${plan.manager} could not be started (${err.message})`, output: [] })
      return
    }
    const onData = (buf) => {
      for (const line of String(buf).split(/\r?\n/)) {
        const text = line.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').trimEnd() // eslint-disable-line no-control-regex
        if (!text) continue
        log(text)
        lines.push(text)
        if (lines.length > KEEP_LINES) lines.shift()
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    let timedOut = false
    const timer = setTimeout(() => { timedOut = true; killTree(child) }, timeoutMs)
    child.once('error', (err) => {
      clearTimeout(timer)
      resolve({ ok: false, error: err.code === 'ENOENT' ? `${plan.manager} is not installed or not on PATH` : `${plan.manager} failed to start (${err.message})`, output: lines })
    })
    child.once('close', (code, signal) => {
      clearTimeout(timer)
      if (timedOut) resolve({ ok: false, error: `${plan.manager} did not finish within ${Math.round(timeoutMs / 1000)} s`, output: lines })
      else if (code === 0) resolve({ ok: true, output: lines })
      else resolve({ ok: false, error: `${plan.manager} exited with ${code ?? signal}`, output: lines })
    })
  })
}

function timeoutFromEnv () {
  const s = Number(process.env.LINGXI_INSTALL_TIMEOUT)
  return Number.isFinite(s) && s > 0 ? s * 1000 : INSTALL_TIMEOUT_S * 1000
}

/**
 * Runs the install of `plan` and checks again: `{ ok, error?, output, seconds, missing }`, `missing` being
 * what still does not resolve. A package the install left installed in a version outside the range (the
 * host pins it) is accepted from then on and not counted. Used at start and by `#lx更新` (lib/update).
 */
export async function installAndCheck (root, plan, { log = () => {}, timeoutMs = timeoutFromEnv() } = {}) {
  const t0 = Date.now()
  const result = await runInstall(plan, { log, timeoutMs })
  const seconds = Math.round((Date.now() - t0) / 100) / 10
  let still = missingDependencies(root)
  const pinned = result.ok ? still.filter((m) => m.installed !== undefined) : []
  if (pinned.length) {
    acceptVersions(root, pinned)
    log(`using ${pinned.map((m) => `${m.name}@${m.installed}`).join(', ')} as installed: the install keeps that version (the host pins it), outside the plugin's range ${pinned.map((m) => m.range).join(', ')}`)
    still = still.filter((m) => m.installed === undefined)
  }
  const ok = result.ok && still.length === 0
  const error = result.ok && !ok ? `${plan.manager} finished but ${still.map((m) => m.name).join(', ')} still do not resolve` : result.error
  return { ok, ...(error ? { error } : {}), output: result.output, seconds, missing: still }
}

/**
 * The check at start, and the install when something is missing (unless LINGXI_INSTALL=0). Resolves the
 * report `{ missing, command, install? }` that lib/core/packages.ts reads; `install` says what was tried:
 * `{ attempted, ok, error?, output, seconds }`.
 */
export async function ensureDependencies (root, { log = () => {} } = {}) {
  const plan = installPlan(root)
  const missing = missingDependencies(root)
  const report = { missing, command: plan.display }
  if (missing.length === 0) return report
  const names = missing.map((m) => m.installed ? `${m.name}@${m.installed} (needs ${m.range})` : m.name).join(', ')
  if (process.env.LINGXI_INSTALL === '0') {
    log(`[灵犀] missing packages: ${names}; not installing them (LINGXI_INSTALL=0). Run: ${plan.display}`)
    return { ...report, install: { attempted: false, ok: false, error: 'LINGXI_INSTALL=0', output: [], seconds: 0 } }
  }
  log(`[灵犀] 缺少依赖 (missing packages): ${names}; installing them: ${plan.display}`)
  const r = await installAndCheck(root, plan, { log: (line) => log(`[灵犀] [${plan.manager}] ${line}`) })
  log(r.ok ? `[灵犀] packages installed in ${r.seconds} s` : `[灵犀] the install failed (${r.error}); run by hand: ${plan.display}`)
  return { missing: r.missing, command: plan.display, install: { attempted: true, ok: r.ok, ...(r.error ? { error: r.error } : {}), output: r.output, seconds: r.seconds } }
}
