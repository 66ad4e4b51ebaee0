// In-process publish/subscribe between domains and the live streams (system events, skills SSE, logs).
import { EventEmitter } from 'node:events'
import { redactDeep } from './redact.js'

export interface BusEvents {
  /** Every plugin log entry (feeds the live log tail). */
  log: [entry: LogEntry]
  /** System stream events (docs/api.md, Server-sent events): status, metric, error, channel. */
  system: [name: 'status' | 'metric' | 'error' | 'channel', data: unknown]
  /** Events of /api/skills/sse (docs/api.md; variant B names; A names are derived by the route). */
  skills: [name: string, data: Record<string, unknown>]
  /** The configuration changed; `paths` are the dotted paths that changed. */
  config: [paths: string[]]
  /** The plugin is stopping: close streams. */
  stopping: []
}

export interface LogEntry {
  timestamp: string
  level: 'error' | 'warn' | 'info' | 'debug'
  message: string
  meta: Record<string, unknown>
}

export class EventBus {
  private readonly ee = new EventEmitter()
  constructor () { this.ee.setMaxListeners(0) }

  on<K extends keyof BusEvents>(name: K, fn: (...args: BusEvents[K]) => void): () => void {
    const listener = fn as (...args: unknown[]) => void
    this.ee.on(name, listener)
    return () => { this.ee.off(name, listener) }
  }

  /** Payloads of the streamed events (log, system, skills) pass the redactor: they reach clients. */
  emit<K extends keyof BusEvents>(name: K, ...args: BusEvents[K]): void {
    if (name === 'config' || name === 'stopping') this.ee.emit(name, ...args)
    else this.ee.emit(name, ...args.map((a) => redactDeep(a)))
  }

  listenerCount (name: keyof BusEvents): number {
    return this.ee.listenerCount(name)
  }
}
