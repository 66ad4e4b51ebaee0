// Plugin instances sharing one PostgreSQL (tests/storage/pg-*.test.ts, lib/storage/README.md): started with
// LINGXI_DATABASE_URL set for them only (startTestServer passes process.env, with its own LINGXI_DATA_DIR,
// to the plugin), and waits for what another instance's change brings. The waits are for a state, with a
// generous bound (10 s): how fast a change arrives is a benchmark figure (bench/storage.bench.ts), and a
// loaded machine once took more than 2 s.
import sinon from 'sinon'
import type { Clock } from '../../lib/core/clock.js'
import { startTestServer, type TestServer } from './server.js'

const WAIT_MS = 10_000

/** Runs `start` with LINGXI_DATABASE_URL = `url`, then restores the environment. */
export async function withDatabase<T> (url: string, start: () => Promise<T>): Promise<T> {
  const saved = process.env.LINGXI_DATABASE_URL
  process.env.LINGXI_DATABASE_URL = url
  try {
    return await start()
  } finally {
    if (saved === undefined) delete process.env.LINGXI_DATABASE_URL
    else process.env.LINGXI_DATABASE_URL = saved
  }
}

/** Two plugin instances, each with its own data folder, on the database at `url`. */
export function startTwoOn (url: string): Promise<[TestServer, TestServer]> {
  return withDatabase(url, async () => [await startTestServer(), await startTestServer()])
}

/**
 * Resolves with the ms until the first event `subscribe` reports for which `match` holds (an `onRemote`
 * of a store or service, a bus event); fails after `ms`.
 */
export function whenRemote<A extends unknown[]> (subscribe: (listener: (...args: A) => void) => () => void, match: (...args: A) => boolean, ms = WAIT_MS): Promise<number> {
  const start = performance.now()
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { off(); reject(new Error(`no matching change within ${ms} ms`)) }, ms)
    const off = subscribe((...args) => {
      if (!match(...args)) return
      clearTimeout(timer)
      off()
      resolve(performance.now() - start)
    })
  })
}

/** Resolves once `ok()` holds: checked now and after each change `subscribe` reports; fails after `ms`. */
export function until (subscribe: (listener: () => void) => () => void, ok: () => boolean, ms = WAIT_MS): Promise<void> {
  if (ok()) return Promise.resolve()
  return whenRemote(subscribe, ok, ms).then(() => undefined)
}

/**
 * A fake clock of one "instance" (services on a shared database, each its own time), installed on a context
 * object rather than the process's timers: pg keeps the real ones. Promise: for tickAsync.
 */
export function instanceClock (now: number): { fake: sinon.SinonFakeTimers; clock: Clock } {
  const own = { setTimeout, clearTimeout, setInterval, clearInterval, Date, Promise }
  // sinon takes `global` (fake-timers' withGlobal); its types do not list it
  const config = { now, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'], global: own }
  const fake = sinon.useFakeTimers(config as Parameters<typeof sinon.useFakeTimers>[0])
  return {
    fake,
    clock: {
      now: () => fake.now,
      setTimeout: (fn, ms) => fake.setTimeout(fn, ms) as unknown as NodeJS.Timeout,
      clearTimeout: (t) => fake.clearTimeout(t as unknown as number),
      setInterval: (fn, ms) => fake.setInterval(fn, ms) as unknown as NodeJS.Timeout,
      clearInterval: (t) => fake.clearInterval(t as unknown as number)
    }
  }
}
