// The real Miao-Yunzai host for a suite (tests/realhost/README.md, "Miao-Yunzai harness"), set up as
// ../shared/hosts/README.md ("Miao-Yunzai") says: a copy of the unmodified snapshot in a temp folder with the
// miao-plugin stand-in as plugins/miao-plugin, installed with pnpm 10 (`pnpm install -P`; the installed host is
// kept in node_modules/.cache/lingxi-realhost-miao, keyed by what decides the install, and copied per suite
// with its links), redis on a port of its own, config/config/{bot,redis,other}.yaml written before the start;
// the plugin copied in (copyPlugin) or cloned from a git URL and installed as users do; the host started as
// `node .` or under its keep-alive runner (lib/tools/ksr.js), with support/miao-edge.mjs standing in for QQ
// inside its process. The test drives it through that module's loopback control channel (MiaoEdge).
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { createServer as createHttpServer } from 'node:http'
import { appendFileSync, closeSync, cpSync, existsSync, fstatSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { ensureDashboardBuilt } from '../../../routes/_http/dashboard-build.js'
import { writePluginConfig } from './prepare.js'
import { hostCached, installFromCache } from './host-cache.js'
import { REPO_ROOT, withInstallLock, type Toolchain } from './toolchain.js'
import { copyPlugin, freePort, outputLines, PLUGIN_KEY, pluginProblems, removePluginBundles, removeTree, startRedis } from './trss-host.js'

export { writePluginConfig, outputLines }

const run = promisify(execFile)
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** LINGXI_MIAO_SNAPSHOT points the suites at another Miao-Yunzai folder (it is copied, never changed). */
const MIAO_SNAPSHOT = process.env.LINGXI_MIAO_SNAPSHOT || resolve(REPO_ROOT, '../shared/hosts/miao-yunzai')
/** The test-side stand-in for miao-plugin (Miao loads no plugin without one; the real one cannot be had here). */
const MIAO_STANDIN = process.env.LINGXI_MIAO_STANDIN || resolve(REPO_ROOT, '../shared/hosts/miao-plugin-standin')
const CACHE_DIR = join(REPO_ROOT, 'node_modules', '.cache', 'lingxi-realhost-miao')
/** QQ at icqq's edge, loaded into the host's app process (plain JavaScript). */
const EDGE_MODULE = join(import.meta.dirname, 'miao-edge.mjs')
/** How long a start (or a restart) may take until the plugin answers (its first start bundles it). */
export const MIAO_START_MS = 120_000
/** The fixed uin Miao gives its Client with skip_login. */
const MIAO_BOT_UIN = 88888

interface MiaoToolchain extends Toolchain {
  /** npm_config_nodedir for node-gyp (sqlite3 is compiled: its prebuilt binary is on GitHub) */
  nodedir: string
}

async function which (cmd: string): Promise<string | undefined> {
  try { return (await run('sh', ['-c', `command -v ${cmd}`])).stdout.trim() || undefined } catch { return undefined }
}

/**
 * The snapshot, the stand-in, redis-server, the machine's Node (the one running the tests, also the host's) and
 * pnpm 10 (installed with npm into the cache on first use); a string says why not.
 */
async function ensureMiaoToolchain (): Promise<MiaoToolchain | string> {
  if (!existsSync(join(MIAO_SNAPSHOT, 'package.json'))) return `no Miao-Yunzai snapshot at ${MIAO_SNAPSHOT} (it is beside the repository on the project's machines only)`
  if (!existsSync(join(MIAO_STANDIN, 'components', 'index.js'))) return `no miao-plugin stand-in at ${MIAO_STANDIN} (Miao-Yunzai loads no plugin without plugins/miao-plugin)`
  const redisServer = await which('redis-server')
  if (!redisServer) return 'redis-server is not installed (apt-get install -y redis-server; .ci/run does it)'
  const node = process.execPath
  const nodeBinDir = dirname(node)
  const nodedir = resolve(nodeBinDir, '..')
  const pnpm = join(CACHE_DIR, 'node_modules', 'pnpm', 'bin', 'pnpm.cjs')
  if (!existsSync(pnpm)) {
    const failed = await withInstallLock(CACHE_DIR, async () => {
      if (existsSync(pnpm)) return undefined // installed by a suite beside this one meanwhile
      mkdirSync(CACHE_DIR, { recursive: true })
      try {
        await run('npm', ['install', '--prefix', CACHE_DIR, '--no-audit', '--no-fund', '--no-save', 'pnpm@10'], { timeout: 300_000, maxBuffer: 8 << 20 })
      } catch (err) {
        return `pnpm 10 could not be installed with npm (${(err as Error).message.split('\n')[0]})`
      }
      return undefined
    })
    if (failed) return failed
    if (!existsSync(pnpm)) return `npm installed pnpm@10 but ${pnpm} is missing`
  }
  return { node, nodeBinDir, pnpm, redisServer, nodedir }
}

/**
 * What node-gyp needs to compile the host's sqlite3 (only while the host's install is not cached): python3, make, a
 * C++ compiler and Node's headers under its prefix (offline node-gyp cannot download them); a string says what lacks.
 */
async function missingBuildTools (tc: MiaoToolchain): Promise<string | undefined> {
  const missing: string[] = []
  for (const cmd of ['python3', 'make', 'g++']) if (!(await which(cmd))) missing.push(cmd)
  if (missing.length) return `${missing.join(', ')} missing: node-gyp compiles the host's sqlite3 (apt-get install -y python3 make g++)`
  if (!existsSync(join(tc.nodedir, 'include', 'node', 'node_api.h'))) return `no Node headers at ${tc.nodedir}/include/node: node-gyp compiles the host's sqlite3 against them (Debian's nodejs package has them)`
  return undefined
}

/** The environment of pnpm in the host folder (never CI=1: a frozen lockfile refuses a newly added plugin). */
function pnpmEnv (tc: MiaoToolchain): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${tc.nodeBinDir}:${process.env.PATH ?? ''}`, PUPPETEER_SKIP_DOWNLOAD: '1', npm_config_nodedir: tc.nodedir }
  delete env.CI
  delete env.NODE_ENV
  for (const k of Object.keys(env)) if (k.startsWith('LINGXI_')) delete env[k]
  return env
}

/** `pnpm install -P` in `cwd`, its output given back; a registry out of reach marks the error `unreachable`. */
async function pnpmInstallProd (tc: MiaoToolchain, cwd: string): Promise<string> {
  try {
    const { stdout, stderr } = await run(tc.node, [tc.pnpm, 'install', '-P', '--reporter=append-only'], { cwd, timeout: 900_000, maxBuffer: 64 << 20, env: pnpmEnv(tc) })
    return `${stdout}\n${stderr}`
  } catch (e) {
    const err = e as Error & { stdout?: string; stderr?: string }
    const out = `${err.stdout ?? ''}\n${err.stderr ?? ''}`
    const failure = new Error(`pnpm install -P in ${cwd} failed: ${err.message.split('\n')[0]}\n${out.slice(-4000)}`)
    if (/ERR_PNPM_(META_)?FETCH|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ERR_SOCKET/.test(out)) Object.assign(failure, { unreachable: true })
    throw failure
  }
}

function hashTree (h: ReturnType<typeof createHash>, dir: string, rel = ''): void {
  for (const name of readdirSync(join(dir, rel)).sort()) {
    const r = join(rel, name)
    if (statSync(join(dir, r)).isDirectory()) hashTree(h, dir, r)
    else h.update(`${r}\0`).update(readFileSync(join(dir, r))).update('\0')
  }
}

/** What decides the installed host: its package.json, workspace and lockfile, the stand-in, Node's ABI, pnpm, its store. */
function installKey (tc: MiaoToolchain): string {
  const h = createHash('sha256')
  for (const f of ['package.json', 'pnpm-workspace.yaml', 'pnpm-lock.yaml']) {
    const p = join(MIAO_SNAPSHOT, f)
    h.update(`${f}\0`).update(existsSync(p) ? readFileSync(p) : '-').update('\0')
  }
  hashTree(h, MIAO_STANDIN)
  const pnpmVersion = (JSON.parse(readFileSync(join(dirname(tc.pnpm), '..', 'package.json'), 'utf8')) as { version: string }).version
  h.update(`${process.platform}-${process.arch}-abi${process.versions.modules}-pnpm${pnpmVersion}`)
  // the store the install was linked from is recorded in node_modules/.modules.yaml: a later `pnpm install` in a
  // copy (the git-installed plugin) refuses another one, so what decides the store location is part of the key
  for (const k of ['npm_config_store_dir', 'PNPM_HOME', 'XDG_DATA_HOME', 'HOME']) h.update(`\0${k}=${process.env[k] ?? ''}`)
  return h.digest('hex').slice(0, 16)
}

/** The snapshot plus the stand-in in `dest`, writable (the snapshot's files are read-only). */
async function copySnapshot (dest: string): Promise<void> {
  cpSync(MIAO_SNAPSHOT, dest, { recursive: true })
  cpSync(MIAO_STANDIN, join(dest, 'plugins', 'miao-plugin'), { recursive: true })
  await run('chmod', ['-R', 'u+w', dest])
}

/** Whether the installed host for this snapshot is in the cache (no install, no build tools needed). */
function miaoHostCached (tc: MiaoToolchain): boolean {
  return hostCached({ dir: CACHE_DIR, key: installKey(tc) })
}

/**
 * Copies the snapshot with the stand-in to `root` and installs it (`PUPPETEER_SKIP_DOWNLOAD=1
 * npm_config_nodedir=<node's prefix> pnpm install -P`). The installed host is cached once per install key
 * (support/host-cache.ts; about 170 MB each, another key's kept a week) and copied from there (about 2 s
 * instead of about 8 s with pnpm's store warm, 75-90 s cold).
 */
function installMiaoHost (tc: MiaoToolchain, root: string): Promise<{ seconds: number; cached: boolean }> {
  return installFromCache({
    dir: CACHE_DIR,
    key: installKey(tc),
    keepDays: 7,
    install: async (dir) => { await copySnapshot(dir); await pnpmInstallProd(tc, dir) }
  }, root)
}

/** The plugin the fast way: this working tree copied to plugins/lingxi-plugin, the project's node_modules linked. */
async function installPluginFast (root: string): Promise<string> {
  await ensureDashboardBuilt(REPO_ROOT) // the copy takes resources/dist along (no build inside the host)
  const dir = join(root, 'plugins', PLUGIN_KEY)
  await copyPlugin(dir)
  return dir
}

/**
 * The plugin the way its README says: `git clone <url> plugins/lingxi-plugin` in the host folder, then
 * `pnpm install -P` there (the workspace takes in the plugin's dependencies and runs its postinstall).
 */
async function installPluginFromGit (tc: MiaoToolchain, root: string, url: string): Promise<{ dir: string; seconds: number; output: string }> {
  const t0 = Date.now()
  const dir = join(root, 'plugins', PLUGIN_KEY)
  try {
    await run('git', ['clone', url, join('plugins', PLUGIN_KEY)], { cwd: root, timeout: 300_000, maxBuffer: 16 << 20, env: pnpmEnv(tc) })
  } catch (e) {
    const err = e as Error & { stderr?: string }
    throw new Error(`git clone ${url} plugins/${PLUGIN_KEY} failed: ${err.message.split('\n')[0]}\n${err.stderr ?? ''}`)
  }
  const output = await pnpmInstallProd(tc, root)
  return { dir, seconds: (Date.now() - t0) / 1000, output }
}

interface MiaoConfig {
  masterId: number | string
  redisPort: number
  /** bot.yaml restart_port: where ksr.js listens for the host's `#重启` */
  restartPort: number
}

/** config/config/{bot,redis,other}.yaml from the shipped defaults (the host copies the rest on its start). */
function writeMiaoConfig (root: string, c: MiaoConfig): void {
  const dir = join(root, 'config', 'config')
  mkdirSync(dir, { recursive: true })
  const defaults = (name: string): string => readFileSync(join(root, 'config', 'default_config', `${name}.yaml`), 'utf8')
  const set = (text: string, key: string, value: string): string => {
    const re = new RegExp(`^${key}:.*$`, 'm')
    return re.test(text) ? text.replace(re, `${key}: ${value}`) : `${text.trimEnd()}\n${key}: ${value}\n`
  }
  writeFileSync(join(dir, 'bot.yaml'), set(set(defaults('bot'), 'skip_login', 'true'), 'restart_port', String(c.restartPort)))
  writeFileSync(join(dir, 'redis.yaml'), set(set(defaults('redis'), 'host', '127.0.0.1'), 'port', String(c.redisPort)))
  writeFileSync(join(dir, 'other.yaml'), defaults('other').replace(/^masterQQ:[^\n]*(\n[ \t]+-[^\n]*)*/m, `masterQQ:\n  - ${c.masterId}`))
}

export interface PreparedMiaoHost {
  tc: MiaoToolchain
  /** the temp folder: the host copy, the plugin's data, redis */
  work: string
  /** the host copy */
  root: string
  /** plugins/lingxi-plugin in the copy */
  pluginDir: string
  /** LINGXI_DATA_DIR */
  dataDir: string
  redis: { port: number; stop(): Promise<void> }
  /** LINGXI_PORT: the plugin's own web port */
  lingxiPort: number
  /** LINGXI_MIAO_EDGE_PORT: the control channel of miao-edge.mjs */
  edgePort: number
  /** bot.yaml restart_port (ksr.js) */
  restartPort: number
  masterId: string
  /** what the set-up took, for the suite's summary line */
  timings: string[]
}

export type PluginInstall = 'fast' | { gitUrl: string }

/**
 * A suite's `before`: the toolchain, a temp folder with redis and the installed host, the plugin (`fast`: this
 * working tree; `{gitUrl}`: cloned and installed by pnpm), free ports and the host's config. Skips the suite with
 * a one-line reason where it cannot run (no snapshot or stand-in, no redis, pnpm, Node headers or build tools,
 * the registry out of reach).
 */
export async function prepareMiaoHost (ctx: Mocha.Context, suite: string, opts: { masterId: number | string; plugin?: PluginInstall }): Promise<PreparedMiaoHost> {
  const skip = (why: string): never => {
    console.warn(`    real-host Miao ${suite} suite skipped: ${why}`)
    ctx.skip()
  }
  const timings: string[] = []
  let t0 = Date.now()
  const got = await ensureMiaoToolchain()
  if (typeof got === 'string') skip(got)
  const tc = got as MiaoToolchain
  if (!miaoHostCached(tc)) {
    const why = await missingBuildTools(tc)
    if (why) skip(why)
  }
  timings.push(`toolchain ${((Date.now() - t0) / 1000).toFixed(1)} s`)
  const work = mkdtempSync(join(tmpdir(), `lingxi-realhost-miao-${suite}-`))
  const root = join(work, 'miao-yunzai')
  const redis = await startRedis(tc, work)
  try {
    const installed = await installMiaoHost(tc, root).catch((err: Error & { unreachable?: boolean }) => {
      if (!err.unreachable) throw err
      return skip(`the host's packages could not be fetched (${err.message.split('\n')[0]})`)
    })
    timings.push(`host install ${installed.seconds.toFixed(1)} s${installed.cached ? ' (cached)' : ''}`)
    t0 = Date.now()
    const plugin = opts.plugin ?? 'fast'
    let pluginDir: string
    if (plugin === 'fast') {
      pluginDir = await installPluginFast(root)
    } else {
      pluginDir = (await installPluginFromGit(tc, root, plugin.gitUrl).catch((err: Error & { unreachable?: boolean }) => {
        if (!err.unreachable) throw err
        return skip(`the plugin's packages could not be fetched (${err.message.split('\n')[0]})`)
      })).dir
    }
    timings.push(`plugin ${plugin === 'fast' ? 'copy' : 'clone + pnpm install'} ${((Date.now() - t0) / 1000).toFixed(1)} s`)
    const ports = new Set<number>()
    const port = async (): Promise<number> => { let p: number; do p = await freePort(); while (ports.has(p) || p === redis.port); ports.add(p); return p }
    const lingxiPort = await port()
    const edgePort = await port()
    const restartPort = await port()
    writeMiaoConfig(root, { masterId: opts.masterId, redisPort: redis.port, restartPort })
    return { tc, work, root, pluginDir, dataDir: join(work, 'lingxi-data'), redis, lingxiPort, edgePort, restartPort, masterId: String(opts.masterId), timings }
  } catch (err) {
    // a skip (mocha's Pending) or a failure: nothing of this set-up stays behind
    await redis.stop()
    removeTree(work)
    throw err
  }
}

// ---- the host process -------------------------------------------------------------------------------

export type MiaoStartMode = 'node' | 'ksr'

export interface MiaoExit { code: number | null; signal: NodeJS.Signals | null }

export interface MiaoProcess {
  mode: MiaoStartMode
  /** `node .` or ksr.js: the leader of a process group of its own (setsid) */
  child: ChildProcess
  /** everything the host printed so far (stdout and stderr; under ksr also its app's) */
  output(): string
  exited: Promise<MiaoExit>
  /**
   * Mode `node`: the paths the host requested from the stand-in on bot.yaml's restart_port (`/restart` for
   * `#重启` and after a `#更新` that pulled something, `/exit` for `#关机`); nothing is restarted. Mode `ksr`: [].
   */
  restartRequests(): string[]
  /** SIGTERM to the whole process group (ksr and its app alike), then waits until none of it is left */
  stop(signal?: NodeJS.Signals): Promise<MiaoExit>
}

/** Where the edge appends its records (every app process of the prepared host, one JSON line each). */
function edgeRecordFile (p: Pick<PreparedMiaoHost, 'work'>): string {
  return join(p.work, 'miao-edge-sends.jsonl')
}

/** The live (not zombie) processes of process group `pgid` (Linux /proc; elsewhere: whether the group exists). */
function groupMembers (pgid: number): number[] {
  if (!existsSync('/proc/self/stat')) {
    try { process.kill(-pgid, 0); return [pgid] } catch { return [] }
  }
  const live: number[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    let stat: string
    try { stat = readFileSync(`/proc/${name}/stat`, 'utf8') } catch { continue }
    // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, the rest follows its last ')'
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') live.push(Number(name))
  }
  return live
}

/**
 * What answers on restart_port when the host runs as `node .`: without a listener there, the host's `#重启` (and
 * the restart after a `#更新` that pulled something) runs `npm start`, i.e. pm2 from the host's node_modules, which
 * would start a second host in a pm2 daemon outside the test's control. Like ksr.js it answers "OK\n" on
 * /restart and /exit (loopback only) and, unlike it, restarts nothing: the requests are recorded.
 */
async function restartPortGuard (port: number): Promise<{ requests: string[]; close(): Promise<void> }> {
  const requests: string[] = []
  const server = createHttpServer((req, res) => {
    const from = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '')
    if (from !== '127.0.0.1' && from !== '::1') { res.writeHead(403).end('Access Forbidden\n'); return }
    requests.push(req.url ?? '')
    if (req.url === '/restart' || req.url === '/exit') res.writeHead(200, { 'Content-Type': 'text/plain' }).end('OK\n')
    else res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not Found\n')
  })
  // on every interface, as ksr.js listens: the host's own check (plugins/other/restart.js isPortTaken) binds them all
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(port, () => resolve()) })
  return { requests, close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }) }
}

/**
 * Starts the host in its copy: `node --import <edge> .` (mode `node`; a stand-in answers on restart_port, see
 * restartPortGuard) or `node lib/tools/ksr.js` with NODE_OPTIONS=--import=<edge URL> (mode `ksr`: the app it
 * spawns, again after each `#重启`, loads the edge; ksr itself is left alone by it). The machine's Node is first on
 * PATH (ksr spawns `node`); `env` adds to the plugin's LINGXI_DATA_DIR and LINGXI_PORT.
 */
async function spawnMiaoHost (p: PreparedMiaoHost, opts: { mode?: MiaoStartMode; env?: Record<string, string>; world?: MiaoWorld } = {}): Promise<MiaoProcess> {
  const mode = opts.mode ?? 'node'
  const guard = mode === 'node' ? await restartPortGuard(p.restartPort) : undefined
  // as a user's process: none of the test process's own settings (tests/support/setup.ts) leak in
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LINGXI_') && k !== 'NODE_ENV' && k !== 'NODE_OPTIONS'))
  const env: NodeJS.ProcessEnv = {
    ...base,
    PATH: `${p.tc.nodeBinDir}:${process.env.PATH ?? ''}`,
    LINGXI_DATA_DIR: p.dataDir,
    LINGXI_PORT: String(p.lingxiPort),
    LINGXI_MIAO_EDGE_PORT: String(p.edgePort),
    LINGXI_MIAO_EDGE_LOG: edgeRecordFile(p),
    ...(opts.world ? { LINGXI_MIAO_EDGE_WORLD: JSON.stringify(opts.world) } : {}),
    ...opts.env
  }
  const edgeUrl = pathToFileURL(EDGE_MODULE).href
  if (mode === 'ksr') env.NODE_OPTIONS = `--import=${edgeUrl}`
  const args = mode === 'ksr' ? ['lib/tools/ksr.js'] : ['--import', edgeUrl, '.']
  let child: ChildProcess
  try {
    child = spawn(p.tc.node, args, { cwd: p.root, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env })
  } catch (err) {
    await guard?.close()
    throw err
  }
  let out = ''
  const logFile = join(p.root, 'lingxi-realhost.log')
  appendFileSync(logFile, `\n==== ${new Date().toISOString()} ${mode}: node ${args.join(' ')}\n`)
  const onData = (b: Buffer): void => { const s = b.toString(); out += s; appendFileSync(logFile, s) }
  child.stdout?.on('data', onData)
  child.stderr?.on('data', onData)
  const exited = new Promise<MiaoExit>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }))
    child.once('error', (err) => { onData(Buffer.from(`\n[miao-host] spawn failed: ${err.message}\n`)); resolve({ code: null, signal: null }) })
  })
  const pgid = child.pid
  return {
    mode,
    child,
    output: () => out,
    exited,
    restartRequests: () => [...(guard?.requests ?? [])],
    async stop (signal = 'SIGTERM') {
      try {
        if (pgid === undefined) return await exited
        const signalGroup = (s: NodeJS.Signals): void => { try { process.kill(-pgid, s) } catch { /* gone */ } }
        signalGroup(signal)
        const until = Date.now() + 15_000
        while (groupMembers(pgid).length && Date.now() < until) await sleep(50)
        if (groupMembers(pgid).length) signalGroup('SIGKILL')
        for (let i = 0; i < 100 && groupMembers(pgid).length; i++) await sleep(50)
        return await exited
      } finally {
        await guard?.close()
      }
    }
  }
}

// ---- the control channel (support/miao-edge.mjs) --------------------------------------------------------

export interface MiaoWorld {
  nickname?: string
  friends?: Array<{ user_id: number; nickname?: string }>
  groups?: Array<{ group_id: number; group_name?: string; members?: Array<{ user_id: number; nickname?: string; card?: string; role?: 'owner' | 'admin' | 'member' }> }>
}

/** A forward node as the plugin gave it to makeForwardMsg. */
interface MiaoForwardNode { user_id?: number; nickname?: string; time?: number; text: string; message: unknown }

/** What the bot did at icqq's edge: a message sent, a forward made, a recall, a member action, an upload. */
export interface MiaoSend {
  /** per app process, from 1 */
  seq: number
  /** the app process that did it (a new one after a restart) */
  pid: number
  /** Date.now() in the host */
  time: number
  kind: 'send' | 'forward' | 'recall' | 'mute' | 'kick' | 'card' | 'poke' | 'upload'
  /** `u<user id>` (friends, users, members) or `g<group id>` */
  target: string
  /** the readable text: text elements, `@<qq> ` for an at; a sent forward: its nodes' text, one per line */
  text: string
  /** icqq's brief of a send (from its own _preprocess) */
  brief?: string
  /** the message as the plugin gave it (buffers as {buffer: length}) */
  message?: unknown
  /** a send of a forward this process made: its nodes; a `forward` record: `nodes` */
  forward?: MiaoForwardNode[]
  nodes?: MiaoForwardNode[]
  /** icqq refused the message (_preprocess threw; the send threw the same) */
  error?: string
  user_id?: number
  message_id?: unknown
  args?: unknown[]
}

export interface EdgeState { pid: number; ready: boolean; uin: number | null; nickname: string | null; seq: number }

export interface Delivered { message_id: string; seq: number; rand: number; time: number }

/**
 * The test's side of miao-edge.mjs: delivers messages into the host and reads what the bot sent. It follows
 * the app process across restarts (each app numbers its records from 1; `sends()` keeps them all, oldest first).
 */
export class MiaoEdge {
  private readonly all: MiaoSend[] = []
  private pid = 0
  private cursor = 0
  /** how far recordFile was read (bytes; a line is taken once whole) */
  private offset = 0
  /** Miao drops a message identical to the same user's within 200 ms: such a repeat waits that out */
  private readonly lastText = new Map<string, number>()

  /**
   * `recordFile`: the edge's LINGXI_MIAO_EDGE_LOG, where every app process appends its records at once; read from
   * there, nothing an app did just before it ended is missed. Without it the records come from the control channel
   * of the app process alive at the time.
   */
  constructor (readonly port: number, readonly recordFile?: string, readonly botUin = MIAO_BOT_UIN) {}

  private url (path: string): string { return `http://127.0.0.1:${this.port}${path}` }

  async state (timeoutMs = 2000): Promise<EdgeState | undefined> {
    try {
      const res = await fetch(this.url('/state'), { signal: AbortSignal.timeout(timeoutMs) })
      return res.ok ? (await res.json()) as EdgeState : undefined
    } catch { return undefined }
  }

  /** Waits until the control channel answers from an app process with its Bot (other than `notPid`). */
  async waitReady (timeoutMs: number, notPid?: number): Promise<EdgeState> {
    const until = Date.now() + timeoutMs
    let last: EdgeState | undefined
    while (Date.now() < until) {
      last = await this.state()
      if (last?.ready && last.pid !== notPid) return last
      await sleep(100)
    }
    throw new Error(`the edge control channel on ${this.port} was not ready within ${timeoutMs} ms (last: ${JSON.stringify(last)})`)
  }

  private async deliver (body: Record<string, unknown>): Promise<Delivered> {
    const key = `${String(body.user_id)}\0${String(body.text)}`
    const wait = (this.lastText.get(key) ?? 0) + 250 - Date.now()
    if (wait > 0) await sleep(wait)
    this.lastText.set(key, Date.now())
    const res = await fetch(this.url('/event'), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) })
    const data = await res.json() as Delivered & { error?: string }
    if (!res.ok) throw new Error(`the edge refused the event (${res.status}): ${data.error ?? ''}`)
    return data
  }

  /** A private message from a friend (icqq's `message.private.friend`). */
  privateMessage (userId: number | string, text: string, opts: { nickname?: string } = {}): Promise<Delivered> {
    return this.deliver({ kind: 'private', user_id: Number(userId), text, ...opts })
  }

  /** A group message (`message.group.normal`); `atBot` puts icqq's at element of the bot before the text. */
  groupMessage (groupId: number | string, userId: number | string, text: string, opts: { atBot?: boolean; nickname?: string; card?: string; role?: 'owner' | 'admin' | 'member'; groupName?: string } = {}): Promise<Delivered> {
    const { groupName, ...rest } = opts
    return this.deliver({ kind: 'group', group_id: Number(groupId), user_id: Number(userId), text, ...rest, ...(groupName ? { group_name: groupName } : {}) })
  }

  /** Fetches the new records (holding up to `waitMs` for one); false when the channel did not answer. */
  private async pull (waitMs: number): Promise<boolean> {
    if (this.recordFile) return this.readFile()
    let data: { pid: number; seq: number; records: MiaoSend[] }
    try {
      const res = await fetch(this.url(`/sends?since=${this.cursor}&wait=${waitMs}`), { signal: AbortSignal.timeout(waitMs + 5000) })
      data = await res.json() as typeof data
    } catch { return false }
    if (data.pid !== this.pid) {
      // a new app process (a restart): its records start again from 1
      if (this.cursor !== 0) { this.pid = data.pid; this.cursor = 0; return this.pull(0) }
      this.pid = data.pid
    }
    for (const r of data.records) if (r.seq > this.cursor) { this.all.push(r); this.cursor = r.seq }
    return true
  }

  private readFile (): boolean {
    let fd: number
    try { fd = openSync(this.recordFile!, 'r') } catch { return true } // nothing recorded yet
    try {
      const size = fstatSync(fd).size
      if (size <= this.offset) return true
      const buf = Buffer.alloc(size - this.offset)
      const got = readSync(fd, buf, 0, buf.length, this.offset)
      const end = buf.subarray(0, got).lastIndexOf(0x0a) // only whole lines; the rest is read next time
      if (end < 0) return true
      for (const line of buf.subarray(0, end).toString('utf8').split('\n')) {
        if (line.trim()) this.all.push(JSON.parse(line) as MiaoSend)
      }
      this.offset += end + 1
      return true
    } finally {
      closeSync(fd)
    }
  }

  /** Everything recorded so far, oldest first (across restarts). */
  async sends (): Promise<MiaoSend[]> {
    await this.pull(0)
    return [...this.all]
  }

  /**
   * The first record matching `match` made at or after `since` (Date.now() of the test, default: any),
   * waiting for it up to `timeoutMs`; fails with what was recorded meanwhile.
   */
  async waitForSend (match: (s: MiaoSend) => boolean, timeoutMs = 30_000, since = 0): Promise<MiaoSend> {
    const until = Date.now() + timeoutMs
    const seen = (): MiaoSend | undefined => this.all.find((s) => s.time >= since && match(s))
    await this.pull(0)
    for (;;) {
      const hit = seen()
      if (hit) return hit
      const left = until - Date.now()
      if (left <= 0) break
      if (this.recordFile) {
        await sleep(Math.min(25, left))
        this.readFile()
      } else if (!(await this.pull(Math.min(left, 5000)))) {
        // a long poll; while the channel is down (a restart) try again shortly
        await sleep(Math.min(200, left))
      }
    }
    const recent = this.all.filter((s) => s.time >= since).slice(-10).map((s) => `${s.kind} ${s.target}: ${s.text.slice(0, 200)}`)
    throw new Error(`no matching send within ${timeoutMs} ms; sends since: ${recent.length ? `\n${recent.join('\n')}` : 'none'}`)
  }
}

// ---- a started host: the process, its plugin, its edge ------------------------------------------------

const LISTENING = '[灵犀] Web server listening'

const listeningCount = (output: string): number => outputLines(output).filter((l) => l.includes(LISTENING)).length

/** The host's output lines about the plugin or an error (for failure messages). */
function miaoPluginLines (output: string): string {
  return outputLines(output).filter((l) => /lingxi|灵犀|ERRO|error|Error|缺少依赖|插件|miao-edge/i.test(l)).slice(-60).join('\n')
}

/** A started Miao-Yunzai host with the plugin, driven through the edge (its methods are the edge's). */
export class MiaoHost {
  readonly edge: MiaoEdge
  /** the app process at the last (re)start */
  appPid = 0

  constructor (readonly p: PreparedMiaoHost, readonly proc: MiaoProcess) {
    this.edge = new MiaoEdge(p.edgePort, edgeRecordFile(p))
  }

  get mode (): MiaoStartMode { return this.proc.mode }
  output (): string { return this.proc.output() }
  privateMessage (userId: number | string, text: string, opts?: { nickname?: string }): Promise<Delivered> { return this.edge.privateMessage(userId, text, opts) }
  groupMessage (groupId: number | string, userId: number | string, text: string, opts?: Parameters<MiaoEdge['groupMessage']>[3]): Promise<Delivered> { return this.edge.groupMessage(groupId, userId, text, opts) }
  sends (): Promise<MiaoSend[]> { return this.edge.sends() }
  waitForSend (match: (s: MiaoSend) => boolean, timeoutMs?: number, since?: number): Promise<MiaoSend> { return this.edge.waitForSend(match, timeoutMs, since) }
  /** The errors and warnings the host logged about the plugin. */
  problems (): string[] { return pluginProblems(this.output()) }

  /**
   * Waits until an app process (other than `notPid`) has its edge up, the plugin logged that its web server
   * listens (more often than `listenedBefore` times in the output) and answers GET /api/system/health.
   */
  async waitForPlugin (timeoutMs = MIAO_START_MS, notPid?: number, listenedBefore = 0): Promise<void> {
    const until = Date.now() + timeoutMs
    const failed = (why: string): Error => new Error(`${why}; the host's lines about the plugin:\n${miaoPluginLines(this.output())}\n---\n${this.output().slice(-2500)}`)
    const exitedEarly = (): boolean => this.proc.child.exitCode !== null || this.proc.child.signalCode !== null
    const state = await this.edge.waitReady(timeoutMs, notPid).catch((err: Error) => { throw failed(exitedEarly() ? `the host exited (${this.proc.child.exitCode ?? this.proc.child.signalCode})` : err.message) })
    this.appPid = state.pid
    let last = ''
    while (Date.now() < until) {
      if (exitedEarly()) throw failed(`the host exited (${this.proc.child.exitCode ?? this.proc.child.signalCode}) before the plugin was up`)
      if (listeningCount(this.output()) > listenedBefore) {
        try {
          const res = await fetch(`http://127.0.0.1:${this.p.lingxiPort}/api/system/health`, { signal: AbortSignal.timeout(3000) })
          if (res.status === 200) {
            const now = await this.edge.state()
            if (now?.pid === state.pid) return
            last = `the app process changed (${state.pid} -> ${now?.pid ?? 'none'})`
          } else last = `health HTTP ${res.status}`
        } catch (err) { last = (err as Error).message }
      } else last = `no "${LISTENING}" line yet`
      await sleep(100)
    }
    throw failed(`the plugin was not up within ${timeoutMs} ms (${last})`)
  }

  /**
   * After something made the host restart (its `#重启` under ksr): waits for a new app process, its edge and
   * the plugin's health and listening line again.
   */
  async waitForRestart (timeoutMs = MIAO_START_MS): Promise<{ oldPid: number; newPid: number }> {
    const oldPid = this.appPid
    const before = listeningCount(this.output())
    await this.waitForPlugin(timeoutMs, oldPid, before)
    return { oldPid, newPid: this.appPid }
  }

  stop (signal?: NodeJS.Signals): Promise<MiaoExit> { return this.proc.stop(signal) }
}

/**
 * Starts the host (mode `node`: `node .`; `ksr`: under lib/tools/ksr.js) with the plugin's data folder and port and
 * the edge, and waits until the plugin is up (edge ready, listening line, health). A host that does not come up is
 * stopped and the error says why.
 */
export async function startMiaoHost (p: PreparedMiaoHost, opts: { mode?: MiaoStartMode; env?: Record<string, string>; world?: MiaoWorld; timeoutMs?: number } = {}): Promise<MiaoHost> {
  const host = new MiaoHost(p, await spawnMiaoHost(p, opts))
  try {
    await host.waitForPlugin(opts.timeoutMs ?? MIAO_START_MS)
  } catch (err) {
    await host.stop('SIGTERM')
    throw err
  }
  return host
}

/** Anything a suite started besides the host: stopped or closed at its end. */
type Closable = { close(): unknown } | { stop(): Promise<unknown> } | undefined

/**
 * A suite's `after`: the host stopped (its whole process group), then the other servers and redis; the temp
 * folder removed, or kept for a look (the host's output is in miao-yunzai/lingxi-realhost.log) when a test failed
 * outside CI.
 */
export async function endMiaoSuite (ctx: Mocha.Context, p: PreparedMiaoHost | undefined, parts: { host?: MiaoHost | undefined; servers?: Closable[] } = {}): Promise<void> {
  await parts.host?.stop('SIGTERM')
  for (const s of parts.servers ?? []) await (s && 'stop' in s ? s.stop() : s?.close())
  if (!p) return
  await p.redis.stop()
  if (p.timings.length) console.log(`    Miao host timings: ${p.timings.join(', ')}`)
  const failed = ctx.test?.parent?.tests.some((t) => t.state === 'failed')
  removePluginBundles(p.pluginDir)
  if (failed && !process.env.CI) console.log(`    kept for inspection: ${p.work}`)
  else removeTree(p.work)
}
