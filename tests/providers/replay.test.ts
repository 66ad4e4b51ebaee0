// The replay fixture suite: per provider profile (tests/fixtures/providers), recorded-style wire
// transcripts (streamed and whole, tool loops, reasoning, errors) replayed by a fake model server and
// answered through the plugin's own chat pipeline; each checks the final answer, the stored history,
// the stats and the failover. The wire rules and their sources: /work/shared/notes/providers.md.
import { userText } from '../support/user-text.js'
import { expect } from 'chai'
import { channelSchema } from '../../lib/config/schema.js'
import type { ChatScope, ToolProvider } from '../../lib/chat/contracts.js'
import type { ModelRequest as StatsRecord } from '../../lib/stats/store.js'
import { FIXTURES } from '../fixtures/providers/index.js'
import type { ErrorCase, Exchange, Expect, ProviderFixture } from '../fixtures/providers/types.js'
import { data, DONE, plainAnswer, startReplayProvider, type ReplayProvider, type ReplayRequest } from '../support/replay-provider.js'
import { startTestServer, type TestServer } from '../support/server.js'

const BACKUP_ANSWER = 'backup answer'
/** reasoning markers that must never reach the user or the history */
const THINK_TAG = /<\/?think\b/i

/** What one turn through the pipeline left behind (snapshotted: the servers are reset per scenario). */
interface Outcome {
  name: string
  backupName: string
  response?: string
  error?: Error & { code?: string }
  deltas: string
  requests: ReplayRequest[]
  backupRequests: ReplayRequest[]
  records: StatsRecord[]
  history: Array<{ role: string; content: string }>
  toolRuns: Array<{ name: string; args: Record<string, unknown> }>
  status: string
}

describe('providers: replay of recorded wire transcripts per profile', function () {
  this.timeout(30_000)
  let s: TestServer
  let primary: ReplayProvider
  let backup: ReplayProvider
  const records: StatsRecord[] = []
  const toolRuns: Outcome['toolRuns'] = []
  let savedTools: ToolProvider | undefined
  /** false while the channel schema has no `profile` yet: channels are then configured without it */
  let profileAccepted = true
  let seq = 0

  const tools: ToolProvider = {
    definitionsFor: async () => [
      { name: 'get_weather', description: 'The weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
      { name: 'get_time', description: 'The current time', parameters: { type: 'object', properties: {} } }
    ],
    execute: async (name, args) => {
      toolRuns.push({ name, args })
      return { content: [{ type: 'text', text: name === 'get_time' ? '12:00' : `weather of ${String(args.city)}: fine` }], isError: false }
    }
  }

  before(async () => {
    ;[primary, backup] = await Promise.all([startReplayProvider(), startReplayProvider({ models: ['backup-model'] })])
    s = await startTestServer()
    const st = s.lx.rt.stats
    const record = st.recordModelRequest.bind(st)
    // every model request record as the gateway wrote it (the aggregates would hide `estimated`, `success`)
    st.recordModelRequest = (r) => { records.push({ ...r }); record(r) }
    savedTools = s.lx.rt.chat.tools
    s.lx.rt.chat.tools = tools
  })
  after(async () => {
    if (s) {
      delete (s.lx.rt.stats as Partial<typeof s.lx.rt.stats>).recordModelRequest
      s.lx.rt.chat.tools = savedTools
      await s.close()
    }
    await Promise.all([primary?.close(), backup?.close()])
  })

  /** Configures the channel under test (fresh name: no health or key cooldown carried over) and, optionally, a backup. */
  async function useChannels (fx: ProviderFixture | undefined, withBackup: boolean): Promise<{ name: string; backupName: string }> {
    seq++
    const name = `${fx?.profile ?? 'plain'}-${seq}`
    const backupName = `backup-${seq}`
    const main: Record<string, unknown> = { name, baseUrl: primary.url, apiKey: 'sk-replay', model: fx?.model ?? 'replay-model', models: [fx?.model ?? 'replay-model'], priority: 10 }
    const list: Array<Record<string, unknown>> = [fx && profileAccepted ? { ...main, profile: fx.profile } : main]
    if (withBackup) list.push({ name: backupName, baseUrl: backup.url, apiKey: 'sk-backup', model: 'backup-model', models: ['backup-model'], priority: 0, ...(fx && profileAccepted ? { profile: 'openai' } : {}) })
    try {
      await s.lx.rt.config.applyInput({ channels: list })
    } catch (err) {
      if (!profileAccepted || !fx) throw err
      // the schema does not know `profile` yet (the gateway rewrite adds it): the rest of the suite still runs
      profileAccepted = false
      await s.lx.rt.config.applyInput({ channels: list.map(({ profile: _p, ...c }) => c) })
    }
    return { name, backupName }
  }

  /** One user turn through rt.need('conversations').pipeline, the primary channel replaying `exchanges`. */
  async function scenario (fx: ProviderFixture | undefined, exchanges: Exchange[], opts: { streamed: boolean; tools?: boolean; backup?: boolean; input?: string; repeat?: boolean }): Promise<Outcome> {
    primary.reset()
    backup.reset()
    records.length = 0
    toolRuns.length = 0
    const conv = s.lx.rt.need('conversations')
    conv.pipeline.reset()
    const { name, backupName } = await useChannels(fx, Boolean(opts.backup))
    primary.play(...exchanges)
    // an error answer stays the same if asked again (a retry sees what a provider would send), not "exhausted"
    const lastEx = exchanges.at(-1)
    if (opts.repeat && lastEx) primary.fallback = () => lastEx
    backup.fallback = (body) => plainAnswer(BACKUP_ANSWER, body)
    const scope: ChatScope = { userId: `rp-${seq}`, isMaster: false, via: 'api', conversationId: `private:rp-${seq}` }
    let deltas = ''
    const out: Outcome = { name, backupName, deltas: '', requests: [], backupRequests: [], records: [], history: [], toolRuns: [], status: '' }
    try {
      const r = await conv.pipeline.reply(scope, opts.input ?? 'hello', { toolsEnabled: Boolean(opts.tools), ...(opts.streamed ? { onDelta: (t: string) => { deltas += t } } : {}) })
      out.response = r.response
    } catch (err) {
      out.error = err as Outcome['error']
    }
    const svc = s.lx.rt.need('channels').service
    return {
      ...out,
      deltas,
      requests: [...primary.chatRequests()],
      backupRequests: [...backup.chatRequests()],
      records: records.filter((r) => r.source === 'chat'),
      history: conv.store.history(scope.conversationId).map((m) => ({ role: m.role, content: m.content })),
      toolRuns: [...toolRuns],
      status: svc.status(svc.get(name))
    }
  }

  const answered = (o: Outcome): string => {
    expect(o.error, `the turn failed: ${o.error?.message ?? ''}`).to.equal(undefined)
    return o.response ?? ''
  }
  const ofChannel = (o: Outcome, name = o.name): StatsRecord[] => o.records.filter((r) => r.channelName === name)

  /** The checks every successful transcript shares: answer, deltas, history, stats. */
  function answerChecks (get: () => Outcome, exp: () => Expect, streamed: boolean): void {
    it('answers the fixture\'s text, without reasoning or <think>', () => {
      const o = get()
      const text = answered(o)
      expect(text).to.equal(exp().answer)
      expect(text).to.not.match(THINK_TAG)
      if (exp().reasoning) expect(text).to.not.include(exp().reasoning)
    })
    if (streamed) {
      it('streams answer text only (no reasoning, no <think>) to onDelta', () => {
        const o = get()
        answered(o)
        expect(o.deltas).to.not.match(THINK_TAG)
        if (exp().reasoning) expect(o.deltas).to.not.include(exp().reasoning)
        expect(o.deltas.trim()).to.equal(exp().answer)
      })
    }
    it('stores the user message and the answer only', () => {
      const o = get()
      answered(o)
      expect(o.history.map((m) => m.content)).to.deep.equal(['hello', exp().answer])
      for (const m of o.history) {
        expect(m.content).to.not.match(THINK_TAG)
        if (exp().reasoning) expect(m.content).to.not.include(exp().reasoning)
      }
    })
    it('records the provider\'s usage in the stats', () => {
      const o = get()
      answered(o)
      const recs = ofChannel(o)
      expect(recs, 'one model request record').to.have.length(1)
      const r = recs[0] as StatsRecord & { estimated?: boolean }
      expect(r.success).to.equal(true)
      if (exp().estimated) {
        expect(r.promptTokens ?? 0, 'prompt tokens estimated').to.be.greaterThan(0)
        expect(r.completionTokens ?? 0, 'completion tokens estimated').to.be.greaterThan(0)
        expect(r.estimated, 'record marked estimated').to.equal(true)
      } else {
        expect({ prompt: r.promptTokens, completion: r.completionTokens, cached: r.cachedTokens ?? 0 })
          .to.deep.equal({ prompt: exp().promptTokens, completion: exp().completionTokens, cached: exp().cachedTokens ?? 0 })
        expect(r.estimated, 'provider usage is not estimated').to.not.equal(true)
      }
    })
  }

  describe('harness sanity (no profile: plain OpenAI wire)', () => {
    it('plays a streamed answer through the pipeline and records the request', async () => {
      const o = await scenario(undefined, [plainAnswer('plain streamed', { stream: true, model: 'replay-model' })], { streamed: true })
      expect(answered(o)).to.equal('plain streamed')
      expect(o.deltas).to.equal('plain streamed')
      expect(o.requests).to.have.length(1)
      const req = o.requests[0] as ReplayRequest
      expect(req.path).to.equal('/v1/chat/completions')
      expect(req.headers.authorization).to.equal('Bearer sk-replay')
      expect(req.body.stream).to.equal(true)
      expect(req.body.model).to.equal('replay-model')
      expect(req.body.messages.at(-1)?.role).to.equal('user')
      expect(userText(req.body.messages.at(-1)?.content)).to.equal('hello')
      expect(req.served).to.equal(0)
      expect(o.history.map((m) => m.content)).to.deep.equal(['hello', 'plain streamed'])
      expect(ofChannel(o)[0]).to.deep.include({ success: true, promptTokens: 20, completionTokens: 5 })
    })

    it('plays a whole answer', async () => {
      const o = await scenario(undefined, [plainAnswer('plain whole', { stream: false, model: 'replay-model' })], { streamed: false })
      expect(answered(o)).to.equal('plain whole')
      expect(o.requests[0]?.body.stream).to.not.equal(true)
    })

    it('writes SSE lines byte for byte (comments, blank keep-alive lines, [DONE]) and serves GET /models', async () => {
      primary.reset()
      primary.play({ sse: [': OPENROUTER PROCESSING', '', data({ a: 1 }), DONE], headers: { 'X-Replay': 'yes' } })
      const res = await fetch(`${primary.url}/chat/completions`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ stream: true }) })
      expect(res.headers.get('content-type')).to.equal('text/event-stream')
      expect(res.headers.get('x-replay')).to.equal('yes')
      expect(await res.text()).to.equal(': OPENROUTER PROCESSING\n\n\ndata: {"a":1}\n\ndata: [DONE]\n\n')
      expect(primary.requests[0]?.body).to.deep.equal({ stream: true })
      const models = await (await fetch(`${primary.url}/models`)).json() as { data: Array<{ id: string }> }
      expect(models.data.map((m) => m.id)).to.deep.equal(['replay-model'])
    })

    it('cuts a truncated stream (the reader fails) and answers 500 once the script is exhausted', async () => {
      primary.reset()
      primary.play({ sse: [data({ a: 1 })], truncate: true }, { status: 429, headers: { 'Retry-After': '2' }, body: [{ error: { code: 429 } }] })
      const res = await fetch(`${primary.url}/chat/completions`, { method: 'POST', body: '{}' })
      expect(res.status, 'the headers arrive').to.equal(200)
      const reader = res.body!.getReader()
      let got = ''
      let failed = false
      try {
        for (;;) { const { value, done } = await reader.read(); if (done) break; got += Buffer.from(value).toString('utf8') }
      } catch { failed = true }
      expect(got, 'the lines before the cut arrive').to.equal('data: {"a":1}\n\n')
      expect(failed, 'reading a cut stream fails').to.equal(true)
      const r429 = await fetch(`${primary.url}/chat/completions`, { method: 'POST', body: '{}' })
      expect(r429.status).to.equal(429)
      expect(r429.headers.get('retry-after')).to.equal('2')
      expect(await r429.json()).to.deep.equal([{ error: { code: 429 } }])
      const none = await fetch(`${primary.url}/chat/completions`, { method: 'POST', body: '{}' })
      expect(none.status).to.equal(500)
    })
  })

  it('the channel schema knows `profile` (every profile name; default auto)', () => {
    for (const fx of FIXTURES) {
      const r = channelSchema.safeParse({ name: 'p', baseUrl: 'http://127.0.0.1:1/v1', profile: fx.profile })
      expect(r.success, `profile ${fx.profile}: ${r.success ? '' : r.error.message}`).to.equal(true)
    }
    const plain = channelSchema.parse({ name: 'p', baseUrl: 'http://127.0.0.1:1/v1' }) as { profile?: string }
    expect(plain.profile).to.equal('auto')
  })

  for (const fx of FIXTURES) {
    describe(`profile ${fx.profile} (${fx.sources.map((t) => `[${t}]`).join('')})`, () => {
      describe(`streamed answer ${fx.streamed.source}`, () => {
        let o: Outcome
        before(async () => { o = await scenario(fx, [fx.streamed.exchange], { streamed: true }) })
        it('sends a streaming request with include_usage', () => {
          expect(o.requests[0]?.body.stream).to.equal(true)
          expect(o.requests[0]?.body.stream_options).to.deep.include({ include_usage: true })
        })
        answerChecks(() => o, () => fx.streamed.expect, true)
      })

      describe(`whole answer ${fx.whole.source}`, () => {
        let o: Outcome
        before(async () => { o = await scenario(fx, [fx.whole.exchange], { streamed: false }) })
        answerChecks(() => o, () => fx.whole.expect, false)
      })

      describe(`tool loop ${fx.toolLoop.source}`, () => {
        const tl = fx.toolLoop
        let o: Outcome
        before(async () => { o = await scenario(fx, [tl.round1, tl.round2], { streamed: true, tools: true, input: 'hello' }) })
        const second = (): any[] => {
          expect(o.requests, 'two model requests').to.have.length(2)
          return o.requests[1]?.body.messages as any[]
        }
        const assistantCall = (): any => second().find((m) => m.role === 'assistant' && Array.isArray(m.tool_calls))

        it('answers round 2\'s text, without reasoning or <think>', () => {
          const text = answered(o)
          expect(text).to.equal(tl.answer)
          expect(text).to.not.match(THINK_TAG)
        })
        it(`runs ${tl.calls.length} tool call(s) with the streamed arguments`, () => {
          answered(o)
          expect(o.toolRuns).to.deep.equal(tl.calls)
          expect(o.requests[0]?.body.tools?.map((t: any) => t.function.name)).to.deep.equal(['get_weather', 'get_time'])
        })
        it('sends back the calls as valid tool_calls, ids unique and matched by the tool messages', () => {
          const a = assistantCall()
          expect(a, 'assistant message with tool_calls').to.not.equal(undefined)
          const calls = a.tool_calls as any[]
          expect(calls).to.have.length(tl.calls.length)
          calls.forEach((c, i) => {
            expect(c.function.name).to.equal(tl.calls[i]?.name)
            expect(JSON.parse(c.function.arguments), `arguments of call ${i}`).to.deep.equal(tl.calls[i]?.args)
          })
          const ids = calls.map((c) => c.id as string)
          expect(ids.every((id) => typeof id === 'string' && id.length > 0), `ids ${JSON.stringify(ids)}`).to.equal(true)
          expect(new Set(ids).size).to.equal(ids.length)
          expect(second().filter((m) => m.role === 'tool').map((m) => m.tool_call_id)).to.deep.equal(ids)
        })
        if (tl.reasoningBack) {
          it('carries round 1\'s reasoning_content on the assistant tool-call message', () => {
            expect(assistantCall()?.reasoning_content).to.equal(tl.reasoning)
          })
        } else {
          it('sends no reasoning_content back', () => {
            const a = assistantCall()
            expect(a, 'assistant message with tool_calls').to.not.equal(undefined)
            expect(a).to.not.have.property('reasoning_content')
          })
        }
        if (tl.thinkBack) {
          it('sends round 1\'s <think> block back intact in the assistant message\'s content', () => {
            const a = assistantCall()
            expect(a, 'assistant message with tool_calls').to.not.equal(undefined)
            expect(String(a.content ?? '')).to.match(THINK_TAG)
            expect(String(a.content ?? '')).to.include(tl.reasoning)
          })
        } else if (tl.reasoning) {
          it('keeps round 1\'s reasoning out of the assistant message\'s content', () => {
            const a = assistantCall()
            expect(a, 'assistant message with tool_calls').to.not.equal(undefined)
            expect(String(a.content ?? '')).to.not.include(tl.reasoning)
            expect(String(a.content ?? '')).to.not.match(THINK_TAG)
          })
        }
        it('stores the user message and the final answer only', () => {
          answered(o)
          expect(o.history.map((m) => m.content)).to.deep.equal(['hello', tl.answer])
        })
        it('records both rounds as successful requests (round 1 a tool round)', () => {
          answered(o)
          const recs = ofChannel(o) as Array<StatsRecord & { estimated?: boolean }>
          expect(recs.map((r) => ({ success: r.success, toolRound: Boolean(r.toolRound) }))).to.deep.equal([{ success: true, toolRound: true }, { success: true, toolRound: false }])
          for (const r of recs) expect((r.promptTokens ?? 0) + (r.completionTokens ?? 0), 'tokens counted (reported or estimated)').to.be.greaterThan(0)
        })
      })

      for (const ec of fx.errors) errorCase(fx, ec)
    })
  }

  function errorCase (fx: ProviderFixture, ec: ErrorCase): void {
    describe(`error: ${ec.name} ${ec.source}`, () => {
      if (ec.failover) {
        describe('with a backup channel', () => {
          let o: Outcome
          before(async () => { o = await scenario(fx, [ec.exchange], { streamed: ec.streamed, backup: true, repeat: true }) })
          it('the backup answers (failover), the channel is tried once', () => {
            expect(answered(o)).to.equal(BACKUP_ANSWER)
            expect(o.requests, 'requests to the failing channel').to.have.length(1)
            expect(o.backupRequests).to.have.length(1)
            expect(o.history.map((m) => m.content)).to.deep.equal(['hello', BACKUP_ANSWER])
          })
          it('the failing channel\'s status is error', () => {
            expect(o.status).to.equal('error')
          })
          it('the stats hold a failure for the channel and a success for the backup', () => {
            expect(ofChannel(o).map((r) => r.success)).to.deep.equal([false])
            expect(ofChannel(o, o.backupName).map((r) => r.success)).to.deep.equal([true])
          })
        })
      }
      describe('without a backup', () => {
        let o: Outcome
        before(async () => { o = await scenario(fx, [ec.exchange], { streamed: ec.streamed, repeat: true }) })
        it(`fails with an AppError${ec.providerMessage ? ` carrying "${ec.providerMessage}"` : ''}`, () => {
          expect(o.error, `no error; answered ${JSON.stringify(o.response)}`).to.not.equal(undefined)
          expect(o.error?.code, o.error?.message).to.be.a('string')
          expect(o.error?.message).to.not.match(/Cannot read properties|undefined \(reading/)
          if (ec.providerMessage) expect(o.error?.message).to.include(ec.providerMessage)
        })
        it('stores nothing and counts no success', () => {
          expect(o.history).to.deep.equal([])
          const recs = ofChannel(o)
          expect(recs.length, 'a failure is recorded').to.be.greaterThan(0)
          expect(recs.filter((r) => r.success), 'no success recorded').to.deep.equal([])
        })
      })
    })
  }
})
