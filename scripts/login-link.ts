// `npm run login-link` in the plugin folder: a fresh one-time dashboard login link, like `#lx面板`, for when
// the bot does not answer (README, "Dashboard"). It leaves a one-time token in the data folder for the
// running plugin to take at login (lib/auth/terminal-links.ts), so it works only for whoever can write
// that folder, and only while the plugin runs: it says so when none does.
import { LOGIN_TOKEN_TTL_MS } from '../lib/auth/login-tokens.js'
import { readAddress, writeLinkToken } from '../lib/auth/terminal-links.js'
import { resolvePaths } from '../lib/core/paths.js'

/** Any answer from the published address means the plugin's web server runs (a stale file gets none). */
async function answers (url: string): Promise<boolean> {
  try {
    await fetch(`${url}/api/auth/verify`, { signal: AbortSignal.timeout(5000) })
    return true
  } catch { return false }
}

const { dataDir } = resolvePaths()
const address = await readAddress(dataDir)
if (!address || !(await answers(address.localUrl))) {
  console.error([
    '灵犀没有在运行（或它的面板没有启动），无法生成登录链接：请先启动机器人，再运行本命令。',
    `lingxi is not running (or its dashboard did not start), so no login link can be made: start the bot, then run this again.`,
    `(data folder: ${dataDir}${address ? `; no answer from ${address.localUrl}` : ''})`
  ].join('\n'))
  process.exitCode = 1
} else {
  const { token } = await writeLinkToken(dataDir, Date.now(), LOGIN_TOKEN_TTL_MS)
  const minutes = Math.round(LOGIN_TOKEN_TTL_MS / 60_000)
  console.log(`灵犀面板登录链接（${minutes} 分钟内有效，只能使用一次）/ Dashboard login link (one use, valid ${minutes} minutes):`)
  for (const base of address.urls.length ? address.urls : [address.localUrl]) console.log(`${base}/login#token=${token}`)
}
