// Shared helpers for the standalone host tests (not a spec file; it holds no tests).
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createHost, type Host, type HostOptions } from '../../standalone/host.js'
import type { Profile, StandaloneEvent } from '../../standalone/types.js'

export const FIXTURES = fileURLToPath(new URL('./fixtures/plugins/', import.meta.url))
export const BASIC = join(FIXTURES, 'basic')
export const LOOSE = join(FIXTURES, 'loose')
export const MASTER = '10001'
export const PROFILES: Profile[] = ['miao', 'trss']

interface FixtureState { calls: string[]; events: StandaloneEvent[]; uinAtImport?: unknown }
const g = globalThis as unknown as { __fixture?: FixtureState }

/** What the fixture plugins recorded since the last reset. */
export function fixture(): FixtureState {
  return (g.__fixture ??= { calls: [], events: [] })
}

export function resetFixture(): void {
  g.__fixture = { calls: [], events: [] }
}

/** A started host with the `basic` fixture plugin; cooldowns off unless asked for. */
export async function fixtureHost(profile: Profile, extra: Partial<HostOptions> = {}): Promise<Host> {
  resetFixture()
  const host = createHost({ profile, masters: [MASTER], plugins: { basic: BASIC }, cooldowns: false, ...extra })
  await host.start()
  return host
}

/** The last event the fixture's spy saw. */
export function lastEvent(): StandaloneEvent {
  const e = fixture().events.at(-1)
  if (!e) throw new Error('the spy saw no event')
  return e
}

/** The error a promise rejects with (fails when it resolves). */
export async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p
  } catch (err) {
    return err as Error
  }
  throw new Error('expected a rejection')
}
