// A synchronous, atomic JSON write for the process-exit flush (lib/host/process-exit.ts): on 'exit'
// and in signal handlers no asynchronous work runs any more, so the statistics still in memory are
// written with the blocking calls (temp file, fsync, rename).
import { writePrivateFileSync } from '../core/private-file.js'

/** Private (0600), fsynced, never written through a planted symlink (lib/core/private-file.ts). */
export function writeJsonSync (file: string, data: unknown): void {
  writePrivateFileSync(file, JSON.stringify(data))
}
