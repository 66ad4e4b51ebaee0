// Secrets echoed by upstream servers are never kept or shown (README, security model): a model relay
// that echoes the Authorization header in its errors, a custom HTTP tool whose endpoint echoes its
// headers and an MCP server that prints its env secret to stderr and into tool errors are driven
// through real HTTP; then every place that keeps or shows text is read and searched for the secrets.
import { expect } from 'chai'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { PluginLogger } from '../../lib/core/logger.js'
import { EventBus } from '../../lib/core/event-bus.js'
import { AppError, errorText } from '../../lib/core/errors.js'
import { configSecrets, Redactor, redact, redactDeep, registerRedactor } from '../../lib/core/redact.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { sseClient, type SseFrame } from '../support/sse.js'

const KEY_MAIN = 'sk-echo-main-key-1234567890abcdef'
const KEY_EXTRA = 'sk-echo-extra-key-ZYXWVUT98765'
const TOOL_HEADER = 'custom-tool-header-secret-42abc'
const MCP_SECRET = 'mcp-env-secret-value-77QQ99'
const IMAGE_KEY = 'img-api-key-secret-5566778899'

const require = createRequire(import.meta.url)
/** The SDK's ESM entry points (the MCP server script lives outside the project's node_modules). */
const sdk = (sub: string): string => pathToFileURL(require.resolve(`@modelcontextprotocol/sdk/${sub}`).replace(/[\\/]dist[\\/]cjs[\\/]/, '/dist/esm/')).href

/** A stdio MCP server that prints its SECRET_X to stderr, throws it from a tool and returns it as an error result. */
function leakyServerScript (): string {
  return `import { McpServer } from '${sdk('server/mcp.js')}'
import { StdioServerTransport } from '${sdk('server/stdio.js')}'
const secret = process.env.SECRET_X
process.stderr.write('starting with SECRET_X=' + secret + '\\n')
const server = new McpServer({ name: 'leaky', version: '1.0.0' })
server.registerTool('leak', { description: 'throws an error holding the secret' }, async () => {
  process.stderr.write('leak called, secret ' + secret + '\\n')
  throw new Error('upstream refused token ' + secret)
})
server.registerTool('leak_result', { description: 'returns the secret in an error result' }, async () => ({ content: [{ type: 'text', text: 'token=' + secret }], isError: true }))
await server.connect(new StdioServerTransport())
`
}

/** A stdio MCP server that prints its secret and dies before the handshake. */
const deadServerScript = "process.stderr.write('fatal: cannot start with SECRET_X=' + process.env.SECRET_X + '\\n'); process.exit(3)\n"

describe('redaction of stored secrets echoed by upstreams', function () {
  this.timeout(60_000)
  let s: TestServer
  let fake: FakeOpenAI
  let dir: string
  let stream: ReturnType<typeof sseClient> | undefined
  let skillsStream: ReturnType<typeof sseClient> | undefined
  const frames: SseFrame[] = []
  const skillsFrames: SseFrame[] = []
  const answers: string[] = []
  const SECRETS = [KEY_MAIN, KEY_EXTRA, TOOL_HEADER, MCP_SECRET, IMAGE_KEY]
  /** A secret as an upstream may echo it: raw, URL-encoded, base64. */
  const forms = (secret: string): Array<[string, string]> => [['raw', secret], ['url-encoded', encodeURIComponent(secret)], ['base64', Buffer.from(secret).toString('base64').replace(/=+$/, '')]]
  const leaksIn = (where: string, text: string): string[] => SECRETS.flatMap((k) => forms(k).filter(([, f]) => text.includes(f)).map(([form]) => `${where} holds ${k.slice(0, 10)}… (${form})`))

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lingxi-redact-'))
    writeFileSync(join(dir, 'leaky.mjs'), leakyServerScript())
    writeFileSync(join(dir, 'dead.mjs'), deadServerScript)
    fake = await startFakeOpenAI({ models: ['gpt-4o-mini'] })
    fake.echoErrors = true
    s = await startTestServer()
    // the test servers are on 127.0.0.1, which the outbound fetcher refuses unless the master names it
    await s.lx.rt.config.update({ web: { allowPrivateHosts: ['127.0.0.1'] } })
    stream = sseClient(`${s.base}/api/system/events`, { headers: { Authorization: `Bearer ${s.token}` } })
    void (async () => { for await (const f of stream.frames) frames.push(f) })().catch(() => undefined)
    await stream.response
    // the MCP events (server-error with the connection error) go to the skills stream
    skillsStream = sseClient(`${s.base}/api/skills/sse`, { headers: { Authorization: `Bearer ${s.token}` } })
    void (async () => { for await (const f of skillsStream.frames) skillsFrames.push(f) })().catch(() => undefined)
    await skillsStream.response
  })
  after(async () => {
    stream?.close()
    skillsStream?.close()
    await s?.close()
    await fake?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('stores the secrets (the image API key too)', async () => {
    const ch = await s.api('/api/config/channels', { method: 'POST', json: { name: 'echo', baseUrl: fake.url, apiKey: KEY_MAIN, apiKeys: [{ name: 'extra', key: KEY_EXTRA }], model: 'gpt-4o-mini' } })
    expect(ch.status, ch.text).to.equal(200)
    const img = await s.api('/api/config/image', { method: 'PUT', json: { apis: [{ name: 'img', baseUrl: fake.url, apiKey: IMAGE_KEY, models: ['dall-e-3'] }] } })
    expect(img.status, img.text).to.equal(200)
    const known = s.lx.rt.redactor.known()
    for (const k of [KEY_MAIN, KEY_EXTRA, IMAGE_KEY]) expect(known).to.include(k)
  })

  it('masks the key in the channel test, model list, batch test, quick test and a failing chat', async () => {
    const test = await s.api('/api/config/channels/echo/test', { method: 'POST', json: {} })
    expect(test.status).to.be.within(400, 599)
    answers.push(test.text)
    // the relay did echo: the answer carries the mask where the key was
    expect(test.text).to.match(/received Authorization/).and.to.include('****')

    const models = await s.api('/api/config/channels/echo/models')
    expect(models.status).to.be.within(400, 599)
    expect(models.text).to.match(/received Authorization/)
    answers.push(models.text)

    const batch = await s.api('/api/test-panel/batch-test', { method: 'POST', json: { channelId: 'echo', models: ['gpt-4o-mini'], concurrency: 1 } })
    expect(batch.text).to.include('event: complete').and.to.match(/received Authorization/)
    answers.push(batch.text)

    const quick = await s.api('/api/test-panel/quick-test', { method: 'POST', json: { channelId: 'echo', model: 'gpt-4o-mini' } })
    expect(quick.text).to.include('event: error').and.to.match(/received Authorization/)
    answers.push(quick.text)

    const chat = await s.api('/api/chat', { method: 'POST', json: { message: 'hello' } })
    expect(chat.status).to.be.within(400, 599)
    answers.push(chat.text)
    const chatStream = await s.api('/api/chat/stream', { method: 'POST', json: { message: 'hello again' } })
    answers.push(chatStream.text)

    // an image API entry of the drawing config (drawing runs from a bot command: called in-process)
    const image = await s.lx.rt.need('channels').gateway.generateImages({ prompt: 'a cat', model: 'dall-e-3', api: { name: 'image-api-img', baseUrl: fake.url, apiKey: IMAGE_KEY } }).then(() => 'no error', (err: unknown) => errorText(err))
    expect(image).to.match(/received Authorization/)
    answers.push(image)
    expect(fake.requests.some((r) => r.headers.authorization === `Bearer ${IMAGE_KEY}`)).to.equal(true)

    // the keys really were sent (and so echoed)
    const sent = fake.requests.map((r) => String(r.headers.authorization ?? ''))
    expect(sent).to.include(`Bearer ${KEY_MAIN}`)
    expect(sent).to.include(`Bearer ${KEY_EXTRA}`)
    expect(answers.flatMap((a, i) => leaksIn(`answer ${i}`, a))).to.deep.equal([])
  })

  it('masks a custom tool header echoed by its endpoint (answer and tool log)', async () => {
    const created = await s.api('/api/tools/custom', { method: 'POST', json: { name: 'echo_tool', description: 'calls an echoing endpoint', action: { type: 'http', method: 'GET', url: `${fake.url}/echo`, headers: { 'X-Api-Key': TOOL_HEADER } } } })
    expect(created.status, created.text).to.be.oneOf([200, 201])
    const call = await s.api('/api/tools/call', { method: 'POST', json: { name: 'echo_tool', args: {} } })
    answers.push(call.text)
    expect(call.text).to.include('x-api-key')
    expect(leaksIn('custom tool answer', call.text)).to.deep.equal([])
    expect(fake.requests.some((r) => r.headers['x-api-key'] === TOOL_HEADER)).to.equal(true)
  })

  it('masks an MCP env secret printed to stderr, thrown by a tool or returned in an error result', async () => {
    const add = await s.api('/api/mcp/servers', { method: 'POST', json: { name: 'leaky', config: { type: 'stdio', command: process.execPath, args: [join(dir, 'leaky.mjs')], env: { SECRET_X: MCP_SECRET } } } })
    answers.push(add.text)
    expect(add.status, add.text).to.be.oneOf([200, 201])
    expect(s.lx.rt.redactor.known()).to.include(MCP_SECRET)
    const thrown = await s.api('/api/tools/call', { method: 'POST', json: { name: 'mcp:leaky:leak', args: {} } })
    answers.push(thrown.text)
    expect(thrown.text).to.include('upstream refused token')
    const result = await s.api('/api/tools/call', { method: 'POST', json: { name: 'mcp:leaky:leak_result', args: {} } })
    answers.push(result.text)
    expect(result.text).to.include('token=')
    const tested = await s.api('/api/tools/test', { method: 'POST', json: { toolName: 'mcp:leaky:leak_result', arguments: {} } })
    answers.push(tested.text) // (whether the admin test may run MCP tools is the approval rule's business)

    const dead = await s.api('/api/mcp/servers', { method: 'POST', json: { name: 'dead', config: { type: 'stdio', command: process.execPath, args: [join(dir, 'dead.mjs')], env: { SECRET_X: MCP_SECRET } } } })
    answers.push(dead.text, (await s.api('/api/mcp/servers')).text, (await s.api('/api/mcp/servers/dead')).text)
    expect(answers.flatMap((a, i) => leaksIn(`MCP answer ${i}`, a))).to.deep.equal([])
  })

  it('keeps the secrets out of lastError, logs, error logs, recent lines, log files, tool logs, stats and the event stream', async () => {
    await s.lx.rt.log.flush()
    // the conversation file and every other file the plugin wrote
    // (custom-tools.json is where the tool's header is stored: the one file allowed to hold it)
    const dataFiles = readdirSync(s.dataDir).filter((f) => f.endsWith('.json') && f !== 'custom-tools.json')
    const places: Record<string, string> = {}
    const channels = await s.api('/api/config/channels')
    const echo = (channels.body.data as Array<{ name: string; lastError: string }>).find((c) => c.name === 'echo')
    expect(echo?.lastError, 'the channel failed').to.match(/received Authorization/)
    places.channels = channels.text
    places.logs = (await s.api('/api/logs?limit=2000')).text
    places.debugLogs = (await s.api('/api/logs?limit=2000&level=debug')).text
    places.errors = (await s.api('/api/logs/errors?limit=500')).text
    places.recent = (await s.api('/api/logs/recent?lines=5000')).text
    places.toolLogs = (await s.api('/api/logs/tools?limit=1000')).text
    places.toolLogsB = (await s.api('/api/tools/logs?limit=1000')).text
    places.statsRoute = (await s.api('/api/stats/channels')).text
    // the stats entries hold the error text (not shown by a route): read them and their file
    await s.lx.rt.stats.flush()
    places.stats = JSON.stringify(s.lx.rt.stats.channels()) + readFileSync(join(s.dataDir, 'stats.json'), 'utf8')
    const logsDir = s.lx.rt.paths.logsDir
    places.files = readdirSync(logsDir).map((f) => readFileSync(join(logsDir, f), 'utf8')).join('\n')
    places.events = frames.map((f) => `${f.event} ${f.data}`).join('\n')
    places.skillsEvents = skillsFrames.map((f) => `${f.event} ${f.data}`).join('\n')
    places.conversations = (await s.api('/api/conversations')).text
    places.dataFiles = dataFiles.map((f) => readFileSync(join(s.dataDir, f), 'utf8')).join('\n')

    // every place was really exercised: the echoed texts reached it, masked
    expect(places.logs).to.match(/received Authorization/)
    expect(places.errors).to.match(/received Authorization/)
    expect(places.recent).to.match(/received Authorization/)
    expect(places.files).to.match(/received Authorization/).and.to.include('leak called, secret')
    expect(places.toolLogs).to.include('upstream refused token').and.to.include('token=').and.to.include('x-api-key')
    expect(places.stats).to.match(/received Authorization/)
    expect(places.events).to.match(/received Authorization/)
    expect(places.debugLogs).to.include('starting with SECRET_X=')
    expect(places.skillsEvents).to.include('server-error').and.to.include('cannot start with SECRET_X=')

    const leaks = Object.entries(places).flatMap(([where, text]) => leaksIn(where, text))
    expect(leaks).to.deep.equal([])
  })

  it('masks the key in an answer that echoes it (the reply and the stored conversation)', async () => {
    fake.enqueue({ content: `you sent the key ${KEY_MAIN} and ${KEY_EXTRA}` })
    const chat = await s.api('/api/chat', { method: 'POST', json: { message: 'what key did I send?', userId: 'echo-user' } })
    expect(chat.status, chat.text).to.equal(200)
    expect(chat.text).to.include('you sent the key')
    answers.push(chat.text)
    const convs = await s.api('/api/conversations')
    answers.push(convs.text)
    const stored = readdirSync(s.dataDir).filter((f) => f.startsWith('conversations')).map((f) => readFileSync(join(s.dataDir, f), 'utf8')).join('\n')
    expect(stored).to.include('you sent the key')
    answers.push(stored)
    expect(answers.flatMap((a, i) => leaksIn(`answer ${i}`, a))).to.deep.equal([])
  })
})

describe('Redactor', function () {
  let r: Redactor
  let unregister: () => void
  beforeEach(() => { r = new Redactor(); unregister = registerRedactor(r) })
  afterEach(() => unregister())

  it('masks raw, URL-encoded, JSON-escaped, base64 and Basic forms, longest secret first', () => {
    r.set('t', ['sk-abcdefghijklmnop/qrst', 'p@ss"word!', 'abcdefghij'])
    expect(r.redact('key sk-abcdefghijklmnop/qrst end')).to.equal('key sk-****qrst end')
    expect(r.redact(`url ${encodeURIComponent('sk-abcdefghijklmnop/qrst')}`)).to.equal('url sk-****qrst')
    expect(r.redact(JSON.stringify({ p: 'p@ss"word!' }))).to.equal('{"p":"[redacted]"}')
    expect(r.redact(Buffer.from('sk-abcdefghijklmnop/qrst').toString('base64'))).to.not.include(Buffer.from('sk-abcdefghijklmnop/qrst').toString('base64').slice(0, 20))
    expect(r.redact(`Authorization: Basic ${Buffer.from('user:p@ss"word!').toString('base64')}`)).to.equal('Authorization: Basic [redacted]')
    expect(r.redact('xxabcdefghijxx')).to.equal('xx[redacted]xx')
  })

  it('ignores short values, masked values and keeps text without secrets as it is', () => {
    r.set('t', ['abc12', 'sk-****abcd', '', 'Bearer tok-123456789', '127.0.0.1', 'Bearer {{apiKey}}', 'production', '8080'])
    expect(r.known()).to.deep.equal(['Bearer tok-123456789', 'tok-123456789'])
    expect(r.redact('abc12 sk-****abcd')).to.equal('abc12 sk-****abcd')
    expect(r.redact('token tok-123456789')).to.equal('token [redacted]')
    const plain = { a: 'x', b: [1, 'y'] }
    expect(redactDeep(plain)).to.equal(plain)
  })

  it('is applied by errorText, AppError, redactDeep (copy), the logger and the bus', async () => {
    r.set('t', ['secret-val-1234'])
    expect(errorText(new Error('no: secret-val-1234'))).to.equal('no: [redacted]')
    expect(new AppError('MODEL_ERROR', 'x secret-val-1234').message).to.equal('x [redacted]')
    const obj = { deep: { list: ['secret-val-1234'] }, n: 1 }
    expect(redactDeep(obj)).to.deep.equal({ deep: { list: ['[redacted]'] }, n: 1 })
    expect(obj.deep.list[0]).to.equal('secret-val-1234')
    const bus = new EventBus()
    const seen: unknown[] = []
    bus.on('system', (_n, d) => seen.push(d))
    bus.on('log', (e) => seen.push(e.message))
    bus.emit('system', 'error', { error: 'secret-val-1234' })
    const dir = mkdtempSync(join(tmpdir(), 'lingxi-redact-log-'))
    try {
      const quiet = { error () {}, warn () {}, info () {}, debug () {}, mark () {} }
      const log = new PluginLogger({ host: () => quiet as never, bus, logsDir: dir })
      log.error('failed secret-val-1234', { k: 'secret-val-1234' }, new Error('boom secret-val-1234'))
      await log.flush()
      expect(JSON.stringify(seen)).to.not.include('secret-val-1234')
      expect(JSON.stringify(log.query())).to.not.include('secret-val-1234')
      expect(JSON.stringify(log.errors())).to.not.include('secret-val-1234')
      const file = readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')).join('')
      expect(file).to.include('failed [redacted]').and.not.include('secret-val-1234')
    } finally { rmSync(dir, { recursive: true, force: true }) }
  })

  it('collects config secrets by the masking rule, without harmless header names', () => {
    const found = configSecrets({ channels: [{ apiKey: 'sk-config-123456', apiKeys: [{ key: 'sk-second-123456' }] }], mcp: { servers: { a: { env: { TOKEN: 'env-token-123', NODE_ENV: 'production' }, headers: { 'Content-Type': 'application/json', Authorization: 'Bearer hdr-123456' } } } }, other: { name: 'not-a-secret' } })
    expect(found).to.have.members(['sk-config-123456', 'sk-second-123456', 'env-token-123', 'Bearer hdr-123456'])
  })

  it('does nothing once unregistered', () => {
    r.set('t', ['secret-val-1234'])
    unregister()
    expect(redact('secret-val-1234')).to.equal('secret-val-1234')
  })
})
