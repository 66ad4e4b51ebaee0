// Entry the Yunzai hosts import (they only load `plugins/<name>/index.js`). The TypeScript sources are
// loaded through tsx at import time, so a `git pull` needs no rebuild and no build output is committed.
import { tsImport } from 'tsx/esm/api'

const mod = await tsImport('./index.ts', import.meta.url)

export const apps = mod.apps
export const lingxi = mod.lingxi
