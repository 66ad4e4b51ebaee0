// The backup service (lib/backup/README.md): makes backups (downloaded, scheduled, before a restore),
// lists and trims the kept ones, previews a file, and restores: at once when nothing runs (the terminal
// command), or staged in the data folder and applied at the next start of the runtime, before any domain
// opens a store (the backup domain starts first).
import { randomUUID } from 'node:crypto'
import { copyFile, mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Clock } from '../core/clock.js'
import { AppError, badRequest, notFound } from '../core/errors.js'
import type { PluginLogger } from '../core/logger.js'
import { ensurePrivateDir, writePrivateFile } from '../core/private-file.js'
import { applyBackup, type Applied, type RestoreTarget } from './apply.js'
import { checkBackup, type Checked } from './check.js'
import { writeBackup, type BackupSource } from './collect.js'
import type { Manifest } from './container.js'
import { isPart, PARTS, type Part } from './parts.js'

interface BackupSettings { schedule: string; keep: number; maxUploadMB: number }

export interface BackupDeps extends BackupSource, RestoreTarget {
  clock: Clock
  log: PluginLogger
  settings(): BackupSettings
}

/** A kept backup file: `lingxi-<kind>-<UTC stamp>.jsonl.gz` in <data>/backups/. */
const KEPT = /^lingxi-(auto|pre-restore|manual)-(\d{8}-\d{6})(?:-(\d+))?\.jsonl\.gz$/
export interface KeptBackup { name: string; kind: 'auto' | 'pre-restore' | 'manual'; size: number; createdAt: string }

/** What the preview answers: the manifest, the parts found, whether the secrets are in it (and opened). */
export interface Preview { manifest: Manifest; parts: Part[]; secrets: boolean; secretsOpened: boolean }

/** Parts the running plugin cannot replace under itself: the statistics are held open by the runtime's core (restored by `npm run restore`). */
const OFFLINE_PARTS: readonly Part[] = ['stats']

const stamp = (t: number): string => new Date(t).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)

export class BackupService {
  readonly dir: string
  private timer: NodeJS.Timeout | undefined
  private stopped = false
  private running: Promise<unknown> = Promise.resolve()

  constructor (private readonly deps: BackupDeps) {
    this.dir = join(deps.dataDir, 'backups')
  }

  private get maxUnpacked (): number { return this.deps.settings().maxUploadMB * 1024 * 1024 * 20 }
  get maxUploadBytes (): number { return this.deps.settings().maxUploadMB * 1024 * 1024 }

  /** One backup or restore at a time (they read and write the same stores). */
  private serial<T> (fn: () => Promise<T>): Promise<T> {
    const run = this.running.then(fn, fn)
    this.running = run.catch(() => undefined)
    return run
  }

  /** Makes a backup file. `kind` manual: in backups/.tmp (the route sends it, then removes it); else kept in backups/ and trimmed. */
  create (opts: { kind: Manifest['kind']; passphrase?: string }): Promise<{ name: string; file: string; manifest: Manifest }> {
    if (opts.passphrase !== undefined && opts.passphrase.length < 8) throw badRequest('passphrase must be at least 8 characters')
    return this.serial(async () => {
      const folder = opts.kind === 'manual' ? join(this.dir, '.tmp') : this.dir
      await ensurePrivateDir(this.dir)
      await ensurePrivateDir(folder)
      let name = `lingxi-${opts.kind}-${stamp(this.deps.now())}.jsonl.gz`
      for (let i = 2; await stat(join(folder, name)).then(() => true, () => false); i++) name = `lingxi-${opts.kind}-${stamp(this.deps.now())}-${i}.jsonl.gz`
      const file = join(folder, name)
      // written under another name, then renamed: a backup listed or downloaded is whole
      const manifest = await writeBackup(`${file}.part`, this.deps, opts)
      await rename(`${file}.part`, file)
      if (opts.kind !== 'manual') await this.trim(opts.kind)
      this.deps.log.info('Backup made', { name, kind: opts.kind, entries: manifest.entries, secrets: manifest.secrets })
      return { name, file, manifest }
    })
  }

  /** The kept backups, newest first. */
  async list (): Promise<KeptBackup[]> {
    const names = await readdir(this.dir).catch(() => [] as string[])
    const out: KeptBackup[] = []
    for (const name of names) {
      const m = KEPT.exec(name)
      if (!m || m[1] === 'manual') continue
      const s = await stat(join(this.dir, name)).catch(() => undefined)
      if (!s?.isFile()) continue
      const t = m[2] as string
      out.push({ name, kind: m[1] as KeptBackup['kind'], size: s.size, createdAt: `${t.slice(0, 4)}-${t.slice(4, 6)}-${t.slice(6, 8)}T${t.slice(9, 11)}:${t.slice(11, 13)}:${t.slice(13, 15)}Z` })
    }
    return out.sort((a, b) => b.name.localeCompare(a.name, 'en', { numeric: true }))
  }

  /** The path of a kept backup by its name (404 for any other name: no path is built from one). */
  async fileOf (name: string): Promise<string> {
    const kept = (await this.list()).find((b) => b.name === name)
    if (!kept) throw notFound(`No kept backup is named ${name.slice(0, 80)}`)
    return join(this.dir, kept.name)
  }

  /** Keeps the newest `backup.keep` of a kind. */
  private async trim (kind: Manifest['kind']): Promise<void> {
    const keep = this.deps.settings().keep
    const old = (await this.list()).filter((b) => b.kind === kind).slice(keep)
    for (const b of old) await rm(join(this.dir, b.name), { force: true })
  }

  /** Checks a whole file and says what it holds; with a passphrase, also that it opens the secrets. */
  async preview (file: string, passphrase?: string): Promise<Preview> {
    const c = await checkBackup(file, this.maxUnpacked, passphrase)
    return { manifest: c.manifest, parts: c.parts, secrets: c.manifest.secrets, secretsOpened: c.secrets !== undefined }
  }

  private choose (c: Checked, parts: readonly string[] | undefined, offline: boolean): Part[] {
    for (const p of parts ?? []) if (!isPart(p)) throw badRequest(`Unknown part ${p.slice(0, 40)}; the parts are ${PARTS.join(', ')}`)
    const wanted = (parts ?? c.parts.filter((p) => offline || !OFFLINE_PARTS.includes(p))) as Part[]
    const refused = offline ? [] : wanted.filter((p) => OFFLINE_PARTS.includes(p))
    if (refused.length) throw badRequest(`${refused.join(', ')} cannot be restored while the plugin runs: stop the bot and run npm run restore -- <file> in the plugin folder`)
    return wanted
  }

  private async open (file: string, passphrase: string | undefined): Promise<Checked> {
    const c = await checkBackup(file, this.maxUnpacked, passphrase)
    if (passphrase !== undefined && !c.manifest.secrets) throw badRequest('This backup holds no secrets: send no passphrase')
    return c
  }

  /**
   * Restores from the terminal (nothing running): checks the file, backs up the current state (kind
   * pre-restore), then replaces the chosen parts.
   */
  restoreNow (file: string, opts: { parts?: readonly string[]; passphrase?: string }): Promise<Applied & { before: string }> {
    return this.serial(async () => {
      const c = await this.open(file, opts.passphrase)
      const parts = this.choose(c, opts.parts, true)
      const before = await this.createUnserialised('pre-restore')
      const applied = await applyBackup(file, this.deps, { parts, maxUnpacked: this.maxUnpacked, ...(c.secrets ? { secrets: c.secrets } : {}) })
      this.deps.log.info('Backup restored', { parts: applied.parts.join(','), records: applied.records, files: applied.files })
      return { ...applied, before }
    })
  }

  private async createUnserialised (kind: 'pre-restore'): Promise<string> {
    await ensurePrivateDir(this.dir)
    let name = `lingxi-${kind}-${stamp(this.deps.now())}.jsonl.gz`
    for (let i = 2; await stat(join(this.dir, name)).then(() => true, () => false); i++) name = `lingxi-${kind}-${stamp(this.deps.now())}-${i}.jsonl.gz`
    await writeBackup(join(this.dir, `${name}.part`), this.deps, { kind })
    await rename(join(this.dir, `${name}.part`), join(this.dir, name))
    await this.trim(kind)
    return name
  }

  private get pendingDir (): string { return join(this.dir, 'restore-pending') }

  /**
   * Restores from the running plugin: checks the file, backs up the current state, then stages the file and
   * the chosen parts (with the opened secrets, in a private file like config.yaml itself) in
   * <data>/backups/restore-pending/; the runtime's next start applies them before any store opens.
   */
  stageRestore (file: string, opts: { parts?: readonly string[]; passphrase?: string }): Promise<{ before: string; parts: Part[] }> {
    return this.serial(async () => {
      const c = await this.open(file, opts.passphrase)
      const parts = this.choose(c, opts.parts, false)
      const before = await this.createUnserialised('pre-restore')
      await rm(this.pendingDir, { recursive: true, force: true })
      await mkdir(this.pendingDir, { recursive: true, mode: 0o700 })
      await copyFile(file, join(this.pendingDir, 'backup.jsonl.gz'))
      await writePrivateFile(join(this.pendingDir, 'plan.json'), JSON.stringify({ id: randomUUID(), parts, ...(c.secrets ? { secrets: c.secrets } : {}) }))
      this.deps.log.info('Restore staged: it is applied at the next start', { parts: parts.join(','), before })
      return { before, parts }
    })
  }

  /** Applies a staged restore (at start, before the stores open); a broken one is logged and set aside, never half-applied. */
  async applyPending (): Promise<Applied | undefined> {
    const plan = await readFile(join(this.pendingDir, 'plan.json'), 'utf8').catch(() => undefined)
    if (plan === undefined) return undefined
    const file = join(this.pendingDir, 'backup.jsonl.gz')
    try {
      const p = JSON.parse(plan) as { parts: string[]; secrets?: Checked['secrets'] }
      const c = await checkBackup(file, this.maxUnpacked)
      const parts = this.choose(c, p.parts, false)
      const applied = await applyBackup(file, this.deps, { parts, maxUnpacked: this.maxUnpacked, ...(p.secrets ? { secrets: p.secrets } : {}) })
      this.deps.log.info('Staged restore applied', { parts: applied.parts.join(','), records: applied.records, files: applied.files })
      return applied
    } catch (err) {
      this.deps.log.error('The staged restore could not be applied; the current data is kept', {}, err)
      throw new AppError('INTERNAL_ERROR', 'The staged restore could not be applied', { cause: err })
    } finally {
      await rm(this.pendingDir, { recursive: true, force: true })
    }
  }

  /** Whether a restore waits for the next start. */
  async pending (): Promise<boolean> {
    return stat(join(this.pendingDir, 'plan.json')).then(() => true, () => false)
  }

  /** The next automatic backup on the runtime clock (backup.schedule, local time); none when empty. */
  schedule (): void {
    if (this.timer) this.deps.clock.clearTimeout(this.timer)
    this.timer = undefined
    const at = this.deps.settings().schedule
    if (!at || this.stopped) return
    const [h, m] = at.split(':').map(Number) as [number, number]
    const now = this.deps.clock.now()
    const next = new Date(now)
    next.setHours(h, m, 0, 0)
    if (next.getTime() <= now) next.setDate(next.getDate() + 1)
    this.timer = this.deps.clock.setTimeout(() => {
      this.timer = undefined
      this.create({ kind: 'auto' }).catch((err: unknown) => this.deps.log.error('The automatic backup failed', {}, err)).finally(() => this.schedule())
    }, next.getTime() - now)
  }

  /** Stops the schedule and waits for a backup under way. */
  async stop (): Promise<void> {
    this.stopped = true
    if (this.timer) this.deps.clock.clearTimeout(this.timer)
    this.timer = undefined
    await this.running
  }
}
