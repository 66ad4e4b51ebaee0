// Which Redis this instance shares its short-lived state through (lib/storage/README.md, "Redis"): the
// environment's LINGXI_REDIS_URL wins over storage.redis.url, so the password can stay out of config.yaml.
// 'host' is the Yunzai host's own Redis (lib/storage/redis/host.ts reads its address); '' is none.

export type RedisSetting =
  | { kind: 'none' }
  | { kind: 'host'; from: RedisSource }
  | { kind: 'url'; url: string; from: RedisSource }

export type RedisSource = 'LINGXI_REDIS_URL' | 'storage.redis.url'

export function redisSetting (env: NodeJS.ProcessEnv, configured: string): RedisSetting {
  const fromEnv = env.LINGXI_REDIS_URL?.trim()
  const value = fromEnv ? fromEnv : configured.trim()
  const from: RedisSource = fromEnv ? 'LINGXI_REDIS_URL' : 'storage.redis.url'
  if (!value) return { kind: 'none' }
  if (value === 'host') return { kind: 'host', from }
  return { kind: 'url', url: value, from }
}

/** The address without its user and password: what logs, errors and the API may show. */
export function maskedRedisUrl (url: string): string {
  try {
    const u = new URL(url)
    return `${u.protocol}//${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname && u.pathname !== '/' ? u.pathname : ''}`
  } catch {
    return 'an unreadable Redis address'
  }
}

/** The password in the address, for the redactor (it masks it wherever it would appear). */
export function redisPassword (url: string): string | undefined {
  try { return decodeURIComponent(new URL(url).password) || undefined } catch { return undefined }
}
