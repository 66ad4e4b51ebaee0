// Git in the plugin's own checkout, for `#lx版本`, `#lx更新` and the dashboard's version card. Arguments
// go to git directly (execFile, no shell: the same on Windows); git never asks for a password here
// (GIT_TERMINAL_PROMPT=0), so a remote that wants one fails instead of hanging the bot.
import { execFile } from 'node:child_process'
import { realpathSync } from 'node:fs'

export interface GitResult { ok: boolean; stdout: string; stderr: string }

/** How long one git call may take (a fetch over a slow network included). */
const GIT_TIMEOUT_MS = 120_000

/** A remote URL's user and token (`https://user:token@host/…`) never reach a reply or the log. */
const withoutCredentials = (text: string): string => text.replace(/(\w+:\/\/)[^/\s@]+@/g, '$1')

export function git (cwd: string, args: string[], timeoutMs = GIT_TIMEOUT_MS): Promise<GitResult> {
  return new Promise((resolve) => {
    execFile('git', args, {
      cwd,
      timeout: timeoutMs,
      maxBuffer: 8 << 20,
      windowsHide: true,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: '', LC_ALL: 'C' }
    }, (err, stdout, stderr) => {
      // trimEnd: the first line of `git status --porcelain` starts with a status column that may be a space
      resolve({ ok: !err, stdout: String(stdout).trimEnd(), stderr: withoutCredentials(String(stderr).trim() || (err ? err.message : '')) })
    })
  })
}

/** Like git() but the trimmed output, or undefined when the call failed. */
export async function gitValue (cwd: string, args: string[]): Promise<string | undefined> {
  const r = await git(cwd, args)
  return r.ok ? r.stdout : undefined
}

/** True when `dir` is the top of its own git checkout (not a folder inside the host's repository). */
export async function isOwnCheckout (dir: string): Promise<boolean> {
  const top = await gitValue(dir, ['rev-parse', '--show-toplevel'])
  if (!top) return false
  try { return realpathSync(top) === realpathSync(dir) } catch { return false }
}

export interface Commit { hash: string; date: string; subject: string }

/** Commits of `range` (e.g. `a..b`), newest first, at most `max`. */
export async function commitsOf (dir: string, range: string, max: number): Promise<Commit[]> {
  const out = await gitValue(dir, ['log', `--max-count=${max}`, '--format=%h%x09%cI%x09%s', range, '--'])
  if (!out) return []
  return out.split('\n').map((line) => {
    const [hash = '', date = '', ...rest] = line.split('\t')
    return { hash, date, subject: rest.join('\t') }
  })
}
