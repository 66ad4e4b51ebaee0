// Types of load-plugin.mjs (plain JavaScript: it runs before anything can compile TypeScript).
export declare const INLINE: string[]
export declare function sourceHash (root: string): string
export declare function bundleFor (root: string): Promise<string>
export declare function loadPlugin (entryUrl: string): Promise<{ apps: Record<string, unknown>; lingxi: unknown }>
