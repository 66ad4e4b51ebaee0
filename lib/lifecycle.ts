// The plugin's single running instance inside the host process. Bot commands reach the services
// through `running()`; the first plugin class's init() starts it.
import type { Runtime } from './runtime.js'

export interface Running { rt: Runtime; baseUrls(): string[]; localUrl: string; stop(): Promise<void> }

let starter: (() => Promise<Running>) | undefined
let current: Promise<Running> | undefined

/** index.ts registers how to start (it owns the web layer); lib stays free of HTTP. */
export function setStarter (fn: () => Promise<Running>): void { starter = fn }

export function ensureStarted (): Promise<Running> {
  if (!starter) return Promise.reject(new Error('lingxi starter not registered'))
  if (!current) {
    current = starter()
    current.catch(() => { current = undefined })
  }
  return current
}

/** The running instance, if started. */
export function running (): Promise<Running> | undefined { return current }

export async function stopRunning (): Promise<void> {
  const c = current
  current = undefined
  if (c) await (await c).stop()
}
