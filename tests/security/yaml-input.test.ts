// YAML from clients (config import, preset import: raw body and upload) is parsed with limits
// (lib/config/yaml-file.ts parseClientYaml): an alias bomb ("billion laughs") answers 400 at once and the
// process stays healthy, a text past 512 KiB answers 413 (below web.bodyLimitKb), normal imports work.
import { expect } from 'chai'
import { startTestServer, type TestServer } from '../support/server.js'

/** Nine levels of nine aliases each: 9^9 (387 million) strings once expanded, 341 bytes of text. */
function aliasBomb (): string {
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
  let prev = 'a'
  for (const n of 'bcdefghi') {
    lines.push(`${n}: &${n} [${Array.from({ length: 9 }, () => `*${prev}`).join(',')}]`)
    prev = n
  }
  return `${lines.join('\n')}\n`
}

/** A valid-looking YAML mapping of about `kib` KiB. */
const bigYaml = (kib: number): string => `id: big-one\nname: Big\ndescription: "${'y'.repeat(kib * 1024)}"\n`

describe('security: YAML from clients', function () {
  this.timeout(30_000)
  let s: TestServer
  before(async () => { s = await startTestServer() })
  after(async () => { await s.close() })

  const configImport = (body: string) => s.api('/api/config/import', { method: 'POST', body, headers: { 'Content-Type': 'text/yaml' } })
  const presetRaw = (body: string) => s.api('/api/presets/import', { method: 'POST', body, headers: { 'Content-Type': 'application/x-yaml' } })
  const presetUpload = (yaml: string) => {
    const form = new FormData()
    form.append('file', new Blob([yaml], { type: 'application/x-yaml' }), 'preset.yaml')
    return s.api('/api/presets/import', { method: 'POST', body: form })
  }

  it('an alias bomb is a 400 PARSE_ERROR at once, everywhere, and the server stays healthy', async () => {
    const bomb = aliasBomb()
    for (const [what, send] of [['config import', configImport], ['preset raw import', presetRaw], ['preset upload', presetUpload]] as const) {
      const started = Date.now()
      const r = await send(bomb)
      expect(r.status, `${what}: ${r.text}`).to.equal(400)
      expect(r.body.code, what).to.equal('PARSE_ERROR')
      expect(r.body.message, what).to.match(/alias/i)
      expect(Date.now() - started, what).to.be.below(2_000)
    }
    // the bomb nested under a known section is refused the same way (not a validation pass over 9^9 strings)
    const nested = await configImport(`context:\n${aliasBomb().split('\n').map((l) => `  ${l}`).join('\n')}`)
    expect(nested.status).to.equal(400)
    expect(nested.body.code).to.equal('PARSE_ERROR')
    const health = await s.api('/api/system/health')
    expect(health.status).to.equal(200)
    expect(process.memoryUsage().heapUsed).to.be.below(1024 * 1024 * 1024)
  })

  it('a YAML text past 512 KiB answers 413 PAYLOAD_TOO_LARGE (below the body limit); nothing is stored', async () => {
    expect(s.lx.rt.config.get().web.bodyLimitKb * 1024).to.be.above(600 * 1024)
    const big = bigYaml(600)
    for (const [what, send] of [['config import', configImport], ['preset raw import', presetRaw], ['preset upload', presetUpload]] as const) {
      const r = await send(big)
      expect(r.status, `${what}: ${r.text}`).to.equal(413)
      expect(r.body.code, what).to.equal('PAYLOAD_TOO_LARGE')
      expect(r.body.message, what).to.match(/512 KiB/)
    }
    expect((await s.api('/api/presets/big-one')).status).to.equal(404)
  })

  it('syntax errors stay 400 PARSE_ERROR; normal imports still work', async () => {
    expect((await configImport('trigger: {a: 1\n')).body.code).to.equal('PARSE_ERROR')
    expect((await presetRaw('id: [unclosed\n')).body.code).to.equal('PARSE_ERROR')
    const ok = await configImport('context:\n  maxMessages: 11\n')
    expect(ok.status, ok.text).to.equal(200)
    expect(s.lx.rt.config.get().context.maxMessages).to.equal(11)
    // a few ordinary aliases are fine
    const aliased = await presetRaw('id: aliased-one\nname: &n Aliased\ndescription: *n\n')
    expect(aliased.status, aliased.text).to.equal(201)
    expect((await s.api('/api/presets/aliased-one')).body.data).to.include({ name: 'Aliased', description: 'Aliased' })
    const uploaded = await presetUpload('id: uploaded-one\nname: Uploaded\n')
    expect(uploaded.status, uploaded.text).to.equal(201)
  })
})
