// Entry the Yunzai hosts import (they only load `plugins/<name>/index.js`). It loads the TypeScript
// plugin (index.ts) from a bundle built on first start after each change (see boot/load-plugin.mjs),
// so a `git pull` needs no manual rebuild and no build output is committed.
// First the Node.js version: on one too old the plugin says so in one line and loads nothing (its
// other modules would fail to parse); only then is the rest imported (dynamically).
import { refuseOldNode } from './boot/node-version.mjs'

let mod = { apps: {}, lingxi: undefined }
if (!refuseOldNode(process.versions.node)) {
  const { loadPlugin } = await import('./boot/load-plugin.mjs')
  mod = await loadPlugin(import.meta.url)
}

export const apps = mod.apps
export const lingxi = mod.lingxi
