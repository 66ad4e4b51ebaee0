// Start-up of the backup domain (lib/backup/README.md): the `backup` service. Listed first in lib/domains.ts
// and needing nothing, it starts before every domain that opens a store, so a restore staged by the running
// plugin is applied here, while those stores are still closed. Then the automatic backups are scheduled.
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Domain, Runtime } from '../runtime.js'
import { databaseUrl } from '../storage/settings.js'
import { BackupService, type BackupDeps } from './service.js'

declare module '../runtime.js' {
  interface Services { backup: BackupService }
}

/** What the backup service needs of a runtime (the terminal commands make one too). */
export function backupDeps (rt: Runtime): BackupDeps {
  return {
    dataDir: rt.paths.dataDir,
    userConfig: rt.paths.userConfig,
    pluginVersion: rt.version,
    databaseUrl: databaseUrl(process.env, rt.config.get().storage),
    exportConfig: () => rt.config.exportYaml(),
    currentConfig: () => rt.config.get(),
    importConfig: async (yaml) => { await rt.config.importYaml(yaml) },
    now: () => rt.clock.now(),
    clock: rt.clock,
    log: rt.log,
    settings: () => rt.config.get().backup
  }
}

async function initBackup (rt: Runtime): Promise<void> {
  const service = new BackupService(backupDeps(rt))
  // a download cut short by a crash leaves its file in backups/.tmp
  await rm(join(service.dir, '.tmp'), { recursive: true, force: true })
  // a staged restore that fails is logged and dropped: the plugin starts on the data it has
  await service.applyPending().catch(() => undefined)
  rt.provide('backup', service)
  service.schedule()
  const off = rt.bus.on('config', (changed) => { if (changed.some((p) => p.startsWith('backup.schedule'))) service.schedule() })
  rt.onStop.push(async () => { off(); await service.stop() })
}

export const backupDomain: Domain = { name: 'backup', provides: ['backup'], needs: [], start: initBackup }
