// The configuration shared by two copies of the plugin (their own data folders, so their own config.yaml)
// on one PostgreSQL (lib/config/README.md, "Shared configuration"): the first copies its shared part up,
// the second follows it and warns that its own shared keys were ignored; a change saved on either applies
// on the other as a local edit would, the local sections (web, storage) stay each one's own; a channel
// added on one answers on the other, its key masked in the API and absent from logs, as is the database
// password. The time to apply is measured and printed; the waits are for the state (up to 10 s, as in the
// other two-instance tests: a loaded machine is no speed figure).
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import pg from 'pg'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { postgresOrSkip } from '../support/postgres.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { whenRemote, withDatabase } from '../support/shared-instances.js'

/** Resolves with the ms from now to the first `config` event of `s` naming a path that `match` accepts. */
function configApplied (s: TestServer, match: (path: string) => boolean, ms?: number): Promise<number> {
  return whenRemote((l: (paths: string[]) => void) => s.lx.rt.bus.on('config', l), (paths) => paths.some(match), ms)
}

async function logText (s: TestServer): Promise<string> {
  await s.lx.rt.log.flush()
  const dir = join(s.dataDir, 'logs')
  return readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')).join('\n')
}

function dataDirWith (configYaml: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'lingxi-test-'))
  writeFileSync(join(dir, 'config.yaml'), configYaml, { mode: 0o600 })
  return dir
}

const ONE_YAML = `# the owner's note about the bot
memory:
  # fewer memories in a prompt
  maxMemoriesInPrompt: 7
web:
  publicUrl: http://one.example
storage:
  instanceName: one
`
/** The server trusts 127.0.0.1, so a password in the address is never checked: it only has to stay out of sight. */
const DB_PASSWORD = 'pw-never-shown-4242'

const TWO_YAML = `memory:
  maxMemoriesInPrompt: 3
web:
  publicUrl: http://two.example
storage:
  instanceName: two
`

describe('storage: the configuration shared by two plugin instances on one PostgreSQL', function () {
  this.timeout(60_000)
  let url = ''
  let fake: FakeOpenAI | undefined
  let one: TestServer | undefined
  let two: TestServer | undefined
  const figures: number[] = []
  before(async function () {
    url = await postgresOrSkip(this)
    fake = await startFakeOpenAI()
    const withPassword = new URL(url)
    withPassword.password = DB_PASSWORD
    ;[one, two] = await withDatabase(withPassword.href, async () => [
      await startTestServer({ dataDir: dataDirWith(ONE_YAML) }),
      await startTestServer({ dataDir: dataDirWith(TWO_YAML) })
    ])
  })
  after(async () => {
    await one?.close()
    await two?.close()
    await fake?.close()
    if (figures.length) console.log(`      config applied on the other instance after ${figures.map((f) => `${f.toFixed(0)} ms`).join(', ')} (PUT included)`)
  })

  const sharedYaml = async (): Promise<string> => {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      const r = await client.query<{ value: { yaml: string } }>("select value from lx_records where store = 'config' and key = 'shared'")
      return r.rows[0]?.value.yaml ?? ''
    } finally { await client.end() }
  }

  it('the first instance copies its shared part up (comments kept); the second follows it and names its ignored keys', async () => {
    const text = await sharedYaml()
    expect(text).to.include("# the owner's note about the bot").and.include('# fewer memories in a prompt').and.include('maxMemoriesInPrompt: 7')
    expect(text, 'the local sections stay out of the shared record').to.not.match(/publicUrl|instanceName|^web:|^storage:/m)
    expect(two!.lx.rt.config.get().memory.maxMemoriesInPrompt, 'the shared record wins').to.equal(7)
    expect(two!.lx.rt.config.get().web.publicUrl).to.equal('http://two.example')
    expect(two!.lx.rt.config.get().storage.instanceName).to.equal('two')
    expect(one!.lx.rt.config.get().web.publicUrl).to.equal('http://one.example')
    const log = await logText(two!)
    expect(log).to.match(/shared keys memory were ignored/)
    expect(await logText(one!)).to.match(/was empty: config\.yaml's shared part was copied into it/)
  })

  it('a change saved on one applies on two (time printed); the local keys of two stay its own', async () => {
    const twoFile = readFileSync(join(two!.dataDir, 'config.yaml'), 'utf8')
    const applied = configApplied(two!, (p) => p === 'memory.maxMemoriesInPrompt')
    const r = await one!.api('/api/config', { method: 'PUT', json: { memory: { maxMemoriesInPrompt: 12 }, web: { publicUrl: 'http://one-new.example' } } })
    expect(r.status, r.text).to.equal(200)
    const ms = await applied
    figures.push(ms)
    expect(two!.lx.rt.config.get().memory.maxMemoriesInPrompt).to.equal(12)
    expect(two!.lx.rt.config.get().web.publicUrl, 'a local key of one is not shared').to.equal('http://two.example')
    expect(one!.lx.rt.config.get().web.publicUrl).to.equal('http://one-new.example')
    expect(readFileSync(join(one!.dataDir, 'config.yaml'), 'utf8')).to.include('http://one-new.example')
    expect(readFileSync(join(two!.dataDir, 'config.yaml'), 'utf8'), 'two\'s file is untouched').to.equal(twoFile)
    const text = await sharedYaml()
    expect(text).to.include('maxMemoriesInPrompt: 12').and.include('# fewer memories in a prompt').and.not.include('one-new')

    // and back: a section saved on two (the dashboard's form) applies on one
    const back = configApplied(one!, (p) => p === 'memory.maxMemoriesInPrompt')
    const put = await two!.api('/api/config/memory', { method: 'PUT', json: { maxMemoriesInPrompt: 5 } })
    expect(put.status, put.text).to.equal(200)
    figures.push(await back)
    expect(one!.lx.rt.config.get().memory.maxMemoriesInPrompt).to.equal(5)
    expect(one!.lx.rt.config.get().web.publicUrl).to.equal('http://one-new.example')
  })

  it('a channel added on one answers on two; its key is masked in GET /api/config and never logged', async () => {
    const applied = configApplied(two!, (p) => p.startsWith('channels'))
    const r = await one!.api('/api/config/channels', { method: 'POST', json: { name: 'shared-ch', type: 'openai', baseUrl: fake!.url, apiKey: 'sk-shared-secret-9876', model: 'gpt-4o-mini' } })
    expect(r.status, r.text).to.equal(200)
    figures.push(await applied)
    fake!.requests.length = 0
    const test = await two!.api('/api/config/channels/shared-ch/test', { method: 'POST' })
    expect(test.status, test.text).to.equal(200)
    expect(test.body.data.model).to.equal('gpt-4o-mini')
    const sent = fake!.requests.filter((q) => q.path.endsWith('/chat/completions'))
    expect(sent, 'two called the model through the channel made on one').to.have.length.above(0)
    expect(sent[0]?.headers.authorization).to.equal('Bearer sk-shared-secret-9876')
    const cfg = await two!.api('/api/config')
    expect(cfg.status).to.equal(200)
    expect(cfg.text).to.include('shared-ch').and.not.include('shared-secret')
    expect((await two!.api('/api/config/channels/shared-ch')).body.data.apiKey).to.equal('sk-****9876')
    for (const s of [one!, two!]) expect(await logText(s)).to.not.include('sk-shared-secret-9876').and.not.include(DB_PASSWORD)
    expect(await sharedYaml()).to.include('sk-shared-secret-9876').and.not.include(DB_PASSWORD)
  })

  it('a value another instance cannot apply is refused there and its running configuration kept', async () => {
    // written straight into the record, as a newer or broken instance might
    const refused = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => { off(); reject(new Error('no refusal logged within 10 s')) }, 10_000)
      const off = two!.lx.rt.bus.on('log', (e) => {
        if (!e.message.startsWith('The shared configuration has invalid values')) return
        clearTimeout(timer)
        off()
        resolve(e.message)
      })
    })
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      await client.query("update lx_records set value = jsonb_set(value, '{yaml}', to_jsonb('memory:\n  maxMemoriesInPrompt: 9999\n'::text)) where store = 'config' and key = 'shared'")
      await client.query("select pg_notify('lx_changes', 'other-instance' || chr(9) || 'config' || chr(9) || 'k' || chr(9) || 'shared')")
    } finally { await client.end() }
    expect(await refused).to.match(/^The shared configuration has invalid values \(memory\.maxMemoriesInPrompt/)
    expect(two!.lx.rt.config.get().memory.maxMemoriesInPrompt).to.equal(5)
    expect(two!.lx.rt.config.get().channels.map((c) => c.name)).to.include('shared-ch')
  })
})
