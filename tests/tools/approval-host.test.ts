// A dangerous tool called in a QQ chat asks the master in that chat; `#lx同意 <id>` / `#lx拒绝 <id>`
// answer it. Through the standalone host with the real plugin loaded as the hosts load it.
import { expect } from 'chai'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ToolResult } from '../../lib/chat/contracts.js'
import { createHost, type Host } from '../../standalone/host.js'
import { stopHost } from '../support/plugin-host.js'
import type { Running } from '../../lib/lifecycle.js'
import type { ToolCallContext } from '../../lib/tools/types.js'
import { fakeSource, fakeTool } from './helpers.js'

const PLUGIN_ROOT = fileURLToPath(new URL('../../', import.meta.url))
const MASTER = '10001'
const USER = '20002'
const GROUP = '300'

describe('tools: approval in chat through the standalone host', function () {
  this.timeout(60_000)
  let host: Host
  let dataDir: string
  let run: Running
  const ran: string[] = []

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'lingxi-tools-host-'))
    host = createHost({ profile: 'miao', pluginDir: PLUGIN_ROOT, masters: [MASTER], cooldowns: false, env: { LINGXI_DATA_DIR: dataDir, LINGXI_PORT: '0' } })
    await host.start()
    expect(host.loadErrors.map((e) => String(e.error))).to.deep.equal([])
    const lingxi = host.module?.lingxi as { start(): Promise<Running> }
    run = await lingxi.start()
    run.rt.need('tools').registry.addSource(fakeSource('host-test', [
      fakeTool('wipe_disk', { dangerous: true, risk: 'high', execute: async () => { ran.push('wipe_disk'); return { content: [{ type: 'text', text: 'wiped' }], isError: false } } })
    ]))
  })
  after(async () => {
    await stopHost(host) // the plugin too: the host does not stop it
    rmSync(dataDir, { recursive: true, force: true })
  })

  const ctx = (): ToolCallContext => ({
    scope: { userId: USER, groupId: GROUP, nickname: 'Bob', isMaster: false, via: 'bot', conversationId: `group:${GROUP}:${USER}` },
    userPermission: 'member',
    isMaster: false
  })

  async function askedId (since: number): Promise<string> {
    const entry = await host.waitForSend((e) => e.target === 'group' && e.text.includes('需要主人批准'), since)
    expect(entry.text).to.include('wipe_disk')
    const m = /同意 (\d+)/.exec(entry.text)
    expect(m, entry.text).to.not.equal(null)
    return m![1]!
  }

  it('the master approves with #lx同意 <id> and the tool runs', async () => {
    const since = host.transcript.length
    const call: Promise<ToolResult> = run.rt.need('tools').registry.call('wipe_disk', { target: '/' }, ctx())
    const id = await askedId(since)
    expect(ran).to.deep.equal([])
    const res = await host.sendGroup(GROUP, MASTER, `#lx同意 ${id}`)
    expect(res.stage).to.equal('handled')
    const result = await call
    expect(result.isError).to.equal(false)
    expect(ran).to.deep.equal(['wipe_disk'])
    expect(host.transcript.at(-1)?.text).to.include('已批准')
  })

  it('others cannot answer; the master refuses with #lx拒绝 <id> and the tool does not run', async () => {
    const since = host.transcript.length
    const call = run.rt.need('tools').registry.call('wipe_disk', {}, ctx())
    const id = await askedId(since)
    const other = await host.sendGroup(GROUP, USER, `#lx同意 ${id}`)
    expect(other.stage).to.not.equal('handled')
    expect(run.rt.need('tools').registry.approvals.list().map((r) => r.id)).to.include(id)
    await host.sendGroup(GROUP, MASTER, `#lx拒绝 ${id}`)
    const result = await call
    expect(result.isError).to.equal(true)
    expect(ran).to.deep.equal(['wipe_disk'])
    const log = run.rt.need('tools').registry.log.query({ toolName: 'wipe_disk' })
    expect(log.logs.map((l) => l.status)).to.deep.equal(['error', 'success'])
  })

  it('an unknown id is answered, not crashing', async () => {
    await host.sendGroup(GROUP, MASTER, '#lx同意 9999')
    expect(host.transcript.at(-1)?.text).to.include('9999')
  })
})
