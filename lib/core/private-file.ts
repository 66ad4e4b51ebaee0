// Private files in the data and config folders (README, "Security model"): everything the plugin
// writes there is mode 0600 in folders of mode 0700, whatever the umask; reads and appends never follow
// a symlink (O_NOFOLLOW on open, so a link planted as e.g. data/memories.journal.jsonl is refused, not
// read or written through); whole-file writes go to a fresh temp file (O_EXCL, never a planted one)
// that is synced and renamed over the target. At start, looser modes are tightened and temp files
// left by a crash are removed (prepareDataFolders).
import { chmodSync, closeSync, constants, fchmodSync, fstatSync, fsyncSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, type Stats, writeSync } from 'node:fs'
import { chmod, lstat, mkdir, open, readdir, rename, rm, type FileHandle } from 'node:fs/promises'
import { randomBytes } from 'node:crypto'
import { basename, dirname, join } from 'node:path'
import { AppError } from './errors.js'

export const FILE_MODE = 0o600
const DIR_MODE = 0o700

const WINDOWS = process.platform === 'win32'
// Windows has no O_NOFOLLOW (nor POSIX modes); there a symlink is detected with lstat before opening.
const NOFOLLOW = constants.O_NOFOLLOW ?? 0
// A FIFO planted in place of a file must not block the open; it is then refused as not a regular file.
const NONBLOCK = constants.O_NONBLOCK ?? 0

/** Thrown when a path in the data folder is a symlink (or otherwise not a regular file): a 403 if it reaches a route. */
export class UnsafeFileError extends AppError {
  constructor (readonly file: string, why: string) {
    super('FORBIDDEN', `${basename(file)} ${why}; it is not followed`)
    this.name = 'UnsafeFileError'
  }
}

function refusal (file: string, err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException).code
  // Linux answers ELOOP for O_NOFOLLOW on a symlink, FreeBSD EMLINK, macOS ELOOP.
  if (code === 'ELOOP' || code === 'EMLINK') return new UnsafeFileError(file, 'is a symbolic link')
  if (code === 'ENXIO') return new UnsafeFileError(file, 'is not a regular file') // a FIFO with no reader
  return err
}

function checkRegular (file: string, st: Stats): void {
  if (!st.isFile()) throw new UnsafeFileError(file, 'is not a regular file')
}

async function lstatOrUndefined (p: string): Promise<Stats | undefined> {
  try { return await lstat(p) } catch (err) { if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined; throw err }
}

/**
 * Creates the folder (and missing parents) with mode 0700; tightens an existing one. A symlink in its
 * place is moved aside (the link, not its target) and a real folder made, unless `allowLink` (the data
 * folder itself may be a link the owner made).
 */
export async function ensurePrivateDir (dir: string, opts: { allowLink?: boolean } = {}): Promise<void> {
  let st = await lstatOrUndefined(dir)
  if (st?.isSymbolicLink() && !opts.allowLink) { await rename(dir, `${dir}.refused-${Date.now()}`); st = undefined }
  if (!st) { await mkdir(dir, { recursive: true, mode: DIR_MODE }); st = await lstat(dir) }
  if (!WINDOWS && st.isDirectory() && (st.mode & 0o077) !== 0) await chmod(dir, st.mode & 0o700)
}

export function ensurePrivateDirSync (dir: string, opts: { allowLink?: boolean } = {}): void {
  let st: Stats | undefined
  try { st = lstatSync(dir) } catch (err) { if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err }
  if (st?.isSymbolicLink() && !opts.allowLink) { renameSync(dir, `${dir}.refused-${Date.now()}`); st = undefined }
  if (!st) { mkdirSync(dir, { recursive: true, mode: DIR_MODE }); st = lstatSync(dir) }
  if (!WINDOWS && st.isDirectory() && (st.mode & 0o077) !== 0) chmodSync(dir, st.mode & 0o700)
}

/** Opens a file for reading without following a symlink; undefined when it does not exist. */
async function openForRead (file: string): Promise<FileHandle | undefined> {
  if (WINDOWS) {
    const st = await lstatOrUndefined(file)
    if (!st) return undefined
    if (st.isSymbolicLink()) throw new UnsafeFileError(file, 'is a symbolic link')
  }
  let fh: FileHandle
  try { fh = await open(file, constants.O_RDONLY | NOFOLLOW | NONBLOCK) } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw refusal(file, err)
  }
  try { checkRegular(file, await fh.stat()) } catch (err) { await fh.close(); throw err }
  return fh
}

/** The file's bytes, or undefined when it does not exist; throws UnsafeFileError for a symlink. */
export async function readPrivateFile (file: string): Promise<Buffer | undefined> {
  const fh = await openForRead(file)
  if (!fh) return undefined
  try { return await fh.readFile() } finally { await fh.close() }
}

/** readPrivateFile as UTF-8 text; a missing file throws ENOENT like fs.readFile. */
export async function readPrivateText (file: string): Promise<string> {
  const buf = await readPrivateFile(file)
  if (buf === undefined) throw Object.assign(new Error(`ENOENT: no such file, open '${basename(file)}'`), { code: 'ENOENT' })
  return buf.toString('utf8')
}

/** readPrivateFile with blocking calls (the configuration is read synchronously at start). */
export function readPrivateFileSync (file: string): Buffer | undefined {
  if (WINDOWS) {
    let st: Stats
    try { st = lstatSync(file) } catch (err) { if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined; throw err }
    if (st.isSymbolicLink()) throw new UnsafeFileError(file, 'is a symbolic link')
  }
  let fd: number
  try { fd = openSync(file, constants.O_RDONLY | NOFOLLOW | NONBLOCK) } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw refusal(file, err)
  }
  try {
    checkRegular(file, fstatSync(fd))
    return readFileSync(fd)
  } finally { closeSync(fd) }
}

/** Opens (creating with 0600) a file for appending, refusing a symlink; tightens a looser mode. */
export async function openPrivateAppend (file: string): Promise<FileHandle> {
  if (WINDOWS && (await lstatOrUndefined(file))?.isSymbolicLink()) throw new UnsafeFileError(file, 'is a symbolic link')
  let fh: FileHandle
  try { fh = await open(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NOFOLLOW | NONBLOCK, FILE_MODE) } catch (err) { throw refusal(file, err) }
  try {
    const st = await fh.stat()
    checkRegular(file, st)
    if (!WINDOWS && (st.mode & 0o077) !== 0) await fh.chmod(FILE_MODE)
  } catch (err) { await fh.close(); throw err }
  return fh
}

/** Appends text to a private file (created 0600), never through a symlink. */
export async function appendPrivateFile (file: string, text: string | Buffer): Promise<void> {
  const fh = await openPrivateAppend(file)
  try { await fh.appendFile(text) } finally { await fh.close() }
}

/** The temp file names this module writes: `.<name>.<pid>.<random>.tmp`. */
const tempName = (file: string): string => join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`)

/**
 * Writes the whole file atomically: a new temp file (O_EXCL: never an existing or planted one, mode
 * 0600), synced, then renamed over the target (rename replaces a symlink itself, never its target).
 */
export async function writePrivateFile (file: string, data: string | Buffer, opts: { sync?: boolean } = {}): Promise<void> {
  const tmp = tempName(file)
  const fh = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, FILE_MODE)
  try {
    await fh.writeFile(data)
    if (!WINDOWS) await fh.chmod(FILE_MODE) // the umask may have narrowed it further; never wider
    if (opts.sync !== false) await fh.datasync()
  } catch (err) {
    await fh.close().catch(() => undefined)
    await rm(tmp, { force: true }).catch(() => undefined)
    throw err
  }
  await fh.close()
  try { await renameRetry(tmp, file) } catch (err) { await rm(tmp, { force: true }).catch(() => undefined); throw err }
}

/** writePrivateFile with blocking calls, for the process-exit flush where no async work runs any more. */
export function writePrivateFileSync (file: string, data: string | Buffer): void {
  const tmp = tempName(file)
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, FILE_MODE)
  try {
    const buf = typeof data === 'string' ? Buffer.from(data) : data
    for (let off = 0; off < buf.length;) off += writeSync(fd, buf, off, buf.length - off)
    if (!WINDOWS) fchmodSync(fd, FILE_MODE)
    fsyncSync(fd)
  } catch (err) {
    closeSync(fd)
    rmSync(tmp, { force: true })
    throw err
  }
  closeSync(fd)
  renameSync(tmp, file)
}

// Windows may refuse a rename while another process (an antivirus, an editor) holds the target open.
async function renameRetry (from: string, to: string): Promise<void> {
  for (let i = 0; ; i++) {
    try { await rename(from, to); return } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      if (!WINDOWS || i >= 5 || (code !== 'EPERM' && code !== 'EBUSY' && code !== 'EACCES')) throw err
      await new Promise((resolve) => setTimeout(resolve, 20 * (i + 1)))
    }
  }
}

/**
 * Writes whole files through writePrivateFile, one at a time per file; writes asked for while one runs
 * collapse into one write of the latest data, and every caller resolves once its data (or newer) is on
 * disk. Same coalescing as lowdb's steno writer, with private, never-followed files.
 */
export class CoalescingWriter {
  private running = false
  private next: { data: string; waiters: Array<{ resolve: () => void; reject: (err: unknown) => void }> } | undefined

  constructor (readonly file: string, private readonly opts: { sync?: boolean } = {}) {}

  write (data: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (this.next) { this.next.data = data; this.next.waiters.push({ resolve, reject }) } else this.next = { data, waiters: [{ resolve, reject }] }
      if (!this.running) void this.loop()
    })
  }

  private async loop (): Promise<void> {
    this.running = true
    while (this.next) {
      const job = this.next
      this.next = undefined
      try {
        await writePrivateFile(this.file, job.data, this.opts)
        for (const w of job.waiters) w.resolve()
      } catch (err) {
        for (const w of job.waiters) w.reject(err)
      }
    }
    this.running = false
  }
}

/** Moves a refused or corrupt path aside (the link itself, never its target); returns the new name. */
export async function moveAside (file: string, tag: string, now: number): Promise<string | undefined> {
  const aside = join(dirname(file), `${basename(file)}.${tag}-${now}`)
  try { await rename(file, aside); return aside } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
}

// Temp files of this module (`.<name>.<pid>.<hex>.tmp`), of the config writer (`.<name>.<pid>.tmp`) and
// of lowdb's steno writer used before (`.<name>.tmp`), and of the old stats exit flush (`<name>.<pid>.exit.tmp`).
const TEMP = /^\..+?(?:\.(\d+))?(?:\.[0-9a-f]{8})?\.tmp$|^[^.].*\.(\d+)\.exit\.tmp$/

function alive (pid: number): boolean {
  if (pid === process.pid) return true
  try { process.kill(pid, 0); return true } catch (err) { return (err as NodeJS.ErrnoException).code === 'EPERM' }
}

export interface PrepareReport { tightened: string[]; removed: string[]; links: string[] }

/**
 * Start-up pass over the data folder (and the folder of the user's config file): folders become
 * 0700 and files lose any group/other permission (0600 for what the plugin writes); temp files left by
 * a crashed writer (their process is gone) are removed. Symlinks are never followed, only reported.
 */
export async function prepareDataFolders (dataDir: string, opts: { configFile?: string; maxEntries?: number } = {}): Promise<PrepareReport> {
  const report: PrepareReport = { tightened: [], removed: [], links: [] }
  await ensurePrivateDir(dataDir, { allowLink: true })
  let budget = opts.maxEntries ?? 20_000
  const visit = async (dir: string, depth: number, tempsOnly: boolean): Promise<void> => {
    let entries: import('node:fs').Dirent[]
    try { entries = await readdir(dir, { withFileTypes: true }) } catch { return }
    for (const e of entries) {
      if (--budget < 0) return
      const p = join(dir, e.name)
      if (e.isSymbolicLink()) { if (!tempsOnly) report.links.push(p); continue }
      if (e.isFile() && TEMP.test(e.name)) {
        const m = TEMP.exec(e.name)
        const pid = Number(m?.[1] ?? m?.[2] ?? NaN)
        if (Number.isNaN(pid) || !alive(pid)) { await rm(p, { force: true }).catch(() => undefined); report.removed.push(p) }
        continue
      }
      if (tempsOnly || WINDOWS) continue
      if (e.isDirectory() && (depth < 8 && e.name !== 'node_modules')) {
        await tighten(p, report)
        await visit(p, depth + 1, false)
      } else if (e.isFile()) await tighten(p, report)
    }
  }
  await visit(dataDir, 0, false)
  if (opts.configFile) {
    const cfgDir = dirname(opts.configFile)
    if (cfgDir !== dataDir) await visit(cfgDir, 0, true)
    if (!WINDOWS && cfgDir !== dataDir) {
      const st = await lstatOrUndefined(opts.configFile)
      if (st?.isFile()) await tighten(opts.configFile, report)
    }
  }
  return report
}

async function tighten (p: string, report: PrepareReport): Promise<void> {
  try {
    const st = await lstat(p)
    if ((st.mode & 0o077) === 0) return
    await chmod(p, st.mode & 0o700)
    report.tightened.push(p)
  } catch { /* gone meanwhile, or not ours: never stop the start */ }
}

/** prepareDataFolders at start, logged: what was tightened or removed, and symlinks found (never followed). */
/** What secureDataFolders reports through: the plugin logger (lib/core/logger.ts), which itself writes through this module. */
export interface FolderLog {
  info (message: string, meta?: Record<string, unknown>): void
  warn (message: string, meta?: Record<string, unknown>): void
  error (message: string, meta?: Record<string, unknown>, err?: unknown): void
}

export async function secureDataFolders (dataDir: string, configFile: string, log: FolderLog): Promise<void> {
  try {
    const r = await prepareDataFolders(dataDir, { configFile })
    if (r.tightened.length) log.info(`Made ${r.tightened.length} file(s) and folder(s) in the data folder private (owner only)`)
    if (r.removed.length) log.info(`Removed ${r.removed.length} temp file(s) left by an interrupted write`, { files: r.removed.map((f) => basename(f)) })
    if (r.links.length) log.warn(`Symbolic link(s) in the data folder are never followed; a store found one in its place moves it aside`, { links: r.links.map((f) => f.slice(dataDir.length + 1)) })
  } catch (err) {
    log.error('Could not check the data folder permissions', {}, err)
  }
}
