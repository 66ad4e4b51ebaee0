// Types of node-version.mjs (plain JavaScript so that it parses on any Node).
export declare const MIN_NODE: string
export declare function nodeRefusal (version: string): string | null
export declare function refuseOldNode (version: string): boolean
