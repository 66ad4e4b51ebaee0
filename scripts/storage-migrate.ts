// `npm run storage:migrate -- --to "$LINGXI_DATABASE_URL"`: copies the stores on the storage port from this
// plugin's data folder into PostgreSQL; `--from <url>` copies them back to the files. Prints the records
// read and written per store (they must match; exit 1 when not). A target that already holds records is
// refused unless --force. `--data <dir>` names another data folder (default: as the plugin resolves it,
// LINGXI_DATA_DIR included). Stop the plugin first: it keeps writing its stores while it runs.
// lib/storage/README.md, "Moving the data".
import { parseArgs } from 'node:util'
import { resolvePaths } from '../lib/core/paths.js'
import { copyFromPostgres, copyToPostgres, type StoreCount } from '../lib/storage/copy.js'
import { redactUrl } from '../lib/storage/pg/pool.js'

const USAGE = 'usage: npm run storage:migrate -- --to <postgres url> | --from <postgres url> [--force] [--data <data folder>]'

async function main (): Promise<number> {
  const { values } = parseArgs({ options: { to: { type: 'string' }, from: { type: 'string' }, force: { type: 'boolean' }, data: { type: 'string' } } })
  if (!values.to === !values.from) { console.error(USAGE); return 2 }
  const dataDir = values.data ?? resolvePaths(process.env).dataDir
  const force = values.force === true
  let counts: StoreCount[]
  if (values.to) {
    console.log(`Copying ${dataDir} -> ${redactUrl(values.to)}`)
    counts = await copyToPostgres(dataDir, values.to, { force })
  } else {
    console.log(`Copying ${redactUrl(values.from!)} -> ${dataDir}`)
    counts = await copyFromPostgres(values.from!, dataDir, { force })
  }
  let ok = true
  for (const c of counts) {
    const same = c.read === c.written
    ok &&= same
    console.log(`${c.store}: read ${c.read}, written ${c.written}${same ? '' : '  MISMATCH'}`)
  }
  console.log(ok ? 'Done: the counts match.' : 'The counts differ: check the messages above before using the copy.')
  return ok ? 0 : 1
}

main().then((code) => { process.exitCode = code }, (err: unknown) => {
  console.error((err as Error).message)
  process.exitCode = 1
})
