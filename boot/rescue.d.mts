// Types of rescue.mjs (plain JavaScript: it runs before anything can compile TypeScript).
import type { DependencyReport } from './deps.mjs'
export declare function rescuePlugin (root: string, report: DependencyReport, log: (line: string) => void): { apps: Record<string, unknown>; lingxi: undefined }
/** The masters' ids from the host's config module under `root` (default: the working folder), by lib/host/port.ts `masters`' rule. */
export declare function masterIds (root?: string, botId?: string | number): Promise<string[]>
