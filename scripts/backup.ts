// `npm run backup` in the plugin folder: writes a full backup of this plugin (data folder, stores, from
// PostgreSQL when set, configuration, skills, tools) to a file and prints what it holds. `--out <file>`
// names the file (default: lingxi-manual-<time>.jsonl.gz in the current folder). `--secrets` includes the
// secrets, encrypted with the passphrase in the environment variable LINGXI_BACKUP_PASSPHRASE (never on the
// command line: it would stay in the shell's history). README, "Backup and restore".
import { rename } from 'node:fs/promises'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { backupDeps } from '../lib/backup/index.js'
import { BackupService } from '../lib/backup/service.js'
import { createRuntime, stopRuntime } from '../lib/runtime.js'

const USAGE = 'usage: npm run backup -- [--out <file>] [--secrets]   (with --secrets: the passphrase in LINGXI_BACKUP_PASSPHRASE, 8+ characters)'

async function main (): Promise<number> {
  const { values } = parseArgs({ options: { out: { type: 'string' }, secrets: { type: 'boolean' }, help: { type: 'boolean' } } })
  if (values.help) { console.log(USAGE); return 0 }
  const passphrase = values.secrets ? process.env.LINGXI_BACKUP_PASSPHRASE : undefined
  if (values.secrets && !passphrase) { console.error(`--secrets needs the passphrase in LINGXI_BACKUP_PASSPHRASE\n${USAGE}`); return 2 }
  const rt = await createRuntime()
  try {
    const made = await new BackupService(backupDeps(rt)).create({ kind: 'manual', ...(passphrase ? { passphrase } : {}) })
    const out = resolve(values.out ?? made.name)
    await rename(made.file, out)
    console.log(`Backup written: ${out}`)
    console.log(`plugin ${made.manifest.pluginVersion}, ${made.manifest.engine}, secrets ${made.manifest.secrets ? 'included (encrypted)' : 'left out'}`)
    for (const [part, c] of Object.entries(made.manifest.parts)) console.log(`  ${part}: ${c.files} files, ${c.records} records, ${c.bytes} bytes`)
    return 0
  } finally { await stopRuntime(rt) }
}

main().then((code) => { process.exitCode = code }, (err: unknown) => {
  console.error((err as Error).message)
  process.exitCode = 1
})
