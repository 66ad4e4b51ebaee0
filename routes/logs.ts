// Logs (docs/api.md, Groups of routes: logs; style A) plus the log file list and template
// placeholders.
import { lstat, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import Router from '@koa/router'
import { z } from 'zod'
import { LOG_LEVELS } from '../lib/core/logger.js'
import { readPrivateText } from '../lib/core/private-file.js'
import type { Runtime } from '../lib/runtime.js'
import { PLACEHOLDERS, renderTemplate } from '../lib/templates/placeholders.js'
import { A, styledRouter } from './_http/envelope.js'
import { intParam, parseBody, parseQuery } from './_http/validate.js'
import { toolLogEntry } from './_http/answers.js'
import { routeDoc, type Data } from './_http/route-docs.js'

const logsQuery = z.object({
  level: z.enum(LOG_LEVELS as ['error', 'warn', 'info', 'debug'], { error: 'level must be error, warn, info or debug' }).optional(),
  before: z.string().optional().refine((s) => s === undefined || !Number.isNaN(Date.parse(s)) || /^\d+$/.test(s), 'before must be an ISO timestamp or milliseconds')
})
const toolLogsQuery = z.object({
  toolName: z.string().max(200).optional(),
  userId: z.string().max(64).optional(),
  status: z.enum(['success', 'error'], { error: 'status must be success or error' }).optional()
})
const logEntry = z.object({ timestamp: z.string(), level: z.enum(['error', 'warn', 'info', 'debug']), message: z.string(), meta: z.record(z.string(), z.unknown()) })
const logsData = z.object({ logs: z.array(logEntry) })
const toolLogsData = z.object({ logs: z.array(toolLogEntry) })
const errorsData = z.object({ errors: z.array(z.object({ timestamp: z.string(), error: z.string(), stack: z.string(), context: z.record(z.string(), z.unknown()) })) })
const recentData = z.object({ lines: z.array(z.string()) })
const filesData = z.array(z.object({ name: z.string(), size: z.number(), modified: z.string() }))
const placeholdersData = z.object({ placeholders: z.array(z.object({ name: z.string(), description: z.string(), example: z.string() })) })
const previewBody = z.object({
  template: z.string({ error: 'template is required' }).max(100_000),
  context: z.record(z.string(), z.unknown()).default({})
})

async function logFiles (dir: string): Promise<Array<{ name: string; size: number; modified: string }>> {
  let names: string[]
  try { names = await readdir(dir) } catch { return [] }
  const files = await Promise.all(names.filter((n) => n.endsWith('.log')).map(async (name) => {
    const s = await lstat(join(dir, name)).catch(() => undefined)
    // A symlink planted among the logs is never listed or read (lib/core/private-file.ts).
    return s?.isFile() ? { name, size: s.size, modified: s.mtime.toISOString() } : undefined
  }))
  return files.filter((f) => f !== undefined).sort((a, b) => b.name.localeCompare(a.name))
}

export function logsRoutes (rt: Runtime): Router {
  const r = styledRouter('A', { prefix: '/api/logs' })

  r.get('/', A((ctx): Data<typeof logsData> => {
    const q = parseQuery(ctx, logsQuery)
    const before = q.before === undefined ? undefined : /^\d+$/.test(q.before) ? Number(q.before) : Date.parse(q.before)
    return { logs: rt.log.query({ ...(q.level ? { level: q.level } : {}), limit: intParam(ctx.query.limit, 100, 1, 2000), ...(before !== undefined ? { before } : {}) }) }
  }))
  routeDoc(r, 'GET', '/', { query: logsQuery, summary: 'Recent plugin log entries', data: logsData })

  r.get('/tools', A((ctx): Data<typeof toolLogsData> => {
    const q = parseQuery(ctx, toolLogsQuery)
    const limit = intParam(ctx.query.limit, 50, 1, 1000)
    return { logs: rt.optional('tools')?.registry.log.query({ ...q, limit }).logs ?? [] }
  }))
  routeDoc(r, 'GET', '/tools', { query: toolLogsQuery, summary: 'Tool call log entries', data: toolLogsData })

  r.get('/errors', A((ctx): Data<typeof errorsData> => ({ errors: rt.log.errors(intParam(ctx.query.limit, 100, 1, 500)) })))
  routeDoc(r, 'GET', '/errors', { summary: 'Recent logged errors', data: errorsData })

  r.get('/recent', A(async (ctx): Promise<Data<typeof recentData>> => {
    const lines = intParam(ctx.query.lines, 100, 1, 5000)
    await rt.log.flush()
    const out: string[] = []
    for (const f of await logFiles(rt.paths.logsDir)) {
      const text = await readPrivateText(join(rt.paths.logsDir, f.name)).catch(() => '')
      const errs = text.split('\n').filter((l) => l.includes('[ERROR]') || l.includes('[WARN]'))
      out.unshift(...errs)
      if (out.length >= lines) break
    }
    return { lines: out.slice(-lines) }
  }))
  routeDoc(r, 'GET', '/recent', { summary: 'The last lines of the log file', data: recentData })

  r.get('/files', A(async (): Promise<Data<typeof filesData>> => logFiles(rt.paths.logsDir)))
  routeDoc(r, 'GET', '/files', { summary: 'The log files', data: filesData })

  r.get('/placeholders', A((): Data<typeof placeholdersData> => ({ placeholders: PLACEHOLDERS })))
  routeDoc(r, 'GET', '/placeholders', { summary: 'The template placeholders', data: placeholdersData })

  r.post('/placeholders/preview', A((ctx) => {
    const { template, context } = parseBody(ctx, previewBody)
    return { template, result: renderTemplate(template, context, rt.clock.now()) }
  }))
  routeDoc(r, 'POST', '/placeholders/preview', { body: previewBody, summary: 'Render a template with placeholders', data: z.object({ template: z.string(), result: z.string() }) })

  return r
}
