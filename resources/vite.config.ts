// Dashboard build: resources/index.html + resources/src -> resources/dist (served by routes/_http/static.ts).
import { defineConfig } from 'vite'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('.', import.meta.url))

export default defineConfig({
  root,
  // Relative asset URLs: the same build works at '/' and under TRSS's '/lingxi' mount.
  base: './',
  // resources/public holds the no-build fallback page, not static assets for the bundle.
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 300 },
  logLevel: 'warn'
})
