// Entry the Yunzai hosts import (they only load `plugins/<name>/index.js`). It loads the TypeScript
// plugin (index.ts) from a bundle built on first start after each change (see lib/boot/load-plugin.mjs),
// so a `git pull` needs no manual rebuild and no build output is committed.
import { loadPlugin } from './lib/boot/load-plugin.mjs'

const mod = await loadPlugin(import.meta.url)

export const apps = mod.apps
export const lingxi = mod.lingxi
