// `npm run restore -- <file>` in the plugin folder, with the bot stopped: checks the whole backup file, backs
// up the current state (<data>/backups/lingxi-pre-restore-<time>.jsonl.gz), then replaces every part the file
// holds (`--parts conversations,memories` for some; the statistics too, which the running plugin cannot
// replace). A backup with secrets restores them with the passphrase in LINGXI_BACKUP_PASSPHRASE; without
// it, the secrets in use are kept. `--preview` only says what the file holds. README, "Backup and restore".
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { backupDeps } from '../lib/backup/index.js'
import { BackupService } from '../lib/backup/service.js'
import { createRuntime, stopRuntime } from '../lib/runtime.js'

const USAGE = 'usage: npm run restore -- <backup file> [--parts <part,part>] [--preview]   (secrets: the passphrase in LINGXI_BACKUP_PASSPHRASE)'

async function main (): Promise<number> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { parts: { type: 'string' }, preview: { type: 'boolean' } } })
  if (positionals.length !== 1) { console.error(USAGE); return 2 }
  const file = resolve(positionals[0] as string)
  const passphrase = process.env.LINGXI_BACKUP_PASSPHRASE || undefined
  const rt = await createRuntime()
  try {
    const svc = new BackupService(backupDeps(rt))
    const p = await svc.preview(file, passphrase)
    console.log(`Backup of ${p.manifest.createdAt}, plugin ${p.manifest.pluginVersion}, ${p.manifest.engine}; secrets: ${p.secrets ? (p.secretsOpened ? 'included, opened' : 'included, not opened (no passphrase)') : 'not in it'}`)
    for (const [part, c] of Object.entries(p.manifest.parts)) console.log(`  ${part}: ${c.files} files, ${c.records} records, ${c.bytes} bytes`)
    if (values.preview) return 0
    const parts = values.parts?.split(',').map((x) => x.trim()).filter(Boolean)
    const done = await svc.restoreNow(file, { ...(parts?.length ? { parts } : {}), ...(p.secrets && passphrase ? { passphrase } : {}) })
    console.log(`The state before was backed up: ${done.before}`)
    console.log(`Restored ${done.parts.join(', ')}: ${done.files} files, ${done.records} records. Start the bot again.`)
    return 0
  } finally { await stopRuntime(rt) }
}

main().then((code) => { process.exitCode = code }, (err: unknown) => {
  console.error((err as Error).message)
  process.exitCode = 1
})
