// The keys each instance keeps in its own config.yaml when the configuration is shared through PostgreSQL
// (lib/config/README.md, "Shared configuration"): what differs between copies of the plugin on one
// database. The one list; everything else is the shared configuration every instance reads.
import { setOwn } from '../core/dict.js'
import { isPlainObject, type PlainObject } from './object-paths.js'

/**
 * Whole top-level sections, local to an instance:
 * - `web`: its own web server (port, listen address, the host's port, its public address, proxies, origins);
 * - `storage`: the database and Redis addresses it uses and its instance name.
 * The bot accounts are the Yunzai host's own (no key of this schema names them), so each stays local.
 */
export const LOCAL_SECTIONS: readonly string[] = ['web', 'storage']

export const isLocalPath = (path: readonly string[]): boolean => path.length > 0 && LOCAL_SECTIONS.includes(path[0] as string)

/** The local sections of a user configuration object. */
export function onlyLocal (obj: PlainObject): PlainObject {
  const out: PlainObject = {}
  for (const k of LOCAL_SECTIONS) if (isPlainObject(obj[k])) out[k] = obj[k]
  return out
}

/** The user configuration object without its local sections: the shared part. */
export function withoutLocal (obj: PlainObject): PlainObject {
  const out: PlainObject = {}
  for (const [k, v] of Object.entries(obj)) if (!LOCAL_SECTIONS.includes(k)) setOwn(out, k, v)
  return out
}
