// A provider's refusal in the shapes real servers send it, read into the provider's own words
// (lib/channels/error-body.ts): a relay's /v1/models answering a 404 HTML page, a JSON array (Gemini),
// SiliconFlow's {code, message}. Through the gateway against a plain HTTP server on 127.0.0.1.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect } from 'chai'
import { AppError } from '../../lib/core/errors.js'
import { addChannel, removeAllChannels, startEnv, type Env } from './helpers.js'

describe('channels: provider refusals in every shape', () => {
  let env: Env
  let server: Server
  let url = ''
  let answer: { status: number; type: string; body: string } = { status: 404, type: 'text/html', body: '' }
  before(async () => {
    env = await startEnv()
    server = createServer((req, res) => {
      req.resume()
      res.writeHead(answer.status, { 'content-type': answer.type })
      res.end(answer.body)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
  })
  after(async () => {
    await new Promise((resolve) => server.close(resolve))
    await env.close()
  })
  beforeEach(async () => { await removeAllChannels(env.s) })

  const gw = () => env.s.lx.rt.need('channels').gateway
  const fails = async (p: Promise<unknown>): Promise<AppError> => {
    try { await p } catch (err) { expect(err).to.be.instanceOf(AppError); return err as AppError }
    throw new Error('expected a failure')
  }

  it('a /v1/models answering a 404 HTML page: one line naming the status and the base URL, no HTML', async () => {
    answer = { status: 404, type: 'text/html; charset=utf-8', body: `<!DOCTYPE html><html><head><title>404 Not Found</title></head><body>${'<p>nginx</p>'.repeat(200)}</body></html>` }
    const ch = await addChannel(env.s, { name: 'relay-html', baseUrl: url, model: 'm' })
    const e = await fails(gw().listModels(ch))
    expect(e.message).to.include('404').and.include('base URL').and.not.include('<')
    expect(e.message.length).to.be.lessThan(200)
  })

  it('a chat refusal as a JSON array (Gemini\'s 429) and as {code, message} (SiliconFlow): the provider\'s words', async () => {
    answer = { status: 429, type: 'application/json', body: JSON.stringify([{ error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED' } }]) }
    await addChannel(env.s, { name: 'gem', baseUrl: url, model: 'gemini-2.5-flash' })
    const e = await fails(gw().complete({ messages: [{ role: 'user', content: 'hi' }], source: 'chat' }))
    expect(e.message).to.include('Resource has been exhausted').and.not.include('no body')
    answer = { status: 400, type: 'application/json', body: JSON.stringify({ code: 20012, message: 'Model does not exist. Please check it carefully.', data: null }) }
    await removeAllChannels(env.s)
    await addChannel(env.s, { name: 'sf', baseUrl: url, model: 'nope' })
    const m = await fails(gw().complete({ messages: [{ role: 'user', content: 'hi' }], source: 'chat' }))
    expect(m.code).to.equal('MODEL_ERROR')
    expect(m.message).to.include('Model does not exist')
  })
})
