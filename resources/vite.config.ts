// Dashboard build: resources/index.html + resources/src -> resources/dist (served by routes/_http/static.ts).
import { defineConfig, type Plugin } from 'vite'
import { createHash } from 'node:crypto'
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const root = fileURLToPath(new URL('.', import.meta.url))

/** Text files worth sending compressed; images other than SVG are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt)$/i

/**
 * Writes `<file>.br` and `<file>.gz` beside every text file of the build, at the highest levels (done once
 * per build, not per request), so the server sends them as they are (routes/_http/static.ts).
 */
function precompress (): Plugin {
  return {
    name: 'lingxi-precompress',
    apply: 'build',
    writeBundle (options) {
      const walk = (dir: string): void => {
        for (const e of readdirSync(dir, { withFileTypes: true })) {
          const path = join(dir, e.name)
          if (e.isDirectory()) { walk(path); continue }
          if (!COMPRESSIBLE.test(e.name)) continue
          const raw = readFileSync(path)
          writeFileSync(`${path}.br`, brotliCompressSync(raw, {
            params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length }
          }))
          writeFileSync(`${path}.gz`, gzipSync(raw, { level: 9 }))
        }
      }
      walk(options.dir ?? join(root, 'dist'))
    }
  }
}

/**
 * The pre-paint theme script (src/theme-boot.js) as a file of its own under a content-hashed name, loaded by a
 * blocking <script> in <head> (it runs before <body> is drawn): the dashboard's Content-Security-Policy (`script-src 'self'`,
 * routes/_http/static.ts) forbids inline scripts, and a module script would run after the first paint.
 */
function themeBoot (): Plugin {
  let fileName = ''
  return {
    name: 'lingxi-theme-boot',
    apply: 'build',
    buildStart () {
      const path = join(root, 'src', 'theme-boot.js')
      this.addWatchFile(path)
      const source = readFileSync(path)
      fileName = `assets/theme-boot-${createHash('sha256').update(source).digest('base64url').slice(0, 8)}.js`
      this.emitFile({ type: 'asset', fileName, source })
    },
    transformIndexHtml: () => [{ tag: 'script', attrs: { src: `./${fileName}` }, injectTo: 'head' }]
  }
}

export default defineConfig({
  root,
  // Relative asset URLs: the same build works at '/' and under TRSS's '/lingxi' mount.
  base: './',
  // resources/public holds the no-build fallback page, not static assets for the bundle.
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  // file names under assets/ carry a content hash (Vite's default), so static.ts caches them for a year
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 300 },
  plugins: [themeBoot(), precompress()],
  logLevel: 'warn'
})
