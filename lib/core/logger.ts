// The plugin's logger: forwards to the host logger, keeps recent entries in memory for /api/logs,
// appends to a daily file in the data folder, and publishes each entry on the event bus. Every part of
// an entry (message, meta, error text, stack) passes the redactor first (lib/core/redact.ts).
import { join } from 'node:path'
import type { HostLogger } from '../host/types.js'
import { type Clock, systemClock } from './clock.js'
import type { EventBus, LogEntry } from './event-bus.js'
import { appendPrivateFile, ensurePrivateDir } from './private-file.js'
import { redact, redactDeep } from './redact.js'
import { RingBuffer } from './ring-buffer.js'

export type LogLevel = LogEntry['level']
export const LOG_LEVELS: readonly LogLevel[] = ['error', 'warn', 'info', 'debug']

export interface ErrorEntry {
  timestamp: string
  error: string
  stack: string
  context: Record<string, unknown>
}

export interface LoggerOptions {
  host: () => HostLogger
  bus: EventBus
  logsDir?: string
  clock?: Clock
  capacity?: number
  debug?: () => boolean
}

const PREFIX = '[灵犀]'

export class PluginLogger {
  private readonly entries: RingBuffer<LogEntry>
  private readonly errorEntries: RingBuffer<ErrorEntry>
  private readonly clock: Clock
  private pendingFile: Promise<void> = Promise.resolve()

  constructor (private readonly opts: LoggerOptions) {
    this.entries = new RingBuffer(opts.capacity ?? 2000)
    this.errorEntries = new RingBuffer(500)
    this.clock = opts.clock ?? systemClock
  }

  error (rawMessage: string, rawMeta: Record<string, unknown> = {}, err?: unknown): void {
    const message = redact(rawMessage)
    const meta = redactDeep(rawMeta)
    const errMessage = err instanceof Error ? redact(err.message) : ''
    const withErr = err instanceof Error ? { ...meta, error: errMessage } : meta
    this.write('error', message, withErr, err instanceof Error && err.stack ? redact(err.stack) : undefined)
    this.errorEntries.push({
      timestamp: new Date(this.clock.now()).toISOString(),
      error: err instanceof Error ? `${message}: ${errMessage}` : message,
      // Clients get the error's first line only; the full trace (with internal paths) goes to the log file.
      stack: err instanceof Error ? `${err.name}: ${errMessage}` : '',
      context: meta
    })
  }

  warn (message: string, meta: Record<string, unknown> = {}): void { this.write('warn', message, meta) }
  info (message: string, meta: Record<string, unknown> = {}): void { this.write('info', message, meta) }
  debug (message: string, meta: Record<string, unknown> = {}): void { this.write('debug', message, meta) }

  /** Recent entries, newest first, filtered. */
  query (q: { level?: LogLevel; limit?: number; before?: number } = {}): LogEntry[] {
    const rank = q.level ? LOG_LEVELS.indexOf(q.level) : LOG_LEVELS.length - 1
    const out: LogEntry[] = []
    const all = this.entries.toArray()
    for (let i = all.length - 1; i >= 0 && out.length < (q.limit ?? 100); i--) {
      const e = all[i] as LogEntry
      if (LOG_LEVELS.indexOf(e.level) > rank) continue
      if (q.before !== undefined && Date.parse(e.timestamp) >= q.before) continue
      out.push(e)
    }
    return out
  }

  errors (limit = 100): ErrorEntry[] {
    return this.errorEntries.toArray().reverse().slice(0, limit)
  }

  /** Resolves when every line written so far reached the log file. */
  flush (): Promise<void> { return this.pendingFile }

  /** `stack` goes to the host console and the log file only, never to the ring buffer clients read. */
  private write (level: LogLevel, rawMessage: string, rawMeta: Record<string, unknown>, stack?: string): void {
    const message = redact(rawMessage)
    const meta = redactDeep(rawMeta)
    const entry: LogEntry = { timestamp: new Date(this.clock.now()).toISOString(), level, message, meta }
    this.entries.push(entry)
    this.opts.bus.emit('log', entry)
    const host = this.opts.host()
    const line = (Object.keys(meta).length ? `${PREFIX} ${message} ${safeJson(meta)}` : `${PREFIX} ${message}`) + (stack ? `\n${stack}` : '')
    if (level === 'debug') { if (this.opts.debug?.()) host.info(line); else host.debug(line) } else host[level](line)
    if (this.opts.logsDir) this.appendToFile(entry, stack)
  }

  private appendToFile (entry: LogEntry, stack?: string): void {
    const dir = this.opts.logsDir as string
    const file = join(dir, `lingxi-${entry.timestamp.slice(0, 10)}.log`)
    const text = `${entry.timestamp} [${entry.level.toUpperCase()}] ${entry.message}${Object.keys(entry.meta).length ? ' ' + safeJson(entry.meta) : ''}\n${stack ? stack.replace(/^/gm, '    ') + '\n' : ''}`
    this.pendingFile = this.pendingFile
      // Private (0600 in a 0700 folder) and never appended through a planted symlink.
      .then(() => ensurePrivateDir(dir))
      .then(() => appendPrivateFile(file, text))
      .catch(() => { /* a log file we cannot write must never break the plugin */ })
  }
}

function safeJson (v: unknown): string {
  try { return JSON.stringify(v) } catch { return '[unserializable]' }
}
