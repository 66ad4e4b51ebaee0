// The `backup` section: scheduled automatic backups of the data folder, how many are kept, and the largest
// backup file an upload may hand in (lib/backup/README.md). lib/config/README.md, "A domain's section".
import { z } from 'zod'
import { doc, sectionDefaults } from '../config/field-doc.js'

const backup = doc(z.strictObject({
  /** '' = no automatic backups; 'HH:MM' = every day at that local time (the machine's clock) */
  schedule: doc(z.string().regex(/^(|([01]\d|2[0-3]):[0-5]\d)$/, 'empty, or a time of day as HH:MM (e.g. 04:30)'), ['Automatic backup (daily at)', '每天自动备份时间', 'A time of day as HH:MM (e.g. 04:30); empty = no automatic backups.', '格式 HH:MM（如 04:30）；留空 = 不自动备份。'], {
    default: '',
    note: 'Daily automatic backup at this local time (HH:MM, e.g. "04:30"); "" = none. Kept in <data>/backups/, without secrets.'
  }),
  keep: doc(z.number().int().min(1).max(365), ['Automatic backups kept', '保留的自动备份数', 'The oldest automatic backups beyond this number are deleted.', '超过这个数量时删除最旧的自动备份。'], {
    default: 7,
    note: 'How many automatic backups (and, separately, backups made before a restore) are kept in <data>/backups/; the oldest go.'
  }),
  maxUploadMB: doc(z.number().int().min(1).max(16384), ['Largest backup to restore (MB)', '可恢复的最大备份（MB）', 'A larger upload to preview or restore is refused.', '超过这个大小的上传不会被预览或恢复。'], {
    default: 1024,
    note: 'Largest backup file the preview and restore routes accept (MB); its unpacked content may be at most 20 times that.'
  })
}), ['Backup', '备份', 'Automatic backups of the data, the configuration, skills and tools.', '自动备份数据、配置、技能和工具。'], {
  note: 'Backup and restore (README, "Backup and restore"): POST /api/backup downloads a full backup, npm run backup / npm run restore -- <file> in the plugin folder.'
})
export const backupSection = backup.prefault(sectionDefaults(backup))
