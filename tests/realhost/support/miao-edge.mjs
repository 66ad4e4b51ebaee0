// QQ at icqq's edge, inside the real Miao-Yunzai process (tests/realhost/README.md, "Miao-Yunzai harness";
// ../shared/hosts/README.md, "Running it without a QQ account"). Loaded before the host's app.js with
// `node --import <this file> .` or, under the host's keep-alive runner (lib/tools/ksr.js), through
// NODE_OPTIONS=--import=<this file's URL> so the app process ksr spawns (again after each `#重启`) gets it too.
// It changes no file of the host; in the process it:
//   1. defines an accessor globalThis.Bot: when lib/bot.js assigns its icqq Client (skip_login: no login, no
//      lists), the setter keeps it and fills Bot.fl / Bot.gl / Bot.gml (a world given in the environment, and
//      every sender the test delivers), with update_time in the future so icqq never refreshes them;
//   2. replaces icqq's network-facing methods on its classes' prototypes (the host's own icqq module
//      instance): sendMsg of users/friends/members and of groups (icqq's own _preprocess still converts the
//      message: its brief, and its errors for what icqq cannot send), makeForwardMsg (the nodes recorded, an
//      xml element answered as after icqq's upload), recallMsg, getChatHistory, renew, getMemberMap, the
//      member actions (mute, kick, setCard, poke) and the image/voice/video uploads;
//   3. delivers private and group messages as icqq builds them, emitted with Bot.em (the host listens on
//      `message`);
//   4. serves a loopback HTTP control channel on LINGXI_MIAO_EDGE_PORT for the test (support/miao-host.ts):
//        GET  /state                      {pid, ready, uin, nickname, seq}
//        POST /event   {kind, user_id, group_id?, text?, message?, atBot?, nickname?, card?, role?}
//                                         -> {message_id, seq, rand, time}
//        GET  /sends?since=<seq>&wait=<ms> the records after <seq>, held up to <ms> until there is one
//      and appends every record, as one JSON line, to LINGXI_MIAO_EDGE_LOG when set (written at once: what an
//      app process did just before it was stopped or restarted is kept; the test reads its records there).
// Plain JavaScript: the host runs it with its own Node and no TypeScript loader.
import { appendFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import { basename, join, resolve } from 'node:path'
import { isMainThread } from 'node:worker_threads'

const CONTROL_PORT = Number(process.env.LINGXI_MIAO_EDGE_PORT)
const RECORD_FILE = process.env.LINGXI_MIAO_EDGE_LOG || ''
const root = process.cwd()
const main = resolve(process.argv[1] ?? '')
// Only in the host's app process: `node .` (argv[1] is the host folder) or ksr's `node app.js`. ksr itself,
// and any Node program the host or a plugin runs (pnpm, git hooks, workers), is left alone.
const isApp = isMainThread && Number.isInteger(CONTROL_PORT) && CONTROL_PORT > 0 &&
  (main === root || main === join(root, 'app.js')) && basename(main) !== 'ksr.js'

if (isApp) {
  // children of the app (a `pnpm -v`, a plugin's installs) do not load this module
  if (process.env.NODE_OPTIONS) {
    const rest = process.env.NODE_OPTIONS.replace(/(^|\s)--import[= ]("[^"]*miao-edge\.mjs[^"]*"|\S*miao-edge\.mjs\S*)/g, '').trim()
    if (rest) process.env.NODE_OPTIONS = rest
    else delete process.env.NODE_OPTIONS
  }
  install()
}

function install () {
  const icqq = createRequire(join(root, 'package.json'))('icqq')
  const { User, Group, Member, Friend, Discuss } = icqq
  /** icqq's Contactable.prototype: users, friends, members, groups and discussions inherit from it */
  const Contactable = Object.getPrototypeOf(User.prototype)
  const FAR = Math.floor(Date.now() / 1000) + 10 * 365 * 86400 // update_time icqq never finds stale

  /** the host's icqq Client, once lib/bot.js assigned it */
  let bot
  const records = []
  let seq = 0
  /** forward results by their resid: a send of that xml carries the nodes */
  const forwards = new Map()
  /** delivered messages per chat ('u<id>' / 'g<id>'), for getChatHistory */
  const history = new Map()
  /** long-poll waiters of GET /sends */
  let waiters = []

  const world = (() => {
    try { return JSON.parse(process.env.LINGXI_MIAO_EDGE_WORLD || '{}') } catch { return {} }
  })()

  // ---- 1. the Client and its lists -------------------------------------------------------------
  Object.defineProperty(globalThis, 'Bot', {
    configurable: true,
    enumerable: true,
    get () { return bot },
    set (value) {
      bot = value
      if (!value || typeof value !== 'object' || !(value.fl instanceof Map)) return
      if (!value.nickname) value.nickname = world.nickname || '灵犀测试机'
      for (const f of world.friends ?? []) addFriend(f.user_id, f.nickname)
      for (const g of world.groups ?? []) {
        addGroup(g.group_id, g.group_name)
        for (const m of g.members ?? []) addMember(g.group_id, m.user_id, m)
      }
    }
  })

  function addFriend (userId, nickname) {
    const id = Number(userId)
    const known = bot.fl.get(id)
    if (known) { if (nickname) known.nickname = nickname; return known }
    const info = { user_id: id, nickname: nickname || `user${id}`, sex: 'unknown', remark: '', class_id: 0 }
    bot.fl.set(id, info)
    return info
  }

  function addGroup (groupId, name) {
    const id = Number(groupId)
    let info = bot.gl.get(id)
    if (!info) {
      info = { group_id: id, group_name: name || `group ${id}`, member_count: 0, max_member_count: 500, owner_id: 0, admin_flag: false, last_join_time: 0, shutup_time_whole: 0, shutup_time_me: 0, update_time: FAR }
      bot.gl.set(id, info)
    } else if (name) info.group_name = name
    if (!bot.gml.has(id)) bot.gml.set(id, new Map())
    return info
  }

  function addMember (groupId, userId, m = {}) {
    const gid = Number(groupId)
    const uid = Number(userId)
    const group = addGroup(gid)
    const members = bot.gml.get(gid)
    let info = members.get(uid)
    if (!info) {
      info = { group_id: gid, user_id: uid, nickname: m.nickname || `user${uid}`, card: m.card ?? '', sex: 'unknown', age: 0, area: '', join_time: 0, last_sent_time: 0, level: 1, rank: '', role: m.role || 'member', title: '', title_expire_time: 0, shutup_time: 0, update_time: FAR }
      members.set(uid, info)
      group.member_count = members.size
    } else {
      if (m.nickname) info.nickname = m.nickname
      if (m.card !== undefined) info.card = m.card
      if (m.role) info.role = m.role
    }
    if (info.role === 'owner') group.owner_id = uid
    return info
  }

  // ---- 2. icqq's network edge --------------------------------------------------------------------
  const jsonSafe = (v, depth = 0) => {
    if (depth > 8) return '[deep]'
    if (v === null || typeof v !== 'object') return typeof v === 'function' || typeof v === 'bigint' ? String(v) : v
    if (Buffer.isBuffer(v)) return { buffer: v.length }
    if (v instanceof Uint8Array) return { buffer: v.byteLength }
    if (Array.isArray(v)) return v.map((x) => jsonSafe(x, depth + 1))
    const out = {}
    for (const [k, x] of Object.entries(v)) out[k] = jsonSafe(x, depth + 1)
    return out
  }

  const residOf = (elem) => (elem && typeof elem === 'object' && elem.type === 'xml' && typeof elem.data === 'string')
    ? /m_resid="([^"]*)"/.exec(elem.data)?.[1]
    : undefined

  /** The readable text of a message as the plugin gave it (a forward it made: its nodes' text). */
  function textOf (content) {
    if (content === undefined || content === null) return ''
    if (typeof content === 'string' || typeof content === 'number') return String(content)
    if (Array.isArray(content)) return content.map(textOf).join('')
    if (typeof content !== 'object') return ''
    switch (content.type) {
      case 'text': return String(content.text ?? '')
      case 'at': return `@${content.qq} `
      case 'face': return '[表情]'
      case 'node': return textOf(content.message)
      case 'xml': {
        const f = forwards.get(residOf(content))
        return f ? f.nodes.map((n) => n.text).join('\n') : ''
      }
      default: return ''
    }
  }

  // groups (and discussions) by their number; users, friends and members (a temporary session) by theirs
  const targetOf = (self) => self instanceof Discuss ? `g${self.gid}` : `u${self.uid}`

  function record (entry) {
    const r = { seq: ++seq, pid: process.pid, time: Date.now(), ...entry }
    records.push(r)
    if (RECORD_FILE) {
      try { appendFileSync(RECORD_FILE, `${JSON.stringify(r)}\n`) } catch (err) { console.error(`[miao-edge] ${RECORD_FILE}: ${err?.message ?? err}`) }
    }
    const ready = waiters
    waiters = []
    for (const w of ready) w()
    return r
  }

  async function send (self, content, source) {
    let brief = ''
    let error
    try {
      const converter = await self._preprocess(content, source)
      brief = converter?.brief ?? ''
    } catch (err) {
      error = err instanceof Error ? err.message : String(err)
    }
    const list = Array.isArray(content) ? content : [content]
    const forward = list.map(residOf).map((id) => forwards.get(id)).find(Boolean)
    const target = targetOf(self)
    record({ kind: 'send', target, text: textOf(content), brief, message: jsonSafe(content), ...(forward ? { forward: forward.nodes } : {}), ...(error ? { error } : {}) })
    if (error) throw new Error(error)
    const time = Math.floor(Date.now() / 1000)
    const rand = (Math.random() * 0xffffffff) >>> 0
    const s = seq & 0xffff
    const message_id = target.startsWith('g')
      ? icqq.genGroupMessageId(self.gid, bot?.uin ?? 0, s, rand, time)
      : icqq.genDmMessageId(self.uid, s, rand, time, 1)
    return { message_id, seq: s, rand, time }
  }

  User.prototype.sendMsg = function (content, source) { return send(this, content, source) }
  Group.prototype.sendMsg = function (content, source) { return send(this, content, source) }
  Discuss.prototype.sendMsg = function (content) { return send(this, content) }

  const proto = Contactable
  proto.makeForwardMsg = async function (msglist) {
    const list = Array.isArray(msglist) ? msglist : [msglist]
    const resid = `lingxi-edge-${process.pid}-${seq + 1}-${forwards.size + 1}`
    const nodes = list.map((n) => ({ user_id: n?.user_id, nickname: n?.nickname, time: n?.time, text: textOf(n?.message), message: jsonSafe(n?.message) }))
    forwards.set(resid, { nodes })
    record({ kind: 'forward', target: targetOf(this), text: nodes.map((n) => n.text).join('\n'), nodes, resid })
    const preview = nodes.slice(0, 4).map((n) => `<title size="26" color="#777777">${escapeXml(`${n.nickname ?? n.user_id}: ${n.text.slice(0, 50)}`)}</title>`).join('')
    const data = `<?xml version="1.0" encoding="utf-8"?><msg brief="[聊天记录]" m_fileName="${resid}" action="viewMultiMsg" tSum="${nodes.length}" flag="3" m_resid="${resid}" serviceID="35" m_fileSize="0"><item layout="1"><title color="#000000" size="34">转发的聊天记录</title>${preview}<hr></hr><summary color="#808080" size="26">查看${nodes.length}条转发消息</summary></item><source name="聊天记录"></source></msg>`
    return { type: 'xml', data, id: 35 }
  }
  // images: icqq's own Image reads or downloads each one (its task); the upload to QQ is left out
  proto.uploadImages = async function (imgs) { await Promise.allSettled((imgs ?? []).map((i) => i?.task)) }
  proto.uploadPtt = async function (elem) { record({ kind: 'upload', target: targetOf(this), text: '', message: jsonSafe(elem) }); return { type: 'text', text: '[语音]' } }
  proto.uploadVideo = async function (elem) { record({ kind: 'upload', target: targetOf(this), text: '', message: jsonSafe(elem) }); return { type: 'text', text: '[视频]' } }

  const recall = function (param) { record({ kind: 'recall', target: targetOf(this), text: '', message_id: jsonSafe(param) }); return Promise.resolve(true) }
  User.prototype.recallMsg = recall
  Group.prototype.recallMsg = recall
  const chatHistory = function (_at, cnt = 20) { return Promise.resolve((history.get(targetOf(this)) ?? []).slice(-cnt)) }
  User.prototype.getChatHistory = chatHistory
  Group.prototype.getChatHistory = chatHistory
  Group.prototype.renew = function () { return Promise.resolve(addGroup(this.gid)) }
  Group.prototype.getMemberMap = function () { addGroup(this.gid); return Promise.resolve(bot.gml.get(this.gid)) }
  Member.prototype.renew = function () { return Promise.resolve(addMember(this.gid, this.uid)) }
  const action = (kind) => function (...args) {
    record({ kind, target: `g${this.gid}`, user_id: this.uid, text: '', args: jsonSafe(args) })
    return Promise.resolve(true)
  }
  Member.prototype.mute = action('mute')
  Member.prototype.kick = action('kick')
  Member.prototype.setCard = action('card')
  Member.prototype.poke = action('poke')
  Friend.prototype.poke = function (self = false) { record({ kind: 'poke', target: `u${this.uid}`, user_id: this.uid, text: '', args: [self] }); return Promise.resolve(true) }

  // ---- 3. events as icqq builds them -------------------------------------------------------------
  function elementsOf (body) {
    if (Array.isArray(body.message)) return body.message
    const text = String(body.text ?? '')
    return body.atBot ? [{ type: 'at', qq: bot.uin, text: `@${bot.nickname}` }, { type: 'text', text }] : [{ type: 'text', text }]
  }
  const rawOf = (message) => message.map((m) => m.type === 'text' ? m.text : m.type === 'at' ? (m.text || `@${m.qq}`) : m.type === 'image' ? '[图片]' : `[${m.type}]`).join('')

  function deliver (body) {
    const userId = Number(body.user_id)
    const time = Math.floor(Date.now() / 1000)
    const rand = (Math.random() * 0xffffffff) >>> 0
    const mseq = (Math.random() * 0xffff) >>> 0
    const message = elementsOf(body)
    const raw_message = rawOf(message)
    const base = { post_type: 'message', user_id: userId, time, seq: mseq, rand, font: '宋体', message, raw_message }
    if (body.kind === 'group') {
      const groupId = Number(body.group_id)
      const group = addGroup(groupId, body.group_name)
      const info = addMember(groupId, userId, { nickname: body.nickname, card: body.card, role: body.role })
      const g = bot.pickGroup(groupId)
      const member = bot.pickMember(groupId, userId)
      const e = {
        ...base,
        message_type: 'group',
        sub_type: 'normal',
        group_id: groupId,
        group_name: group.group_name,
        message_id: icqq.genGroupMessageId(groupId, userId, mseq, rand, time),
        anonymous: null,
        block: false,
        atme: message.some((m) => m.type === 'at' && Number(m.qq) === Number(bot.uin)),
        atall: message.some((m) => m.type === 'at' && m.qq === 'all'),
        sender: { user_id: userId, nickname: info.nickname, card: info.card, sex: 'unknown', age: 0, area: '', level: 1, role: info.role, title: '' },
        group: g,
        member,
        reply (content, quote = false) { return g.sendMsg(content, quote ? this : undefined) },
        recall () { return g.recallMsg(this.message_id) }
      }
      keep(`g${groupId}`, e)
      bot.em('message.group.normal', e)
      return e
    }
    const f = addFriend(userId, body.nickname)
    const friend = bot.pickFriend(userId)
    const e = {
      ...base,
      message_type: 'private',
      sub_type: 'friend',
      from_id: userId,
      to_id: bot.uin,
      auto_reply: false,
      message_id: icqq.genDmMessageId(userId, mseq, rand, time, 0),
      sender: { user_id: userId, nickname: f.nickname, sex: 'unknown', age: 0 },
      friend,
      reply (content, quote = false) { return friend.sendMsg(content, quote ? this : undefined) },
      recall () { return friend.recallMsg(this.message_id) }
    }
    keep(`u${userId}`, e)
    bot.em('message.private.friend', e)
    return e
  }

  function keep (chat, e) {
    const list = history.get(chat) ?? []
    list.push(e)
    if (list.length > 200) list.shift()
    history.set(chat, list)
  }

  // ---- 4. the control channel ------------------------------------------------------------------
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const answer = (status, data) => {
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', Connection: 'close' })
      res.end(JSON.stringify(data))
    }
    const ready = !!bot && bot.fl instanceof Map
    if (req.method === 'GET' && url.pathname === '/state') {
      answer(200, { pid: process.pid, ready, uin: bot?.uin ?? null, nickname: bot?.nickname ?? null, seq })
      return
    }
    if (req.method === 'GET' && url.pathname === '/sends') {
      const since = Number(url.searchParams.get('since') ?? 0)
      const wait = Math.min(Number(url.searchParams.get('wait') ?? 0), 30_000)
      const after = () => records.filter((r) => r.seq > since)
      if (after().length || !(wait > 0)) { answer(200, { pid: process.pid, seq, records: after() }); return }
      let done = false
      const finish = () => { if (done) return; done = true; clearTimeout(timer); waiters = waiters.filter((w) => w !== finish); answer(200, { pid: process.pid, seq, records: after() }) }
      const timer = setTimeout(finish, wait)
      waiters.push(finish)
      req.once('close', () => { done = true; clearTimeout(timer); waiters = waiters.filter((w) => w !== finish) })
      return
    }
    if (req.method === 'POST' && url.pathname === '/event') {
      let raw = ''
      req.setEncoding('utf8')
      req.on('data', (c) => { raw += c })
      req.on('end', () => {
        if (!ready) { answer(503, { error: 'the host has not created its Bot yet' }); return }
        try {
          const body = JSON.parse(raw || '{}')
          if (body.kind !== 'private' && body.kind !== 'group') throw new Error(`kind must be private or group, not ${body.kind}`)
          if (!body.user_id || (body.kind === 'group' && !body.group_id)) throw new Error('user_id (and group_id for a group) needed')
          const e = deliver(body)
          answer(200, { message_id: e.message_id, seq: e.seq, rand: e.rand, time: e.time })
        } catch (err) {
          answer(400, { error: err instanceof Error ? err.message : String(err) })
        }
      })
      return
    }
    answer(404, { error: 'not found' })
  })
  server.unref()
  // after ksr's restart the old app may still hold the port for a moment: try again until it is free
  const until = Date.now() + 60_000
  const listen = () => server.listen(CONTROL_PORT, '127.0.0.1')
  server.on('error', (err) => {
    if (err && err.code === 'EADDRINUSE' && Date.now() < until) setTimeout(listen, 100)
    else console.error(`[miao-edge] control server on ${CONTROL_PORT}: ${err?.message ?? err}`)
  })
  listen()
}

function escapeXml (s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c])
}
