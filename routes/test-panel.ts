// Test panel (style B): batch test and quick test as SSE (frames: docs/api.md, Server-sent events), soft stop,
// active tests and the last results per channel. The logic lives in lib/channels/batch-test.ts.
import Router from '@koa/router'
import { z } from 'zod'
import { AppError } from '../lib/core/errors.js'
import { redactDeep } from '../lib/core/redact.js'
import type { Runtime } from '../lib/runtime.js'
import { B, styledRouter } from './_http/envelope.js'
import { openSse } from './_http/sse.js'
import { parseBody } from './_http/validate.js'
import { routeDoc, type Data } from './_http/route-docs.js'

const channelId = z.string({ error: 'channelId is required' }).trim().min(1, 'channelId is required').max(100)

const batchBody = z.object({
  channelId,
  models: z.array(z.string({ error: 'models must be a list of model names' }).max(200), { error: 'models must be a list of model names' }).max(500).optional(),
  concurrency: z.number({ error: 'concurrency must be an integer 1-20' }).int('concurrency must be an integer 1-20').min(1, 'concurrency must be an integer 1-20').max(20, 'concurrency must be an integer 1-20').default(3),
  clearPrevious: z.boolean({ error: 'clearPrevious must be a boolean' }).default(true)
})

const stopBody = z.object({ testId: z.string({ error: 'testId must be a string' }).min(1).max(200).optional() })

const quickBody = z.object({
  channelId,
  model: z.string({ error: 'model must be a string' }).trim().min(1).max(200).optional(),
  message: z.string({ error: 'message must be a string' }).min(1).max(4000).default('Say hello')
})

const activeData = z.array(z.object({ id: z.string(), completed: z.number(), total: z.number(), aborted: z.boolean() }))
const batchResult = z.object({
  model: z.string(), index: z.number(), success: z.boolean(), elapsed: z.number(), response: z.string().optional(),
  keyInfo: z.object({ name: z.string(), index: z.number() }).nullable().optional(), error: z.string().optional()
})
const channelModelsData = z.object({ channelId: z.string(), channelName: z.string(), models: z.array(z.string()), status: z.string(), testedAt: z.number().nullable(), results: z.array(batchResult) })

export function testPanelRoutes (rt: Runtime): Router {
  const r = styledRouter('B', { prefix: '/api/test-panel' })
  const tests = () => rt.need('channels').tests

  r.post('/batch-test', B(async (ctx) => {
    const body = parseBody(ctx, batchBody)
    const ch = tests().channel(body.channelId)
    const models = await tests().modelsToTest(ch, body.models)
    if (models.length === 0) throw new AppError('BAD_REQUEST', 'No testable models')
    const sse = openSse(ctx, rt.bus)
    await tests().run(ch, models, {
      concurrency: body.concurrency,
      clearPrevious: body.clearPrevious,
      // Frames carry upstream texts (answers, errors) that may echo the channel's key.
      emit: (event, data) => { sse.send(event, redactDeep(data)) },
      closed: () => sse.closed
    })
    sse.close()
  }))
  routeDoc(r, 'POST', '/batch-test', { body: batchBody, summary: 'Start a batch test (SSE progress)', contentType: 'text/event-stream', events: ['start (test id, total, channel, concurrency)', 'per model: result, progress', 'complete (totals and every result)'] })

  r.post('/batch-test-stop', B((ctx) => tests().stop(parseBody(ctx, stopBody).testId)))
  routeDoc(r, 'POST', '/batch-test-stop', { body: stopBody, summary: 'Stop a batch test (without testId: every running one)', data: z.union([z.object({ stopped: z.literal(true), testId: z.string() }), z.object({ stopped: z.literal(false), message: z.string() }), z.object({ stopped: z.literal(true), count: z.number() })]) })

  r.get('/active-tests', B((): Data<typeof activeData> => tests().active()))
  routeDoc(r, 'GET', '/active-tests', { summary: 'The batch tests running', data: activeData })

  r.post('/quick-test', B(async (ctx) => {
    const body = parseBody(ctx, quickBody)
    const ch = tests().channel(body.channelId)
    const model = body.model ?? ch.models[0] ?? (ch.model || undefined)
    if (!model) throw new AppError('BAD_REQUEST', 'No testable models')
    const sse = openSse(ctx, rt.bus)
    await tests().quick(ch, model, body.message, (event, data) => { sse.send(event, redactDeep(data)) })
    sse.close()
  }))
  routeDoc(r, 'POST', '/quick-test', { body: quickBody, summary: 'One test request (SSE)', contentType: 'text/event-stream', events: ['start', 'then result or error'] })

  r.get('/channel-models/:id', B((ctx): Data<typeof channelModelsData> => tests().channelModels(ctx.params.id ?? '')))
  routeDoc(r, 'GET', '/channel-models/:id', { summary: 'A channel\'s models and its last batch test', data: channelModelsData })

  return r
}
