// Openers after silence across a restart of the whole plugin on the same data folder (standalone host,
// fake clock): the state (last try, day count, unanswered streak) is read back, so a restart neither opens
// again at once nor forgets a stopped group.
import { expect } from 'chai'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sinon from 'sinon'
import { createHost, type Host } from '../../standalone/host.js'
import type { Running } from '../../lib/lifecycle.js'
import { CHECK_MS } from '../../lib/initiative/service.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { MASTER, PLUGIN_ROOT, stopHost } from '../support/plugin-host.js'

const at = (day: number, hour: number, minute = 0): number => Date.UTC(2027, 1, day, hour - 8, minute)

describe('openers after silence across a restart (standalone host, fake clock)', function () {
  this.timeout(120_000)
  let fake: FakeOpenAI
  let dataDir: string
  let host: Host | undefined
  let run: Running
  let clock: sinon.SinonFakeTimers
  const sent: string[] = []

  async function start (): Promise<void> {
    host = createHost({ profile: 'trss', pluginDir: PLUGIN_ROOT, masters: [MASTER], cooldowns: false, env: { LINGXI_DATA_DIR: dataDir, LINGXI_PORT: '0' } })
    await host.start()
    host.onSend((e) => { if (e.target === 'group') sent.push(e.text) })
    run = await (host.module as { lingxi: { start(): Promise<Running> } }).lingxi.start()
    await run.rt.config.update({
      channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk', model: 'gpt-test' }],
      reminders: { timezone: 'Asia/Shanghai' },
      initiative: { enabled: true, quietHours: 1, hours: '09:00-22:00', dailyCap: 5, cooldownHours: 6, answerWindowMinutes: 30 }
    })
  }
  async function stop (): Promise<void> {
    const h = host
    host = undefined
    await stopHost(h)
  }
  const advanceTo = async (until: number): Promise<void> => {
    while (Date.now() + CHECK_MS <= until) {
      await clock.tickAsync(CHECK_MS)
      await run.rt.need('initiative').idle()
    }
  }

  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    fake.respond = () => ({ content: '周末有人出去玩吗' })
  })
  after(async () => { await fake?.close() })
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'lingxi-initiative-restart-'))
    sent.length = 0
    clock = sinon.useFakeTimers({ now: at(1, 8), toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldClearNativeTimers: true })
  })
  afterEach(async () => {
    await stop()
    clock.restore()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('an opener, a restart: the cooldown holds (no opener at once), then it opens again', async () => {
    await start()
    await advanceTo(at(1, 9))
    await host!.sendGroup('900', '20001', '今天好热')
    await advanceTo(at(1, 10, 10))
    expect(sent, 'the first opener').to.deep.equal(['周末有人出去玩吗'])
    await host!.sendGroup('900', '20002', '是啊') // answered: not a stop
    await stop()
    await start()
    await advanceTo(at(1, 15, 55))
    expect(sent, 'quiet since 10:10, but the cooldown (6 h from ~10:00) was read back').to.have.length(1)
    expect(run.rt.need('initiative').get('900')).to.include({ dayCount: 1, unanswered: 0 })
    await advanceTo(at(1, 16, 10))
    expect(sent).to.have.length(2)
  })

  it('a group stopped after two unanswered openers stays stopped after a restart', async () => {
    await start()
    await run.rt.config.update({ initiative: { cooldownHours: 0 } })
    await host!.sendGroup('901', '20001', '有人吗')
    await advanceTo(at(1, 12))
    expect(sent).to.have.length(2)
    expect(run.rt.need('initiative').get('901')?.unanswered).to.equal(2)
    await stop()
    await start()
    await run.rt.config.update({ initiative: { cooldownHours: 0 } })
    // a member's message (not to the bot) after the restart: the group is quiet again an hour later
    await host!.sendGroup('901', '20002', '今天下雨了')
    await advanceTo(at(1, 21))
    expect(sent).to.have.length(2)
  })
})
