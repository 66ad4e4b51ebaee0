// Types of deps.mjs (plain JavaScript: it runs before anything can compile TypeScript).
export interface MissingPackage { name: string; range: string; installed?: string }
export interface InstallOutcome { attempted: boolean; ok: boolean; error?: string; output: string[]; seconds: number }
export interface DependencyReport { missing: MissingPackage[]; command: string; install?: InstallOutcome }
export interface InstallPlan { manager: 'pnpm' | 'npm'; cwd: string; args: string[]; display: string }
export interface InstallResult { ok: boolean; error?: string; output: string[] }
export declare const INLINE: string[]
export declare const REPORT_KEY: unique symbol
export declare function installedVersion (root: string, name: string): string | undefined
export declare function missingDependencies (root: string): MissingPackage[]
export declare function hostFolder (root: string): { root: string; name: string; pnpm: boolean; prodOnly: boolean } | undefined
export declare function installPlan (root: string): InstallPlan
export declare function runInstall (plan: InstallPlan, opts?: { log?: (line: string) => void; timeoutMs?: number }): Promise<InstallResult>
export interface CheckedInstall extends InstallResult { seconds: number; missing: MissingPackage[] }
export declare function installAndCheck (root: string, plan: InstallPlan, opts?: { log?: (line: string) => void; timeoutMs?: number }): Promise<CheckedInstall>
export declare function ensureDependencies (root: string, opts?: { log?: (line: string) => void }): Promise<DependencyReport>
