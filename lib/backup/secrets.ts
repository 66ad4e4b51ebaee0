// Which values of the configuration are secrets (the same rule as their masking, lib/config/secrets.ts:
// apiKey/key/token/password… keys, env and header maps, addresses holding a password) and putting them back
// into an exported configuration. A backup without secrets holds the configuration as exported, secrets
// masked; restored, a masked value keeps the secret in use (lib/config/README.md).
import { Document, parseDocument } from 'yaml'
import { isSecretKey, isSecretMap, maskUrlPassword } from '../config/secrets.js'

type SecretPath = Array<string | number>
interface SecretValue { path: SecretPath; value: string }
/** The secrets a sealed entry holds: the configuration's and the data folder's secret files. */
export interface SecretsPayload { config: SecretValue[]; files: Array<{ path: string; data: string }> }

/** Every secret string of `config` with its path (no values are logged or answered: they go into the sealed entry only). */
export function configSecrets (config: unknown): SecretValue[] {
  const out: SecretValue[] = []
  const walk = (v: unknown, path: SecretPath, inMap: boolean): void => {
    if (Array.isArray(v)) { v.forEach((x, i) => walk(x, [...path, i], false)); return }
    if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        if (typeof x === 'string') {
          if (x && (inMap || isSecretKey(k) || maskUrlPassword(x) !== undefined)) out.push({ path: [...path, k], value: x })
        } else walk(x, [...path, k], isSecretMap(k))
      }
    }
  }
  walk(config, [], false)
  return out
}

/** The exported YAML with the secrets set at their paths (comments kept). */
export function withSecrets (yaml: string, secrets: readonly SecretValue[]): string {
  const doc: Document = parseDocument(yaml)
  for (const s of secrets) doc.setIn(s.path, s.value)
  return String(doc)
}
