// Channel routes (docs/api.md; style A): CRUD over the `channels` configuration section, a test request
// and the provider's model list. Registered before configRoutes (which owns /api/config/:section).
import Router from '@koa/router'
import { z } from 'zod'
import { channelSchema } from '../lib/config/schema.js'
import { redact } from '../lib/core/redact.js'
import { probeModels } from '../lib/channels/probe.js'
import { channelViewData } from '../lib/channels/service.js'
import type { Runtime } from '../lib/runtime.js'
import { A, reply, styledRouter } from './_http/envelope.js'
import { bodyOf, parseBody } from './_http/validate.js'
import { routeDoc, type Data } from './_http/route-docs.js'

const testBody = z.object({
  model: z.string().min(1, 'model must not be empty').max(200).optional()
})

// The connection fields of a channel, validated as a saved channel's are; `channel` names the saved
// channel a form edits (its masked keys sent back stand for the stored ones).
const modelList = z.array(z.string())
const probeBody = channelSchema.pick({ type: true, baseUrl: true, apiKey: true, apiKeys: true, customPath: true, headersTemplate: true, timeoutMs: true })
  .extend({ channel: z.string().max(64, 'channel is too long').optional() })

export function channelRoutes (rt: Runtime): Router {
  const r = styledRouter('A', { prefix: '/api/config/channels' })
  const channels = () => rt.need('channels').service

  r.get('/', A(() => channels().views()))
  routeDoc(r, 'GET', '/', { summary: 'The channels with their live status', data: z.array(channelViewData) })

  r.post('/', A(async (ctx) => {
    const ch = await channels().create(bodyOf(ctx))
    return reply({ name: ch.name, id: channels().idOf(ch) }, { message: `Channel ${ch.name} created` })
  }))
  routeDoc(r, 'POST', '/', { body: channelSchema, summary: 'Create a channel', data: z.object({ name: z.string(), id: z.string() }), errors: [409] })

  // The provider's model list before the channel is saved (the form's fetch); the keys are never echoed.
  r.post('/models', A(async (ctx) => {
    const body = parseBody(ctx, probeBody)
    const ch = rt.need('channels')
    return await probeModels(rt, ch.service, ch.gateway, body)
  }))
  routeDoc(r, 'POST', '/models', { body: probeBody, summary: 'The provider\'s model list for channel settings not saved yet', data: modelList, errors: [502, 503, 504] })

  r.get('/:name', A((ctx) => channels().view(channels().get(ctx.params.name ?? ''))))
  routeDoc(r, 'GET', '/:name', { summary: 'A channel with its live status', data: channelViewData })

  r.put('/:name', A(async (ctx) => {
    const ch = await channels().update(ctx.params.name ?? '', bodyOf(ctx))
    return reply(channels().view(ch), { message: `Channel ${ch.name} updated` })
  }))
  routeDoc(r, 'PUT', '/:name', { body: channelSchema.partial(), summary: 'Update a channel (masked keys sent back keep the stored ones)', data: channelViewData })

  r.delete('/:name', A(async (ctx) => {
    await channels().remove(ctx.params.name ?? '')
    return reply(undefined, { message: 'Channel deleted' })
  }))
  routeDoc(r, 'DELETE', '/:name', { summary: 'Remove a channel', data: null })

  r.post('/:name/test', A(async (ctx) => {
    const ch = channels().get(ctx.params.name ?? '')
    const { model } = parseBody(ctx, testBody)
    const res = await rt.need('channels').gateway.call({
      channel: ch.name, ...(model ? { model } : {}), messages: [{ role: 'user', content: 'Hi' }], maxTokens: 16, source: 'other'
    }, undefined, { anyState: true })
    // The reply of a relay may echo the key: redacted before it is cut (a cut key would escape the mask).
    return { latency: res.latencyMs, model: res.model, response: redact(res.content).slice(0, 100) }
  }))
  routeDoc(r, 'POST', '/:name/test', { body: testBody, summary: 'Send a test request through a channel', data: z.object({ latency: z.number(), model: z.string(), response: z.string() }), errors: [502, 503, 504] })

  r.get('/:name/models', A(async (ctx): Promise<Data<typeof modelList>> => rt.need('channels').gateway.listModels(channels().get(ctx.params.name ?? ''))))
  routeDoc(r, 'GET', '/:name/models', { summary: 'The models the channel\'s upstream lists', data: modelList, errors: [502, 503, 504] })

  return r
}
