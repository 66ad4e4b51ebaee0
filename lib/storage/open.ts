// Opens a domain's record store on the port (lib/storage/README.md): the embedded files of the data folder
// (`<dataDir>/<name>.json` + its journal, lib/core/journal-store.ts) when no database address is set, else
// the store `<name>` in PostgreSQL. The domain gets a RecordStore either way.
import { join } from 'node:path'
import { JournalStore, type JournalStoreOptions } from '../core/journal-store.js'
import type { PluginLogger } from '../core/logger.js'
import { PgRecordStore } from './pg/record-store.js'
import { urlPassword } from './pg/pool.js'
import { journalAsRecords, type RecordStore } from './records.js'
import { databaseUrl } from './settings.js'

/** What opening a store needs of the runtime (rt itself fits). */
export interface RecordsDeps {
  paths: { dataDir: string }
  config: { get(): { storage: { database: { url: string } } } }
  log: PluginLogger
  clock: { now(): number }
  redactor?: { set(source: string, values: Iterable<unknown>): void }
  /** Where LINGXI_DATABASE_URL is read (default process.env). */
  env?: NodeJS.ProcessEnv
}

/** Which engine serves the stores: 'files' or 'postgres' (with the address, to be shown redacted). */
function storageKind (deps: Pick<RecordsDeps, 'config' | 'env'>): { kind: 'files' } | { kind: 'postgres'; url: string } {
  const url = databaseUrl(deps.env ?? process.env, deps.config.get().storage)
  return url ? { kind: 'postgres', url } : { kind: 'files' }
}

export async function openRecords<R extends object, K extends string | number, M extends object = Record<string, never>> (
  deps: RecordsDeps, name: string, opts: Omit<JournalStoreOptions<R, K, M>, 'log' | 'now'>
): Promise<RecordStore<R, K, M>> {
  const where = storageKind(deps)
  if (where.kind === 'files') {
    return journalAsRecords(await JournalStore.open<R, K, M>(join(deps.paths.dataDir, `${name}.json`), { ...opts, log: deps.log, now: () => deps.clock.now() }))
  }
  // the password of an address from the environment is not in the config the redactor reads
  const password = urlPassword(where.url)
  if (password) deps.redactor?.set('storage.database', [password])
  return PgRecordStore.open<R, K, M>(where.url, name, { key: opts.key, ...(opts.meta ? { meta: opts.meta } : {}), log: deps.log })
}
