// Where a document's input waits while it is processed, and how a URL is read (lib/knowledge/README.md,
// "Files in"): an uploaded file is kept in `knowledge-uploads/<id>.<type>` of the data folder until its
// text is extracted (so a restart can process it again), then removed; a URL is fetched through the one
// outbound fetcher for addresses others chose (lib/web/README.md: every address checked, redirects
// checked again, the body read up to the size limit).
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { AppError } from '../core/errors.js'
import { outboundFetch, type OutboundAccess } from '../web/outbound.js'
import { ExtractError, typeOfMedia, typeOfName } from './extract/index.js'
import type { FileType } from './types.js'

const FETCH_TIMEOUT_MS = 30_000

export class Uploads {
  constructor (private readonly dir: string) {}
  private path (id: string, type: FileType): string { return join(this.dir, `${id}.${type}`) }

  async save (id: string, type: FileType, bytes: Uint8Array): Promise<void> {
    await mkdir(this.dir, { recursive: true })
    await writeFile(this.path(id, type), bytes)
  }

  async read (id: string, type: FileType): Promise<Buffer> {
    try { return await readFile(this.path(id, type)) } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new ExtractError('上传的文件在处理前丢失了，请重新上传')
      throw err
    }
  }

  /** The file waits here (a shared store: this instance took the upload). */
  async has (id: string, type: FileType): Promise<boolean> {
    try { await stat(this.path(id, type)); return true } catch { return false }
  }

  /**
   * Shared store: a URL document this instance is processing is marked here (`<id>.claim`), so its restart
   * takes it up again at once (a URL has no file to tell it by); swept like a file once it is settled.
   */
  async mark (id: string): Promise<void> {
    await mkdir(this.dir, { recursive: true })
    await writeFile(join(this.dir, `${id}.claim`), '')
  }

  async marked (id: string): Promise<boolean> {
    try { await stat(join(this.dir, `${id}.claim`)); return true } catch { return false }
  }

  unmark (id: string): Promise<void> { return rm(join(this.dir, `${id}.claim`), { force: true }) }

  drop (id: string, type: FileType): Promise<void> { return rm(this.path(id, type), { force: true }) }

  /** Removes the files no document waits for (left by a crash between saving a file and recording its document). */
  async sweep (waiting: (id: string) => boolean): Promise<void> {
    let names: string[]
    try { names = await readdir(this.dir) } catch { return }
    await Promise.all(names.filter((n) => !waiting(n.replace(/\.[a-z]+$/, ''))).map((n) => rm(join(this.dir, n), { force: true })))
  }
}

/** The owner's words for a URL that could not be read. */
function fetchFailure (err: unknown, maxBytes: number): ExtractError {
  if (err instanceof ExtractError) return err
  if (err instanceof AppError) {
    switch (err.code) {
      case 'FORBIDDEN': return new ExtractError(`不能读取这个地址（内网和本机地址不允许，除非加入 web.allowPrivateHosts）：${err.message}`)
      case 'TIMEOUT': return new ExtractError(`网页在 ${FETCH_TIMEOUT_MS / 1000} 秒内没有读完`)
      case 'PAYLOAD_TOO_LARGE': return new ExtractError(`网页超过大小上限 ${maxBytes} 字节（knowledge.maxFileBytes）`)
      case 'BAD_REQUEST': case 'INVALID_ARGS': return new ExtractError(`网址无效：${err.message}`)
      case 'CONNECTION_FAILED': return new ExtractError(`无法连接这个网址：${err.message}`)
      default: return new ExtractError(`读取网址失败：${err.message}`)
    }
  }
  return new ExtractError(`读取网址失败：${err instanceof Error ? err.message : String(err)}`)
}

/** Fetches a URL and tells what it is (by its content type, else its path's extension). */
export async function fetchUrl (url: string, opts: { maxBytes: number; access: OutboundAccess; signal?: AbortSignal }): Promise<{ type: FileType; bytes: Buffer; url: string }> {
  try {
    const res = await outboundFetch(url, {
      headers: { accept: 'text/html,application/xhtml+xml,text/plain,text/markdown,text/csv,application/pdf,*/*;q=0.5', 'user-agent': 'Mozilla/5.0 (compatible; lingxi-plugin knowledge)' },
      maxBytes: opts.maxBytes,
      timeoutMs: FETCH_TIMEOUT_MS,
      ...(opts.signal ? { signal: opts.signal } : {}),
      check: ({ status }) => { if (status >= 400) throw new ExtractError(`网站返回了 HTTP ${status}`) }
    }, opts.access)
    const media = res.contentType.split(';')[0]!.trim().toLowerCase()
    const type = typeOfMedia(media) ?? typeOfName(new URL(res.url).pathname) ?? (media.startsWith('text/') ? 'txt' : undefined)
    if (!type) throw new ExtractError(`不支持这种网页内容：${media || '未知类型'}`)
    return { type, bytes: res.body, url: res.url }
  } catch (err) { throw fetchFailure(err, opts.maxBytes) }
}
