// Script tools run in a confined child process (lib/tools/script-runner.ts): real child processes,
// one test per escape. The data folder holds a `jwt-secret` and a `config.yaml`, the bot's environment
// a data folder variable and an API key: a script reaches none of them, cannot start processes or
// threads, cannot signal the bot, and is stopped at the time limit and at the memory cap.
import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { systemClock } from '../../lib/core/clock.js'
import type { Runtime } from '../../lib/runtime.js'
import { ScriptTools } from '../../lib/tools/scripts.js'
import type { ToolCallContext } from '../../lib/tools/types.js'

const ctx: ToolCallContext = { scope: { userId: 'u1', isMaster: true, via: 'api', conversationId: 'c' }, userPermission: 'master', isMaster: true }

/**
 * Whether a process still runs. A killed orphan is re-parented; where the new parent (a container's
 * PID 1, say) does not reap it, it stays a zombie that `kill(pid, 0)` still finds, though it runs nothing.
 */
function running (pid: number): boolean {
  try { process.kill(pid, 0) } catch { return false }
  if (process.platform !== 'linux') return true
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch { return false }
}

describe('tools: script tools run confined', function () {
  this.timeout(60_000)
  let dir: string
  let scripts: ScriptTools
  let timeoutMs = 4000
  const saved = { data: process.env.LINGXI_DATA_DIR, key: process.env.OPENAI_API_KEY }

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'lingxi-confined-'))
    writeFileSync(join(dir, 'jwt-secret'), 'top-secret-jwt')
    writeFileSync(join(dir, 'config.yaml'), 'channels: [{ apiKey: sk-very-secret }]\n')
    process.env.LINGXI_DATA_DIR = dir
    process.env.OPENAI_API_KEY = 'sk-test-env-secret'
    const rt = {
      paths: { dataDir: dir },
      clock: systemClock,
      config: { get: () => ({ tools: { scriptTimeoutMs: timeoutMs } }) },
      log: { warn: () => {}, info: () => {}, error: () => {}, debug: () => {} }
    } as unknown as Runtime
    scripts = new ScriptTools(rt)
  })
  after(async () => {
    await scripts.stopAll()
    await scripts.stopWatching()
    if (saved.data === undefined) delete process.env.LINGXI_DATA_DIR; else process.env.LINGXI_DATA_DIR = saved.data
    if (saved.key === undefined) delete process.env.OPENAI_API_KEY; else process.env.OPENAI_API_KEY = saved.key
    rmSync(dir, { recursive: true, force: true })
  })
  afterEach(() => { timeoutMs = 4000 })

  /** Saves a script, checks it loaded, and calls it. */
  async function run (name: string, source: string, args: Record<string, unknown> = {}): Promise<string> {
    const saved = await scripts.write(name, '.js', source)
    expect(saved.error, `${name} loads`).to.equal(undefined)
    const tool = scripts.list().find((t) => t.name === name)
    if (!tool) throw new Error(`${name} is not listed`)
    const r = await tool.execute(args, ctx)
    const first = r.content[0]
    return first?.type === 'text' ? first.text : ''
  }
  async function fails (name: string, source: string, args: Record<string, unknown> = {}): Promise<string> {
    try {
      const text = await run(name, source, args)
      throw new Error(`${name} answered ${text}`)
    } catch (err) {
      return err instanceof Error ? err.message : String(err)
    }
  }

  it('a normal script still works: arguments, the call context, JSON results, its own file, node builtins', async () => {
    const text = await run('normal', [
      'const os = require("node:os")',
      'export const description = "adds"',
      'export async function execute (args, ctx) {',
      '  const own = require("node:fs").readFileSync(__filename, "utf8").length > 0',
      '  return { sum: args.a + args.b, master: ctx.isMaster, via: ctx.scope.via, own, os: typeof os.platform(), parent: process.ppid }',
      '}'
    ].join('\n'), { a: 2, b: 3 })
    expect(JSON.parse(text)).to.deep.equal({ sum: 5, master: true, via: 'api', own: true, os: 'string', parent: process.pid })
    const tool = scripts.list().find((t) => t.name === 'normal')
    expect(tool?.description).to.equal('adds')
  })

  it('reading <data>/jwt-secret or config.yaml fails, and the result says so', async () => {
    for (const f of ['jwt-secret', 'config.yaml']) {
      const msg = await fails('reader', 'export function execute (a) { return require("node:fs").readFileSync(a.file, "utf8") }', { file: join(dir, f) })
      expect(msg, f).to.match(/Access to this API has been restricted|ERR_ACCESS_DENIED/)
      expect(msg).to.not.include('top-secret')
    }
    const listing = await fails('lister', 'export async function execute (a) { return (await require("node:fs/promises").readdir(a.dir)).join() }', { dir })
    expect(listing).to.match(/restricted|ERR_ACCESS_DENIED/)
  })

  it('writing a file fails', async () => {
    const msg = await fails('writer', 'export function execute (a) { require("node:fs").writeFileSync(a.file, "x"); return "written" }', { file: join(dir, 'tools', 'evil.js') })
    expect(msg).to.match(/restricted|ERR_ACCESS_DENIED/)
  })

  it('the environment holds none of the bot\'s variables (LINGXI_DATA_DIR, API keys)', async () => {
    const text = await run('env', 'export function execute () { return { data: process.env.LINGXI_DATA_DIR ?? null, key: process.env.OPENAI_API_KEY ?? null, names: Object.keys(process.env) } }')
    const env = JSON.parse(text) as { data: string | null; key: string | null; names: string[] }
    expect(env.data).to.equal(null)
    expect(env.key).to.equal(null)
    expect(env.names.filter((n) => /LINGXI|KEY|SECRET|TOKEN|HOME|PATH/i.test(n))).to.deep.equal([])
  })

  it('child_process.spawn fails', async () => {
    const msg = await fails('spawner', 'export function execute () { const c = require("node:child_process").spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"]); return String(c.pid) }')
    expect(msg).to.match(/restricted|ERR_ACCESS_DENIED/)
  })

  it('new Worker fails', async () => {
    const msg = await fails('threader', 'export function execute () { const { Worker } = require("node:worker_threads"); new Worker("1", { eval: true }); return "started" }')
    expect(msg).to.match(/restricted|ERR_ACCESS_DENIED/)
  })

  it('process.kill(process.ppid) cannot kill the bot (nor can _kill or _debugProcess signal it)', async () => {
    const msg = await fails('killer', 'export function execute () { process.kill(process.ppid, "SIGKILL"); return "killed" }')
    expect(msg).to.match(/not available to script tools/)
    const raw = await run('rawkill', [
      'export function execute () {',
      '  const out = []',
      '  for (const k of ["_kill", "_debugProcess"]) { try { process[k](process.ppid, 9); out.push(k + " ran") } catch (e) { out.push(k + " refused") } }',
      '  try { process.kill = () => true } catch (e) {}',
      '  try { process.kill(process.ppid, "SIGTERM"); out.push("kill ran") } catch (e) { out.push("kill refused") }',
      '  return out.join(", ")',
      '}'
    ].join('\n'))
    expect(raw).to.equal('_kill refused, _debugProcess refused, kill refused')
    // still here, and still answering
    expect(process.kill(process.pid, 0)).to.equal(true)
    expect(await run('alive', 'export const execute = () => "ok"')).to.equal('ok')
  })

  it('an endless loop is killed at the time limit (its process too) and the next call works', async () => {
    timeoutMs = 1500
    const source = 'export function execute (a) { if (a.loop) { while (true) {} } return String(process.pid) }'
    const pid = Number(await run('looper', source))
    expect(pid).to.be.greaterThan(0)
    const tool = scripts.list().find((t) => t.name === 'looper')!
    const started = Date.now()
    const err = await tool.execute({ loop: true }, ctx).then(() => undefined, (e: unknown) => e as Error)
    expect(err?.message).to.match(/ran longer than 1500 ms/)
    expect(Date.now() - started).to.be.lessThan(6000)
    let gone = false
    for (let i = 0; i < 50 && !gone; i++) {
      try { process.kill(pid, 0); await new Promise((r) => setTimeout(r, 50)) } catch { gone = true }
    }
    expect(gone, 'the looping process was killed').to.equal(true)
    const r = await tool.execute({}, ctx)
    expect(r.content[0]).to.have.property('text').that.matches(/^\d+$/)
  })

  it('a script allocating without end is stopped by the memory cap', async () => {
    timeoutMs = 30_000
    const msg = await fails('hog', 'export function execute () { const keep = []; for (;;) keep.push(new Array(1e5).fill(Math.random())) }')
    expect(msg).to.match(/ran out of memory/)
    expect(await run('alive2', 'export const execute = () => "still ok"')).to.equal('still ok')
  })

  it('a script filling Buffers (outside the JS heap) is stopped by the resident memory cap (Linux)', async function () {
    if (process.platform !== 'linux') this.skip()
    timeoutMs = 30_000
    const msg = await fails('bufhog', 'export async function execute () { const keep = []; for (;;) { keep.push(Buffer.alloc(16 * 1024 * 1024, 1)); await new Promise((r) => setTimeout(r, 5)) } }')
    expect(msg).to.match(/ran out of memory \(\d+ MB resident/)
  })

  it('the same holds while the module loads: reading the secret or looping fails the load, saying why', async () => {
    const read = await scripts.write('loadread', '.js', `const s = require("node:fs").readFileSync(${JSON.stringify(join(dir, 'jwt-secret'))}, "utf8"); export const execute = () => s`)
    expect(read.loaded).to.equal(false)
    expect(read.error).to.match(/restricted|ERR_ACCESS_DENIED/)
    timeoutMs = 1000
    const loop = await scripts.write('loadloop', '.js', 'while (true) {} export const execute = () => 1')
    expect(loop.loaded).to.equal(false)
    expect(loop.error).to.match(/did not load within 1000 ms/)
  })

  it('an answer past the size cap stops the script with an error', async () => {
    const msg = await fails('flood', 'export function execute () { return "x".repeat(5 * 1024 * 1024) }')
    expect(msg).to.match(/answered more than/)
  })

  it('a bot process that exits with a call looping leaves no script process behind', async function () {
    if (process.platform === 'win32') this.skip()
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'fixtures', 'script-exit.ts')], { timeout: 30_000 })
    const out = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { pid: number; dir: string }
    rmSync(out.dir, { recursive: true, force: true })
    expect(out.pid).to.be.greaterThan(0)
    let gone = false
    for (let i = 0; i < 40 && !gone; i++) {
      if (running(out.pid)) await new Promise((r) => setTimeout(r, 50)); else gone = true
    }
    expect(gone, `script process ${out.pid} still running`).to.equal(true)
  })
})
