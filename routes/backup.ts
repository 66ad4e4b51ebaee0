// Backup and restore (README, "Backup and restore"; style B) at /api/backup: a full backup as a download,
// the kept automatic ones, a preview of an uploaded file and a restore from one (lib/backup).
import { createReadStream } from 'node:fs'
import { rm } from 'node:fs/promises'
import Router from '@koa/router'
import type { Context } from 'koa'
import { z } from 'zod'
import { AppError, badRequest } from '../lib/core/errors.js'
import { importOptional } from '../lib/core/packages.js'
import { PARTS } from '../lib/backup/parts.js'
import type { BackupService } from '../lib/backup/service.js'
import type { Runtime } from '../lib/runtime.js'
import { B, reply, styledRouter } from './_http/envelope.js'
import { bodyOf, parseWith } from './_http/validate.js'
import { routeDoc, type Data } from './_http/route-docs.js'

const passphrase = z.string().min(8, 'passphrase must be at least 8 characters').max(1024, 'passphrase is longer than 1024 characters')
const createBody = z.strictObject({ includeSecrets: z.boolean().optional(), passphrase: passphrase.optional() })
const restoreFields = z.strictObject({ parts: z.string().max(400).optional(), passphrase: passphrase.optional() })
const count = z.object({ files: z.number(), records: z.number(), bytes: z.number() })
const manifestData = z.object({
  format: z.string(), version: z.number(), pluginVersion: z.string(), createdAt: z.string(), engine: z.enum(['files', 'postgres']),
  secrets: z.boolean(), kind: z.enum(['manual', 'auto', 'pre-restore']), entries: z.number(), parts: z.partialRecord(z.enum(PARTS), count)
})
const previewData = z.object({ manifest: manifestData, parts: z.array(z.enum(PARTS)), secrets: z.boolean(), secretsOpened: z.boolean() })
const keptData = z.object({ name: z.string(), kind: z.enum(['auto', 'pre-restore', 'manual']), size: z.number(), createdAt: z.string() })
const restoreData = z.object({ before: z.string(), parts: z.array(z.enum(PARTS)), restartNeeded: z.literal(true) })

interface UploadedFile { filepath: string; size: number }
type Mw = (ctx: Context, next: () => Promise<void>) => Promise<void>

/** The one uploaded file (field `file`) and the text fields of a multipart request, bounded by backup.maxUploadMB. */
async function uploadOf (ctx: Context, limit: number): Promise<{ file: UploadedFile; fields: Record<string, unknown> }> {
  if (!ctx.is('multipart/form-data')) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the backup as multipart/form-data, field "file"')
  const { koaBody } = await importOptional('koa-body', () => import('koa-body')).catch(() => {
    throw new AppError('SERVICE_UNAVAILABLE', 'Uploads cannot be read: the package koa-body is not installed (the bot\'s log says how to install it)')
  })
  const parse = koaBody({ json: false, text: false, urlencoded: false, multipart: true, formidable: { maxFileSize: limit, maxTotalFileSize: limit, maxFiles: 1, maxFields: 4, allowEmptyFiles: true, minFileSize: 0 } }) as Mw
  try {
    await parse(ctx, async () => {})
  } catch (err) {
    const code = (err as { httpCode?: number }).httpCode
    if (code === 413) throw new AppError('PAYLOAD_TOO_LARGE', `The backup is larger than ${limit} bytes (backup.maxUploadMB), or more than one file was sent`)
    throw badRequest(`The upload could not be read: ${err instanceof Error ? err.message.slice(0, 200) : String(err)}`)
  }
  const all = Object.values(ctx.request.files ?? {}).flat() as UploadedFile[]
  const named = ctx.request.files?.file
  const file = (Array.isArray(named) ? named[0] : named) as UploadedFile | undefined
  await Promise.all(all.filter((f) => f !== file).map((f) => rm(f.filepath, { force: true })))
  if (!file) throw badRequest('file is required (multipart field "file")')
  const body = bodyOf(ctx)
  return { file, fields: typeof body === 'object' && body !== null && !Array.isArray(body) ? body as Record<string, unknown> : {} }
}

/** Sends a file as a download; `then` runs once it is sent or the client went away. */
function download (ctx: Context, file: string, name: string, then?: () => void): void {
  ctx.type = 'application/gzip'
  ctx.set('Content-Disposition', `attachment; filename="${name}"`)
  ctx.set('Cache-Control', 'no-store')
  const stream = createReadStream(file)
  if (then) stream.once('close', then)
  ctx.body = stream
}

export function backupRoutes (rt: Runtime): Router {
  const r = styledRouter('B', { prefix: '/api/backup' })
  const svc = (): BackupService => rt.need('backup')

  // a full backup, sent as a download and not kept (secrets only with includeSecrets and a passphrase)
  r.post('/', B(async (ctx) => {
    const b = parseWith(createBody, bodyOf(ctx))
    if (b.includeSecrets && !b.passphrase) throw badRequest('passphrase is required when includeSecrets is true (the secrets are encrypted with it)')
    if (!b.includeSecrets && b.passphrase) throw badRequest('passphrase is only used with includeSecrets: true')
    const made = await svc().create({ kind: 'manual', ...(b.includeSecrets && b.passphrase ? { passphrase: b.passphrase } : {}) })
    download(ctx, made.file, made.name, () => { rm(made.file, { force: true }).catch(() => undefined) })
  }))
  routeDoc(r, 'POST', '/', { summary: 'Make a full backup and download it (secrets only with includeSecrets and a passphrase of 8+ characters, then encrypted)', body: createBody, contentType: 'application/gzip' })

  r.get('/list', B(async (): Promise<Data<z.ZodArray<typeof keptData>>> => await svc().list()))
  routeDoc(r, 'GET', '/list', { summary: 'The kept backups (automatic, and those made before a restore), newest first', data: z.array(keptData) })

  r.post('/preview', B(async (ctx): Promise<Data<typeof previewData>> => {
    const { file, fields } = await uploadOf(ctx, svc().maxUploadBytes)
    try {
      const f = parseWith(restoreFields.omit({ parts: true }), fields)
      return await svc().preview(file.filepath, f.passphrase)
    } finally { await rm(file.filepath, { force: true }) }
  }))
  routeDoc(r, 'POST', '/preview', { summary: 'What an uploaded backup holds (multipart/form-data: file; passphrase to check it opens the secrets); the whole file is checked', errors: [413, 415], data: previewData })

  r.post('/restore', B(async (ctx) => {
    const { file, fields } = await uploadOf(ctx, svc().maxUploadBytes)
    try {
      const f = parseWith(restoreFields, fields)
      const parts = f.parts?.split(',').map((p) => p.trim()).filter(Boolean)
      const staged = await svc().stageRestore(file.filepath, { ...(parts?.length ? { parts } : {}), ...(f.passphrase ? { passphrase: f.passphrase } : {}) })
      const data: Data<typeof restoreData> = { ...staged, restartNeeded: true }
      return reply(data, { status: 202, message: 'The current state was backed up; the restore is applied when the bot restarts' })
    } finally { await rm(file.filepath, { force: true }) }
  }))
  routeDoc(r, 'POST', '/restore', { summary: `Restore from an uploaded backup (multipart/form-data: file; parts, comma-separated among ${PARTS.join(', ')}, default all but stats; passphrase for the secrets): the current state is backed up first, the restore is applied at the next start`, status: 202, errors: [413, 415], data: restoreData })

  r.get('/:name', B(async (ctx) => {
    const name = String(ctx.params.name)
    download(ctx, await svc().fileOf(name), name)
  }))
  routeDoc(r, 'GET', '/:name', { summary: 'Download a kept backup by its name (GET /api/backup/list)', contentType: 'application/gzip' })
  return r
}
