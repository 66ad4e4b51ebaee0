// The global `logger`: seven level methods plus colour helpers. Every line is
// recorded for tests; printing to the console is optional.
import { format } from 'node:util'
import { LOG_LEVELS, type LogEntry, type LogLevel, type Profile } from './types.js'

type Colour = (s: unknown) => string
const ansi = (open: number, close = 39): Colour => (s) => `\u001b[${open}m${String(s)}\u001b[${close}m`
const COLOURS = {
  red: ansi(31), green: ansi(32), yellow: ansi(33), blue: ansi(34), magenta: ansi(35), cyan: ansi(36),
  white: ansi(37), gray: ansi(90), grey: ansi(90), bold: ansi(1, 22)
} satisfies Record<string, Colour>

export type StandaloneLogger = Record<LogLevel, (...args: unknown[]) => void> & typeof COLOURS & {
  /** Miao has `logger.chalk`; TRSS's logger is itself chalk-like, so both get the colours directly. */
  chalk?: typeof COLOURS
}

// eslint-disable-next-line no-control-regex
const ANSI_RE = /\u001b\[[0-9;]*m/g
const stripAnsi = (s: string): string => s.replace(ANSI_RE, '')

/** `print`: lowest level echoed to the console, or false for silence (tests). */
export function createLogger(profile: Profile, sink: (entry: LogEntry) => void, print: LogLevel | false): StandaloneLogger {
  const tag = profile === 'trss' ? '[TRSSYz]' : '[MiaoYz]'
  const threshold = print === false ? Infinity : LOG_LEVELS.indexOf(print)
  const methods = Object.fromEntries(LOG_LEVELS.map((level, rank) => [level, (...args: unknown[]) => {
    const text = stripAnsi(format(...args))
    sink({ level, text, time: Date.now() })
    if (rank >= threshold) {
      const line = `${tag}[${new Date().toTimeString().slice(0, 8)}][${level.toUpperCase()}] ${format(...args)}`
      if (rank >= LOG_LEVELS.indexOf('warn') && level !== 'mark') console.error(line)
      else console.log(line)
    }
  }])) as Record<LogLevel, (...args: unknown[]) => void>
  const logger: StandaloneLogger = { ...methods, ...COLOURS }
  if (profile === 'miao') logger.chalk = COLOURS
  return logger
}
