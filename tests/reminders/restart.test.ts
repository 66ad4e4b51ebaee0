// The whole plugin restarted on the same data folder, in the standalone host, on the fake clock: a
// reminder set for two minutes ahead is sent once after the restart, at its time; one whose time passed
// while the plugin was stopped is sent once at the start (retried until the host's account is there),
// marked late.
import { expect } from 'chai'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sinon from 'sinon'
import { createHost, type Host } from '../../standalone/host.js'
import type { Running } from '../../lib/lifecycle.js'
import { MASTER, PLUGIN_ROOT, stopHost } from '../support/plugin-host.js'

const MIN = 60_000

async function until (cond: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = performance.now() + ms
  while (!cond()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setImmediate(resolve))
  }
}

describe('reminders: across a restart of the plugin (standalone host, fake clock)', function () {
  this.timeout(60_000)
  let dataDir: string
  let host: Host | undefined
  let clock: sinon.SinonFakeTimers | undefined

  async function start (): Promise<Running> {
    host = createHost({ profile: 'trss', pluginDir: PLUGIN_ROOT, masters: [MASTER], cooldowns: false, env: { LINGXI_DATA_DIR: dataDir, LINGXI_PORT: '0' } })
    await host.start()
    const run = await (host.module as { lingxi: { start(): Promise<Running> } }).lingxi.start()
    await run.rt.config.update({ reminders: { ...run.rt.config.get().reminders, timezone: 'Asia/Shanghai' } })
    return run
  }
  async function stop (): Promise<void> {
    const h = host
    host = undefined
    await stopHost(h)
  }
  const fired = (h: Host, id: string): string[] => h.transcript.filter((e) => e.targetId === id && e.text.includes('⏰')).map((e) => e.text.replace(/\s+/g, ' ').trim())

  beforeEach(() => { dataDir = mkdtempSync(join(tmpdir(), 'lingxi-reminders-restart-')) })
  afterEach(async () => {
    clock?.restore()
    clock = undefined
    await stop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('set two minutes ahead, stopped, started again: sent once, on time, by the new start', async () => {
    let run = await start()
    clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldClearNativeTimers: true })
    const r = await run.rt.need('reminders').create({ userId: '20001', groupId: '555', isMaster: false, isGroupAdmin: false }, { when: '2分钟后', message: '喝水' })
    await stop()
    await clock.tickAsync(MIN)
    run = await start()
    expect(fired(host!, '555')).to.deep.equal([])
    await clock.tickAsync(MIN)
    await until(() => fired(host!, '555').length > 0, 'the reminder')
    await run.rt.need('reminders').idle()
    expect(fired(host!, '555')).to.deep.equal(['@20001 ⏰ 提醒：喝水'])
    expect(run.rt.need('reminders').get(r.id)).to.equal(undefined)
    await stop()
    run = await start() // and once more: nothing left to send
    await clock.tickAsync(10 * MIN)
    await run.rt.need('reminders').idle()
    expect(fired(host!, '555')).to.deep.equal([])
  })

  it('its time passed while stopped: sent once at the start, marked late', async () => {
    let run = await start()
    clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldClearNativeTimers: true })
    await run.rt.need('reminders').create({ userId: '20002', isMaster: false, isGroupAdmin: false }, { when: 'in 2 minutes', message: 'stretch' })
    await stop()
    await clock.tickAsync(30 * MIN)
    run = await start()
    // the plugin starts while the host loads it, before the host's account is connected (as under TRSS):
    // the first send finds no account and is retried 15 s later
    await run.rt.need('reminders').idle()
    await clock.tickAsync(15_000)
    await until(() => fired(host!, '20002').length > 0, 'the late reminder')
    await run.rt.need('reminders').idle()
    const sent = fired(host!, '20002')
    expect(sent).to.have.length(1)
    expect(sent[0]).to.match(/^⏰ 提醒（迟到了，原定 \d{4}-\d\d-\d\d \d\d:\d\d）：stretch$/)
    await clock.tickAsync(10 * MIN)
    await run.rt.need('reminders').idle()
    expect(fired(host!, '20002')).to.have.length(1)
  })
})
