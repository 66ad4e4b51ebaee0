// Login links made in a terminal (`npm run login-link`, scripts/login-link.ts) for when the bot does not
// answer `#lx面板`. The script runs in another process and cannot reach the plugin's tokens, so it leaves a
// one-time token in the data folder: a private file named by the token's SHA-256 (the name alone logs
// nobody in, so a listing or a backup of the folder leaks no link), holding its expiry. The plugin takes it
// at login: removing the file is the single use (one remover wins, on Windows too; no signal, no watcher).
// Only who can write the data folder can make a link: the owner of the machine, who can read the
// session secret there anyway. The running web server publishes its addresses next to it (address.json),
// so the script prints the links `#lx面板` sends and can tell when no plugin runs.
import { createHash, randomBytes } from 'node:crypto'
import { readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { type Clock } from '../core/clock.js'
import { ensurePrivateDir, readPrivateFile, writePrivateFile } from '../core/private-file.js'

/** The folder inside the data folder (lib/core/paths.ts) shared by the script and the plugin. */
const LINK_DIR = 'login-links'
const ADDRESS_FILE = 'address.json'
const TOKEN_FILE = /^[0-9a-f]{64}\.json$/
/** The form of every login token (32 random bytes, base64url), checked before any file is touched. */
const TOKEN_FORM = /^[A-Za-z0-9_-]{43}$/

/** Who a terminal link logs in as: the owner at the machine (sessions and the log show this id). */
export const TERMINAL_USER = 'terminal'

/** What the running web server publishes for the script. */
export interface DashboardAddress {
  /** The loopback address, probed by the script to tell a running plugin from a stale file. */
  localUrl: string
  /** Login addresses, best first (the web server's baseUrls(), as `#lx面板` uses them). */
  urls: string[]
}

const dirOf = (dataDir: string): string => join(dataDir, LINK_DIR)
const fileOf = (dataDir: string, token: string): string =>
  join(dirOf(dataDir), `${createHash('sha256').update(token).digest('hex')}.json`)

export async function publishAddress (dataDir: string, address: DashboardAddress): Promise<void> {
  await ensurePrivateDir(dirOf(dataDir))
  await writePrivateFile(join(dirOf(dataDir), ADDRESS_FILE), JSON.stringify(address), { sync: false })
}

export async function withdrawAddress (dataDir: string): Promise<void> {
  await rm(join(dirOf(dataDir), ADDRESS_FILE), { force: true })
}

/** The published address; undefined when no web server has published one (or the file is not ours). */
export async function readAddress (dataDir: string): Promise<DashboardAddress | undefined> {
  let raw: Buffer | undefined
  try { raw = await readPrivateFile(join(dirOf(dataDir), ADDRESS_FILE)) } catch { return undefined }
  if (!raw) return undefined
  try {
    const v = JSON.parse(raw.toString('utf8')) as Partial<DashboardAddress>
    if (typeof v.localUrl !== 'string' || !Array.isArray(v.urls)) return undefined
    return { localUrl: v.localUrl, urls: v.urls.filter((u): u is string => typeof u === 'string') }
  } catch { return undefined }
}

/** Writes a fresh one-time token for the plugin to take (the script's side). */
export async function writeLinkToken (dataDir: string, now: number, ttlMs: number): Promise<{ token: string; expiresAt: number }> {
  const token = randomBytes(32).toString('base64url')
  const expiresAt = now + ttlMs
  await ensurePrivateDir(dirOf(dataDir))
  await writePrivateFile(fileOf(dataDir, token), JSON.stringify({ expiresAt }))
  return { token, expiresAt }
}

/** The plugin's side: takes a terminal token once, within its lifetime by the plugin's clock. */
export class TerminalLinks {
  constructor (private readonly dataDir: string, private readonly clock: Clock, private readonly ttlMs: number) {}

  /** True once for a token the script wrote and that has not expired; the file is gone afterwards. */
  async take (token: string): Promise<boolean> {
    if (!TOKEN_FORM.test(token)) return false
    const file = fileOf(this.dataDir, token)
    const expiresAt = await this.expiryOf(file)
    if (expiresAt === undefined) return false
    try { await rm(file) } catch { return false } // another login removed it first: used
    await this.prune()
    const now = this.clock.now()
    // A file promising more than one lifetime was not written by the script: refused.
    return expiresAt > now && expiresAt <= now + this.ttlMs
  }

  private async expiryOf (file: string): Promise<number | undefined> {
    let raw: Buffer | undefined
    try { raw = await readPrivateFile(file) } catch { return undefined } // a symlink or not a file
    if (!raw) return undefined
    try {
      const v = JSON.parse(raw.toString('utf8')) as { expiresAt?: unknown }
      return typeof v.expiresAt === 'number' ? v.expiresAt : -1
    } catch { return -1 } // unreadable: removed like an expired one
  }

  /** Links never used are removed once expired, at the next terminal login. */
  private async prune (): Promise<void> {
    let names: string[]
    try { names = await readdir(dirOf(this.dataDir)) } catch { return }
    const now = this.clock.now()
    for (const name of names) {
      if (!TOKEN_FILE.test(name)) continue
      const file = join(dirOf(this.dataDir), name)
      const expiresAt = await this.expiryOf(file)
      if (expiresAt !== undefined && expiresAt <= now) await rm(file, { force: true }).catch(() => undefined)
    }
  }
}
