// Lays out a host root (the host's cwd): package.json, config YAML, host-file stubs and plugin links.
import { lstatSync, mkdirSync, readlinkSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { HOST_PACKAGE_NAME, HOST_VERSION } from './profile.js'
import { STUB_FILES } from './stubs.js'
import type { Profile } from './types.js'

export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const path = join(root, rel)
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, content)
  }
}

export function prepareRoot(root: string, profile: Profile): void {
  for (const dir of ['plugins', 'config/config', 'data']) mkdirSync(join(root, dir), { recursive: true })
  writeFiles(root, {
    'package.json': `${JSON.stringify({ name: HOST_PACKAGE_NAME[profile], type: 'module', version: HOST_VERSION }, null, 2)}\n`,
    ...STUB_FILES
  })
}

/** Links `plugins/<name>` to `target`, replacing an old link; a real folder there is left alone (error). */
export function linkPlugin(root: string, name: string, target: string): void {
  const path = join(root, 'plugins', name)
  const abs = resolve(target)
  let existing: ReturnType<typeof lstatSync> | undefined
  try { existing = lstatSync(path) } catch { existing = undefined }
  if (existing) {
    if (!existing.isSymbolicLink()) throw new Error(`${path} exists and is not a link; refusing to replace it`)
    if (readlinkSync(path) === abs) return
    unlinkSync(path)
  }
  symlinkSync(abs, path, process.platform === 'win32' ? 'junction' : 'dir')
}
