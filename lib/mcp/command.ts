// Finds a command on PATH before spawning it, so a missing `npx` or `uvx` gives a clear message
// instead of a bare ENOENT from the child process.
import { accessSync, constants, statSync } from 'node:fs'
import { delimiter, isAbsolute, join } from 'node:path'
import { own } from '../core/dict.js'
import { AppError } from '../core/errors.js'

const HINTS: Record<string, string> = {
  npx: 'install Node.js with npm (npx comes with it)',
  npm: 'install Node.js with npm',
  node: 'install Node.js',
  uvx: 'install uv (https://docs.astral.sh/uv/), which provides uvx',
  uv: 'install uv (https://docs.astral.sh/uv/)',
  python: 'install Python 3',
  python3: 'install Python 3',
  docker: 'install Docker'
}

function isExecutable (file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false
    if (process.platform !== 'win32') accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** The full path of `command`, or undefined when it is not found. */
export function findCommand (command: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (isAbsolute(command) || command.includes('/') || command.includes('\\')) return isExecutable(command) ? command : undefined
  const exts = process.platform === 'win32' ? ['', ...(env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';')] : ['']
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue
    for (const ext of exts) {
      const candidate = join(dir, command + ext)
      if (isExecutable(candidate)) return candidate
    }
  }
  return undefined
}

/** The class of error that retrying will not fix (reconnect stops). */
export class CommandNotFoundError extends AppError {
  constructor (readonly command: string) {
    const hint = own(HINTS, command.toLowerCase())
    super('CONNECTION_FAILED', `Command "${command}" was not found on PATH${hint ? `: ${hint}` : ''}, or give its full path in the server config`)
  }
}

export function requireCommand (command: string, env?: NodeJS.ProcessEnv): string {
  const found = findCommand(command, env)
  if (!found) throw new CommandNotFoundError(command)
  return found
}
