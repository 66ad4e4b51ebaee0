// In-process publish/subscribe between domains and the live streams (system events, skills SSE, logs).
import { EventEmitter } from 'node:events'

export interface BusEvents {
  /** Every plugin log entry (feeds the live log tail). */
  log: [entry: LogEntry]
  /** System stream events of spec 6.1: status, metric, error, channel. */
  system: [name: 'status' | 'metric' | 'error' | 'channel', data: unknown]
  /** Skills/tools stream events of spec 6.2 (variant B names; A names are derived by the route). */
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

  emit<K extends keyof BusEvents>(name: K, ...args: BusEvents[K]): void {
    this.ee.emit(name, ...args)
  }

  listenerCount (name: keyof BusEvents): number {
    return this.ee.listenerCount(name)
  }
}
