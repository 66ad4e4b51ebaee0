// Which shared engines this instance uses (lib/storage/README.md): the environment wins over the `storage`
// section of config.yaml, so an owner can keep a password out of the file and give each copy its own.

/** The PostgreSQL address in use: LINGXI_DATABASE_URL, else storage.database.url; undefined = the embedded files. */
export function databaseUrl (env: NodeJS.ProcessEnv, storage: { database: { url: string } } | undefined): string | undefined {
  const fromEnv = env.LINGXI_DATABASE_URL?.trim()
  if (fromEnv) return fromEnv
  const fromConfig = storage?.database.url.trim()
  return fromConfig || undefined
}
