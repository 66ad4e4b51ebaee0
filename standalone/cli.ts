// `npm start`: runs the plugin in the standalone host with a console adapter. Each stdin line is a
// message from the master (private chat by default); outgoing messages are printed. Works without a
// stdin (CI): it then keeps running until SIGINT/SIGTERM.
import { dirname, join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { createHost, type Host } from './host.js'
import { LOG_LEVELS, type DealResult, type LogLevel, type Profile, type TranscriptEntry } from './types.js'

const HELP = `Console commands:
  /group <id>    speak in group <id> (as the current user)
  /private       back to private chat
  /user [id]     speak as another user (no id: the master again)
  /at <text>     send <text> in the current group with an @bot
  /poke          poke the bot (in the current group or privately)
  /join          the current user joins the current group (a new member)
  /recall <id>   the current user recalls message <id> (in the current group or privately)
  /task <name>   run a scheduled task now
  /cd on|off     cooldowns and the duplicate throttle
  /help, /quit   (any other line, also other /lines, is sent as a message)`

const tty = process.stdout.isTTY
const paint = (code: number, s: string): string => (tty ? `\u001b[${code}m${s}\u001b[0m` : s)

function parseOptions(): { profile: Profile; master: string; cooldowns: boolean; logLevel: LogLevel } {
  const { values } = parseArgs({
    options: {
      profile: { type: 'string', default: 'miao' },
      master: { type: 'string', default: '10001' },
      'no-cooldowns': { type: 'boolean', default: false },
      'log-level': { type: 'string', default: 'info' },
      help: { type: 'boolean', default: false }
    }
  })
  if (values.help) {
    console.log(`npm start -- [--profile miao|trss] [--master <id>] [--no-cooldowns] [--log-level info]\n\n${HELP}`)
    process.exit(0)
  }
  const profile = values.profile
  if (profile !== 'miao' && profile !== 'trss') throw new Error(`--profile must be miao or trss, not ${profile}`)
  const logLevel = values['log-level'] as LogLevel
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`--log-level must be one of ${LOG_LEVELS.join(', ')}`)
  return { profile, master: values.master, cooldowns: !values['no-cooldowns'], logLevel }
}

function printSent(entry: TranscriptEntry): void {
  const head = paint(36, `[bot → ${entry.target} ${entry.targetId}]`) + (entry.quote !== undefined ? paint(90, ` (quoting ${entry.quote})`) : '')
  const body = entry.text.split('\n').join('\n    ')
  console.log(`${head} ${body}`)
}

class Console {
  private groupId: string | undefined
  private userId: string

  constructor(private host: Host, private master: string) {
    this.userId = master
  }

  prompt(): string {
    const where = this.groupId ? `group ${this.groupId}` : 'private'
    return paint(33, `[${this.userId === this.master ? 'master' : 'user'} ${this.userId} @ ${where}]> `)
  }

  /** Handles one line; returns false on /quit. */
  async line(text: string): Promise<boolean> {
    const [cmd, ...rest] = text.trim().split(/\s+/)
    const arg = rest.join(' ')
    switch (cmd) {
      case '': return true
      case '/quit': return false
      case '/help': console.log(HELP); return true
      case '/private': this.groupId = undefined; return true
      case '/group':
        if (arg) this.groupId = arg
        else console.log('usage: /group <id>')
        return true
      case '/user': this.userId = arg || this.master; return true
      case '/cd':
        this.host.cooldowns = arg !== 'off'
        console.log(`cooldowns ${this.host.cooldowns ? 'on' : 'off'}`)
        return true
      case '/task':
        await this.host.runTask(arg).then((n) => console.log(`ran ${n} task(s)`), (err: Error) => console.log(paint(31, err.message)))
        return true
      case '/poke':
        this.host.poke({ userId: this.userId, ...(this.groupId ? { groupId: this.groupId } : {}) })
          .catch((err: Error) => console.log(paint(31, err.message)))
        return true
      case '/join':
        if (!this.groupId) { console.log('/join works in a group: /group <id> first'); return true }
        this.host.memberJoined({ groupId: this.groupId, userId: this.userId }).catch((err: Error) => console.log(paint(31, err.message)))
        return true
      case '/recall':
        if (!arg) { console.log('usage: /recall <message id>'); return true }
        this.host.recalled({ userId: this.userId, messageId: arg, ...(this.groupId ? { groupId: this.groupId } : {}) })
          .catch((err: Error) => console.log(paint(31, err.message)))
        return true
      case '/at':
        if (!this.groupId) { console.log('/at works in a group: /group <id> first'); return true }
        this.send(arg, true)
        return true
      default:
        this.send(text, false)
        return true
    }
  }

  /** Dispatches without waiting: a handler may await the user's next line (awaitContext). */
  private send(text: string, at: boolean): void {
    const done: Promise<DealResult> = this.groupId
      ? this.host.sendGroup(this.groupId, this.userId, text, { at })
      : this.host.sendPrivate(this.userId, text)
    done.then((res) => {
      if (res.stage === 'handled' || res.stage === 'context' || res.stage === 'refused') return
      console.log(paint(90, `(${JSON.stringify(text)} → no plugin answered: ${res.stage}${res.plugin ? ` in ${res.plugin}` : ''})`))
    }, (err: unknown) => console.log(paint(31, `dispatch failed: ${String(err)}`)))
  }
}

async function main(): Promise<void> {
  const opts = parseOptions()
  const pluginDir = resolve(dirname(fileURLToPath(import.meta.url)), '..')
  const host = createHost({
    profile: opts.profile, root: join(pluginDir, '.standalone', opts.profile), pluginDir,
    masters: [opts.master], cooldowns: opts.cooldowns, cron: true, print: opts.logLevel
  })
  host.onSend(printSent)

  let keepAlive: ReturnType<typeof setInterval> | undefined
  let stopping = false
  const shutdown = async (code = 0): Promise<void> => {
    if (stopping) process.exit(1) // second signal: give up waiting
    stopping = true
    console.log(paint(90, 'stopping…'))
    if (keepAlive) clearInterval(keepAlive)
    await host.stop().catch((err: unknown) => console.error(err))
    process.exit(code)
  }
  process.on('SIGINT', () => void shutdown())
  process.on('SIGTERM', () => void shutdown())

  await host.start()
  keepAlive = setInterval(() => {}, 1 << 30) // runs until a signal even when nothing else holds the loop
  console.log(paint(32, `standalone ${opts.profile} host in ${host.root}`))
  console.log(`plugins: ${host.plugins.map((p) => `${p.name}(${p.priority})`).join(', ') || 'none'}`)
  for (const err of host.loadErrors) console.log(paint(31, `load error in ${err.file}: ${String(err.error)}`))
  if (host.url) console.log(`shared HTTP server (Bot.url): ${host.url}`)

  console.log(paint(90, `master ${opts.master} → #lx面板 (private)`))
  const res = await host.sendPrivate(opts.master, '#lx面板')
  if (res.stage !== 'handled') console.log(paint(31, `#lx面板 was not answered (${res.stage})`))

  const con = new Console(host, opts.master)
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: Boolean(process.stdin.isTTY) })
  const prompt = (): void => {
    if (!process.stdin.isTTY) return // piped input: no prompts in the output
    rl.setPrompt(con.prompt())
    rl.prompt()
  }
  if (process.stdin.isTTY) console.log(HELP)
  prompt()
  rl.on('line', (line) => {
    void con.line(line).then((goOn) => {
      if (goOn) prompt()
      else void shutdown()
    })
  })
  rl.on('SIGINT', () => void shutdown()) // a terminal in raw mode turns Ctrl-C into this event
  rl.on('close', () => {
    if (!stopping) console.log(paint(90, 'stdin closed; running until SIGINT/SIGTERM'))
  })
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
