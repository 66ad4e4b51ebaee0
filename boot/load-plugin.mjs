// How index.js loads the TypeScript plugin. Hosts import index.js and never load .ts, and no build
// output is committed (README, Install). The sources are bundled once per version with esbuild into
// node_modules/.cache/lingxi-plugin/plugin-<hash>.mjs, where <hash> covers every source file's
// content: a `git pull` changes the hash and the next start rebuilds (about 0.1 s). Loading one
// bundle with Node's own loader starts much faster than compiling ~150 modules through tsx on every
// start. If the bundle cannot be built, the sources are loaded through tsx as before.
// The dependencies every start needs (INLINE) go into the bundle too: importing them from node_modules
// meant resolving and compiling several hundred small files (zod alone ~100 ms). Everything else
// (openai, the MCP SDK, esbuild, koa-body, ...) stays external and loads on first use as before.
// Plain JavaScript on purpose: it runs before anything can compile TypeScript.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { ensureDependencies, INLINE, installedVersion, REPORT_KEY } from './deps.mjs'
import { rescuePlugin } from './rescue.mjs'

export { INLINE }
const SOURCE_DIRS = ['apps', 'lib', 'routes']
const LOCKFILES = ['package-lock.json', 'pnpm-lock.yaml', 'yarn.lock']
// CommonJS inside an ES module bundle needs a `require` for Node's builtins
const REQUIRE_BANNER = "import { createRequire as __lingxiCreateRequire } from 'node:module'; const require = __lingxiCreateRequire(import.meta.url);"

const packageOf = (spec) => spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]

function sourceFiles (root) {
  const out = [join(root, 'index.ts'), join(root, 'package.json')]
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name)
      if (e.isDirectory()) walk(p)
      else if (e.name.endsWith('.ts')) out.push(p)
    }
  }
  for (const d of SOURCE_DIRS) if (existsSync(join(root, d))) walk(join(root, d))
  return out.sort()
}

/** Installed versions of the inlined packages and the lockfile: an `npm install` that changes them rebuilds. */
function dependencyStamp (root) {
  const req = createRequire(join(root, 'package.json'))
  const parts = []
  for (const name of INLINE) {
    try { parts.push(`${name}@${req(`${name}/package.json`).version}`) } catch { parts.push(`${name}@?`) }
  }
  for (const lock of LOCKFILES) if (existsSync(join(root, lock))) parts.push(readFileSync(join(root, lock)))
  return parts
}

/** Hash of every source file's name and content, and of the inlined dependencies' versions. */
export function sourceHash (root) {
  const h = createHash('sha256')
  for (const f of sourceFiles(root)) h.update(relative(root, f)).update('\0').update(readFileSync(f)).update('\0')
  for (const part of dependencyStamp(root)) h.update(part).update('\0')
  return h.digest('hex').slice(0, 16)
}

/** esbuild plugin: bare imports stay external unless they are INLINE packages or imported by one. */
const externals = {
  name: 'lingxi-externals',
  setup (b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { external: true }
      if (INLINE.includes(packageOf(args.path))) return undefined
      // a dependency of an inlined package is inlined with it (resolved from that package's folder)
      if (/[\\/]node_modules[\\/]/.test(args.importer)) return undefined
      return { external: true }
    })
  }
}

/** The bundle of the current sources, built when missing; older bundles are removed. */
export async function bundleFor (root) {
  const dir = join(root, 'node_modules', '.cache', 'lingxi-plugin')
  // one prefix per plugin folder (copies may share node_modules): only this folder's old bundles go
  const prefix = `plugin-${createHash('sha256').update(root).digest('hex').slice(0, 8)}-`
  const name = `${prefix}${sourceHash(root)}.mjs`
  const file = join(dir, name)
  if (existsSync(file)) return file
  const { build, stop } = await import('esbuild')
  mkdirSync(dir, { recursive: true })
  const tmp = `${file}.${process.pid}.tmp`
  // esbuild keeps its service process (~86 MiB) alive after a build: stop it once the bundle is written
  try {
    await build({
      entryPoints: [join(root, 'index.ts')],
      outfile: tmp,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      plugins: [externals],
      banner: { js: REQUIRE_BANNER },
      // lib/core/paths.ts finds the plugin folder from its own location: keep that location in the bundle
      define: { 'import.meta.url': JSON.stringify(pathToFileURL(join(root, 'lib', 'core', 'paths.ts')).href) },
      logLevel: 'silent'
    })
  } finally {
    await stop()
  }
  renameSync(tmp, file) // atomic: a concurrent start sees a whole bundle or none
  for (const old of readdirSync(dir)) if (old !== name && old.startsWith(prefix)) rmSync(join(dir, old), { force: true })
  return file
}

/** The host's logger (or the console): the lines about packages must reach the host's log. */
function bootLog (line) {
  const log = globalThis.logger
  if (log && typeof log.mark === 'function') log.mark(line)
  else console.log(line)
}

/**
 * The plugin module (index.ts): its dependencies checked (and installed where missing, boot/deps.mjs),
 * then from the bundle, or through tsx when bundling is off or fails. When a package every start needs
 * is still missing, a stand-in that tells the master why (boot/rescue.mjs) is loaded instead.
 */
export async function loadPlugin (entryUrl) {
  const root = dirname(fileURLToPath(entryUrl))
  const report = await ensureDependencies(root, { log: bootLog })
  globalThis[REPORT_KEY] = report
  const startMissing = report.missing.filter((m) => INLINE.includes(m.name))
  const hasEsbuild = installedVersion(root, 'esbuild') !== undefined
  if (startMissing.length || !(hasEsbuild || installedVersion(root, 'tsx') !== undefined)) {
    return rescuePlugin(root, { ...report, missing: startMissing.length ? startMissing : report.missing.filter((m) => m.name === 'esbuild' || m.name === 'tsx') }, bootLog)
  }
  if (process.env.LINGXI_BUNDLE !== '0' && hasEsbuild) {
    let file
    try {
      file = await bundleFor(root)
    } catch (err) {
      console.warn(`[lingxi] could not bundle the plugin (${err instanceof Error ? err.message.split('\n')[0] : err}); loading the sources through tsx`)
    }
    if (file) return import(pathToFileURL(file).href) // errors of the plugin itself surface as they are
  }
  const { tsImport } = await import('tsx/esm/api')
  return tsImport('./index.ts', entryUrl)
}
