// Types of rescue.mjs (plain JavaScript: it runs before anything can compile TypeScript).
import type { DependencyReport } from './deps.mjs'
export declare function rescuePlugin (root: string, report: DependencyReport, log: (line: string) => void): { apps: Record<string, unknown>; lingxi: undefined }
