// The MCP SDK (@modelcontextprotocol/sdk) is an optional package (lib/core/packages.ts): it is imported
// where it is used, never at start, and may be missing after an update nobody installed. `mcpOff` is the
// one check of the feature: while it gives a reason no server is connected (manager.ts: each server's
// status is `error` with that reason, no retries), and our endpoint opens no session and says why (endpoint.ts).
import { AppError, errorText } from '../core/errors.js'
import { dependencyReport, featureAvailable, importOptional, missingFor } from '../core/packages.js'

const SDK = '@modelcontextprotocol/sdk'

/** Why MCP cannot work now (a package it needs is not installed), or undefined when it can. */
export function mcpOff (): string | undefined {
  if (featureAvailable('mcp')) return undefined
  return `MCP is unavailable: the package ${missingFor('mcp').join(', ')} is not installed (run: ${dependencyReport().command})`
}

/** The SDK cannot be used (SERVICE_UNAVAILABLE): retrying cannot help until the package is installed. */
export class SdkMissing extends AppError {
  constructor (message: string, cause?: unknown) {
    super('SERVICE_UNAVAILABLE', message, cause === undefined ? {} : { cause })
  }
}

/**
 * Parts of the SDK, loaded by `load` (its `import()`s); SdkMissing with the reason when the import fails.
 * Callers check mcpOff() first, on every use (their loads are cached).
 */
export async function loadSdk<T> (load: () => Promise<T>): Promise<T> {
  try {
    return await importOptional(SDK, load)
  } catch (err) {
    throw new SdkMissing(`MCP is unavailable: ${errorText(err)}`, err)
  }
}
