// Character presets (game.json) and the players' games. A player's messages during a game are
// answered in character: the character's systemPrompt replaces the chat preset's prompt, with the
// game section's temperature, maxTokens, enableTools and (in groups) probability.
import { join } from 'node:path'
import type { z } from 'zod'
import type { ChatMessage, ChatScope } from '../chat/contracts.js'
import type { SectionPatch } from '../config/service.js'
import { dict, own, toDict, type Dict } from '../core/dict.js'
import { AppError } from '../core/errors.js'
import { Store } from '../core/store.js'
import { renderPrompt } from '../presets/resolver.js'
import type { Runtime } from '../runtime.js'
import { SEED_CHARACTERS } from './builtin.js'
import { MAX_HISTORY, type characterInput, type characterPatch, type CharacterPreset, type GameSession } from './types.js'

/** sessions: keyed by player (`<group>:<user>`), a null-prototype record (lib/core/dict.ts) */
export interface GameData { presets: CharacterPreset[]; sessions: Dict<GameSession> }

export interface Player { userId: string; groupId?: string }

const playerKey = (p: Player): string => `${p.groupId ?? 'private'}:${p.userId}`

export class GameService {
  /** Replaceable in tests (probability). */
  random: () => number = Math.random

  private constructor (private readonly rt: Runtime, private readonly store: Store<GameData>) {}

  static async open (rt: Runtime): Promise<GameService> {
    const read = await Store.open<GameData>(join(rt.paths.dataDir, 'game.json'), { presets: structuredClone(SEED_CHARACTERS), sessions: dict() }, { log: rt.log, pretty: true })
    const store = Store.create<GameData>(read.file, { ...read.data, sessions: toDict(read.data.sessions) }, { pretty: true })
    return new GameService(rt, store)
  }

  private now (): string { return new Date(this.rt.clock.now()).toISOString() }

  list (): CharacterPreset[] { return structuredClone(this.store.data.presets) }

  /** Changes the `game` section (probability, tools, temperature, maxTokens). */
  async updateConfig (patch: SectionPatch<'game'>): Promise<void> {
    await this.rt.config.writer('game').update(patch)
  }

  get (id: string): CharacterPreset {
    const p = this.store.data.presets.find((x) => x.id === id)
    if (!p) throw new AppError('NOT_FOUND', 'Character not found')
    return structuredClone(p)
  }

  /** By id, else by name. */
  find (idOrName: string): CharacterPreset | undefined {
    const all = this.store.data.presets
    return all.find((x) => x.id === idOrName) ?? all.find((x) => x.name === idOrName)
  }

  async create (input: z.output<typeof characterInput>): Promise<CharacterPreset> {
    const id = input.id ?? `char_${this.rt.clock.now()}`
    if (this.store.data.presets.some((x) => x.id === id)) throw new AppError('CONFLICT', `Character ${id} already exists`)
    const now = this.now()
    const p: CharacterPreset = { id, name: input.name, description: input.description, systemPrompt: input.systemPrompt, createdAt: now, updatedAt: now }
    await this.store.update((d) => { d.presets.push(p) })
    return structuredClone(p)
  }

  async update (id: string, patch: z.output<typeof characterPatch>): Promise<CharacterPreset> {
    this.get(id)
    await this.store.update((d) => {
      const i = d.presets.findIndex((x) => x.id === id)
      const cur = d.presets[i]
      if (cur) d.presets[i] = { ...cur, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)), updatedAt: this.now() }
    })
    return this.get(id)
  }

  async remove (id: string): Promise<void> {
    this.get(id)
    await this.store.update((d) => {
      d.presets = d.presets.filter((x) => x.id !== id)
      for (const [k, s] of Object.entries(d.sessions)) if (s.characterId === id) delete d.sessions[k]
    })
  }

  session (p: Player): GameSession | undefined {
    const s = own(this.store.data.sessions, playerKey(p))
    return s ? structuredClone(s) : undefined
  }

  async start (p: Player, characterId: string): Promise<GameSession> {
    const c = this.find(characterId)
    if (!c) throw new AppError('NOT_FOUND', 'Character not found')
    const now = this.now()
    const s: GameSession = { characterId: c.id, userId: p.userId, startedAt: now, lastAt: now, turns: 0, history: [], ...(p.groupId ? { groupId: p.groupId } : {}) }
    await this.store.update((d) => { d.sessions[playerKey(p)] = s })
    return structuredClone(s)
  }

  async leave (p: Player): Promise<GameSession | undefined> {
    const s = this.session(p)
    if (s) await this.store.update((d) => { delete d.sessions[playerKey(p)] })
    return s
  }

  /**
   * Answers a player's message in character; undefined when the player has no game or (in a group)
   * the probability draw says to stay silent.
   */
  async talk (scope: Omit<ChatScope, 'conversationId'>, text: string): Promise<string | undefined> {
    const player: Player = { userId: scope.userId, ...(scope.groupId ? { groupId: scope.groupId } : {}) }
    const s = this.session(player)
    if (!s) return undefined
    const cfg = this.rt.config.get().game
    if (scope.groupId && this.random() >= cfg.probability) return undefined
    const c = this.find(s.characterId)
    if (!c) { await this.leave(player); return undefined }
    const botName = scope.botName || c.name
    const systemPrompt = renderPrompt(c.systemPrompt, scope, botName, this.rt.clock.now(), c.name)
    const conversationId = `game:${playerKey(player)}:${c.id}`
    let answer: string
    const chat = this.rt.optional('conversations')?.pipeline
    if (chat) {
      const r = await chat.reply({ ...scope, conversationId }, text, { systemPromptOverride: systemPrompt, temperature: cfg.temperature, maxTokens: cfg.maxTokens, toolsEnabled: cfg.enableTools })
      answer = r.response
    } else {
      // No chat pipeline: the game keeps the story itself and calls the model directly.
      const models = this.rt.optional('models')
      if (!models) throw new AppError('CHANNEL_UNAVAILABLE', 'No model channel is available')
      const messages: ChatMessage[] = [{ role: 'system', content: systemPrompt }, ...s.history, { role: 'user', content: text }]
      const r = await models.complete({ messages, temperature: cfg.temperature, maxTokens: cfg.maxTokens, source: 'game', scope: { userId: scope.userId, ...(scope.groupId ? { groupId: scope.groupId } : {}), ...(scope.nickname ? { nickname: scope.nickname } : {}) } })
      answer = r.content
    }
    await this.store.update((d) => {
      const cur = own(d.sessions, playerKey(player))
      if (!cur || cur.characterId !== c.id) return
      cur.history.push({ role: 'user', content: text }, { role: 'assistant', content: answer })
      if (cur.history.length > MAX_HISTORY) cur.history.splice(0, cur.history.length - MAX_HISTORY)
      cur.turns++
      cur.lastAt = this.now()
    })
    return answer
  }
}
