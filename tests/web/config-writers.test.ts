// The typed configuration writes: a domain changes its own section through writer(section) (checked by
// the compiler and by the schema), update() takes a typed deep partial of the whole configuration, and
// applyInput() is the generic routes' untyped path. Also the one reader of the files (readConfigFiles)
// that the bot commands use before the runtime starts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import { ConfigService, readConfigFiles } from '../../lib/config/service.js'
import { AppError } from '../../lib/core/errors.js'
import { EventBus } from '../../lib/core/event-bus.js'

const DEFAULTS = join(process.cwd(), 'config', 'default.yaml')

describe('config: typed section writers', () => {
  let dir: string
  let userFile: string
  let bus: EventBus
  let cfg: ConfigService
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lx-cfgw-'))
    userFile = join(dir, 'config.yaml')
    bus = new EventBus()
    cfg = new ConfigService({ defaultFile: DEFAULTS, userFile, bus })
  })
  afterEach(() => { rmSync(dir, { recursive: true, force: true }) })

  it('writer(section) changes only its section, writes the file and publishes the dotted paths', async () => {
    const seen: string[][] = []
    bus.on('config', (paths) => { seen.push(paths) })
    const memory = cfg.writer('memory')
    const { updated } = await memory.update({ maxMemoriesInPrompt: 4 })
    expect(updated).to.deep.equal(['memory.maxMemoriesInPrompt'])
    expect(memory.get().maxMemoriesInPrompt).to.equal(4)
    expect(cfg.get().memory.maxMemoriesInPrompt).to.equal(4)
    expect(seen).to.deep.equal([['memory.maxMemoriesInPrompt']])
    expect(readFileSync(userFile, 'utf8')).to.match(/memory:\s*\n\s+maxMemoriesInPrompt: 4/)
    // null removes the override: the default applies again
    await memory.update({ maxMemoriesInPrompt: null })
    expect(cfg.get().memory.maxMemoriesInPrompt).to.equal(readConfigFiles({ defaultFile: DEFAULTS, userFile: join(dir, 'none.yaml') }).memory.maxMemoriesInPrompt)
  })

  it('list and record sections: a list is replaced whole, a record key removed with null', async () => {
    await cfg.writer('channels').update([{ name: 'c1', baseUrl: 'http://127.0.0.1:9/v1' }])
    expect(cfg.get().channels.map((c) => [c.name, c.enabled])).to.deep.equal([['c1', true]]) // defaults filled
    await cfg.writer('mcp').update({ servers: { s1: { command: 'node', args: ['x.js'] } } })
    expect(Object.keys(cfg.get().mcp.servers)).to.deep.equal(['s1'])
    await cfg.writer('mcp').update({ servers: { s1: null } })
    expect(Object.keys(cfg.get().mcp.servers)).to.deep.equal([])
  })

  it('the schema still judges every write: a bad value is INVALID_CONFIG and nothing changes', async () => {
    const before = cfg.get().memory.pollIntervalMinutes
    const err = await cfg.writer('memory').update({ pollIntervalMinutes: -1 }).catch((e: unknown) => e)
    expect(err).to.be.instanceOf(AppError)
    expect((err as AppError).code).to.equal('INVALID_CONFIG')
    expect(cfg.get().memory.pollIntervalMinutes).to.equal(before)
  })

  it('the compiler refuses a write outside the section or of the wrong type', async () => {
    // These lines are type errors (npm run typecheck fails if any of them compiles); at run time the
    // schema refuses them too.
    // @ts-expect-error a key of another section
    const a = cfg.writer('memory').update({ defaultId: 'x' }).catch((e: unknown) => e)
    // @ts-expect-error a wrong type
    const b = cfg.update({ memory: { enabled: 'yes' } }).catch((e: unknown) => e)
    // @ts-expect-error no such section
    const c = cfg.update({ nosuch: {} }).catch((e: unknown) => e)
    for (const e of await Promise.all([a, b, c])) expect((e as AppError).code).to.equal('INVALID_CONFIG')
  })

  it('applyInput takes untyped client input with the same checks', async () => {
    const body: unknown = JSON.parse('{"memory":{"maxMemoriesInPrompt":7}}')
    expect((await cfg.applyInput(body)).updated).to.deep.equal(['memory.maxMemoriesInPrompt'])
    for (const bad of [null, [], 'x', JSON.parse('{"__proto__":{"a":1}}')]) {
      const err = await cfg.applyInput(bad).catch((e: unknown) => e)
      expect((err as AppError).code, JSON.stringify(bad)).to.equal('INVALID_CONFIG')
    }
  })

  it('readConfigFiles reads defaults and the user file through the same schema (a broken file: defaults)', () => {
    writeFileSync(userFile, 'commandPrefix: "#ab"\n')
    expect(readConfigFiles({ defaultFile: DEFAULTS, userFile }).commandPrefix).to.equal('#ab')
    writeFileSync(userFile, 'commandPrefix: [oops\n')
    expect(readConfigFiles({ defaultFile: DEFAULTS, userFile }).commandPrefix).to.equal('#lx')
  })
})
