// The middleware TRSS-Yunzai puts in front of every plugin route on `Bot.express` (its lib/bot.js,
// see notes in README.md): compression, then the urlencoded, json, raw and text body parsers. A
// request under a plugin's mount arrives with its body already read (`req.body`), and a streamed
// response is compressed (buffered) unless it opts out, exactly as in the real host. The real
// packages are used (dependencies, since `npm start` runs this host).
import { createRequire } from 'node:module'
import type { Handler } from './express.js'

interface BodyParsers {
  urlencoded(opts: { extended: boolean }): Handler
  json(): Handler
  raw(): Handler
  text(): Handler
}

const require = createRequire(import.meta.url)

/** In TRSS's order: compression, urlencoded ({extended: false}), json, raw, text (default limits). */
export function trssMiddleware (): Handler[] {
  const compression = require('compression') as () => Handler
  const parsers = require('body-parser') as BodyParsers
  return [compression(), parsers.urlencoded({ extended: false }), parsers.json(), parsers.raw(), parsers.text()]
}
