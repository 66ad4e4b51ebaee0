// The global `Bot` per profile: Miao's is the single account itself
// (`Bot[Bot.uin] === Bot`); TRSS's is a proxy over many accounts with its own API and HTTP server.
import { EventEmitter } from 'node:events'
import type { Server } from 'node:http'
import type { Account } from './account.js'
import type { MiniExpress } from './express.js'
import type { StandaloneLogger } from './logger.js'
import type { ForwardNode, Id, LogLevel, Seg, Sendable, SendResult } from './types.js'

export type MiaoBot = EventEmitter & Account & { [key: string]: unknown }

export function createMiaoBot(account: Account): MiaoBot {
  const bot = Object.assign(new EventEmitter(), account) as MiaoBot
  bot[String(account.uin)] = bot
  bot.stat = { start_time: Math.floor(Date.now() / 1000) }
  return bot
}

/** TRSS `Bot.uin`: an array whose string form is one account id. */
type UinList = string[]

interface TrssBotApi {
  bots: Record<string, Account>
  uin: UinList
  adapter: unknown[]
  express: MiniExpress
  server: Server
  url: string
  stat: { start_time: number }
  pickFriend(userId: Id, strict?: boolean): ReturnType<Account['pickFriend']> | undefined
  pickUser(userId: Id, strict?: boolean): ReturnType<Account['pickFriend']> | undefined
  pickGroup(groupId: Id, strict?: boolean): ReturnType<Account['pickGroup']> | undefined
  pickMember(groupId: Id, userId: Id): ReturnType<Account['pickMember']> | undefined
  sendFriendMsg(botId: Id | undefined, userId: Id, msg: Sendable): Promise<SendResult | undefined>
  sendGroupMsg(botId: Id | undefined, groupId: Id, msg: Sendable): Promise<SendResult | undefined>
  sendMasterMsg(msg: Sendable): Promise<Record<string, SendResult | undefined>>
  makeForwardMsg(nodes: ForwardNode[]): Seg
  sleep(ms: number): Promise<void>
  String(value: unknown): string
  makeLog(level: LogLevel, msg: unknown, id?: Id): void
}
export type TrssBot = EventEmitter & TrssBotApi & { [key: string]: unknown }

export interface TrssBotOptions {
  express: MiniExpress
  server: Server
  url: string
  logger: StandaloneLogger
  /** `cfg.master`: bot id → master user ids */
  masters: () => Record<string, string[]>
}

export function createTrssBot(opts: TrssBotOptions): { bot: TrssBot; connect(account: Account): void } {
  const bots: Record<string, Account> = {}
  const uin: UinList = []
  const first = (): string => uin[0] ?? ''
  Object.defineProperties(uin, { toString: { value: first }, toJSON: { value: first } })

  // Prefer the account that knows the target, else (unless strict) the first account.
  const choose = (known: (a: Account) => boolean, strict?: boolean): Account | undefined => {
    const accounts = uin.map((id) => bots[id])
    return accounts.find(known) ?? (strict ? undefined : accounts[0])
  }
  const api: TrssBotApi = {
    bots, uin, adapter: [], express: opts.express, server: opts.server, url: opts.url,
    stat: { start_time: Math.floor(Date.now() / 1000) },
    pickFriend: (userId, strict) => choose((a) => a.fl.has(String(userId)), strict)?.pickFriend(userId),
    pickUser: (userId, strict) => api.pickFriend(userId, strict),
    pickGroup: (groupId, strict) => choose((a) => a.gl.has(String(groupId)), strict)?.pickGroup(groupId),
    pickMember: (groupId, userId) => api.pickGroup(groupId)?.pickMember(userId),
    sendFriendMsg: async (botId, userId, msg) =>
      (botId === undefined ? api.pickFriend(userId) : bots[String(botId)]?.pickFriend(userId))?.sendMsg(msg),
    sendGroupMsg: async (botId, groupId, msg) =>
      (botId === undefined ? api.pickGroup(groupId) : bots[String(botId)]?.pickGroup(groupId))?.sendMsg(msg),
    sendMasterMsg: async (msg) => {
      const sent: Record<string, SendResult | undefined> = {}
      for (const [botId, users] of Object.entries(opts.masters())) {
        for (const user of users) if (bots[botId]) sent[user] = await bots[botId].pickFriend(user).sendMsg(msg)
      }
      return sent
    },
    makeForwardMsg: (nodes) => ({ type: 'node', data: nodes }),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    String: (value) => (typeof value === 'string' ? value : JSON.stringify(value) ?? String(value)),
    makeLog: (level, msg, id) => opts.logger[level](id === undefined ? msg : `[${id}] ${String(msg)}`)
  }
  const base = Object.assign(new EventEmitter(), api)
  const bot = new Proxy(base, {
    get(target, prop, receiver) {
      if (prop in target) return Reflect.get(target, prop, receiver)
      if (typeof prop !== 'string') return undefined
      if (bots[prop]) return bots[prop]
      // unknown members fall through to the first account that has them
      for (const id of uin) {
        const acc = bots[id] as unknown as Record<string, unknown>
        if (prop in acc) return typeof acc[prop] === 'function' ? (acc[prop] as (...a: unknown[]) => unknown).bind(acc) : acc[prop]
      }
      return undefined
    }
  }) as TrssBot

  const connect = (account: Account): void => {
    const id = String(account.uin)
    bots[id] = account
    if (!uin.includes(id)) uin.push(id)
    bot.emit(`connect.${id}`, account)
    bot.emit('connect', account)
  }
  return { bot, connect }
}
