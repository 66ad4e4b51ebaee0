// Validation of server names and configs, with the messages of docs/api.md (Errors): `name is required`,
// `Unsupported server type: {type}`.
import { isReservedName, reservedNameMessage } from '../core/dict.js'
import { AppError } from '../core/errors.js'
import { checkType, SERVER_NAME, SERVER_NAME_MESSAGE, serverConfigSchema, withInferredType, type ServerConfig } from './types.js'

/** Validates a raw server config (any accepted spelling) into a typed one; throws INVALID_ARGS. */
export function validateServerConfig (raw: unknown): ServerConfig {
  const withType = withInferredType(raw)
  const t = checkType(withType)
  if (!t.ok) throw new AppError('INVALID_ARGS', t.message)
  const r = serverConfigSchema.safeParse(withType)
  if (!r.success) {
    const i = r.error.issues[0]
    const path = i?.path.map(String).join('.')
    throw new AppError('INVALID_ARGS', i ? (path && !i.message.startsWith(path) ? `${path}: ${i.message}` : i.message) : 'Invalid server config',
      { errors: r.error.issues.map((x) => ({ path: x.path.map(String).join('.'), message: x.message })) })
  }
  return r.data
}

export function validateServerName (name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '') throw new AppError('INVALID_ARGS', 'name is required')
  if (!SERVER_NAME.test(name)) throw new AppError('INVALID_ARGS', SERVER_NAME_MESSAGE)
  // server names are keys of the mcp.servers record
  if (isReservedName(name)) throw new AppError('INVALID_ARGS', reservedNameMessage(name))
  return name
}
