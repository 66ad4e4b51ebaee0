// Test panel (frames: docs/api.md, Server-sent events): batch tests of a channel's models with a pool of `concurrency`
// in-flight requests, soft stop, active tests, and quick tests. The caller gives an `emit` function
// (the SSE stream); this file knows nothing of HTTP.
import { randomBytes } from 'node:crypto'
import type { ChannelConfig } from '../config/schema.js'
import { AppError, errorText } from '../core/errors.js'
import type { Runtime } from '../runtime.js'
import type { ChannelGateway } from './gateway.js'
import { channelKeys, type KeyInfo } from './keys.js'
import { CHANNEL_NOT_FOUND, type ChannelService } from './service.js'

/** The fixed test message of every batch-tested model. */
export const BATCH_TEST_MESSAGE = '你好，请用一句话简单介绍一下你自己。'
const BATCH_MAX_TOKENS = 50
const QUICK_MAX_TOKENS = 100
const TEST_TEMPERATURE = 0.7
const RESPONSE_PREVIEW_CHARS = 100

export type Emit = (event: string, data: unknown) => void

export interface BatchResult {
  model: string
  index: number
  success: boolean
  elapsed: number
  response?: string
  keyInfo?: KeyInfo | null
  error?: string
}

export interface TestTask { id: string; completed: number; total: number; aborted: boolean }

interface Running extends TestTask { channel: string; stop(): void }

export interface LastTest { models: string[]; results: BatchResult[]; testedAt: number }

export class BatchTests {
  private readonly running = new Map<string, Running>()
  /** Last batch test per channel id (GET /channel-models/:id). */
  private readonly last = new Map<string, LastTest>()

  constructor (private readonly rt: Runtime, private readonly channels: ChannelService, private readonly gateway: ChannelGateway) {}

  channel (id: string): ChannelConfig {
    const ch = this.channels.find(id)
    if (!ch) throw new AppError('NOT_FOUND', CHANNEL_NOT_FOUND)
    return ch
  }

  /** The models a batch test covers: the given ones, else the channel's, else the provider's list. */
  async modelsToTest (ch: ChannelConfig, requested: string[] | undefined): Promise<string[]> {
    let models = (requested ?? []).map((m) => m.trim()).filter(Boolean)
    if (models.length === 0) models = ch.models.length ? [...ch.models] : ch.model ? [ch.model] : []
    if (models.length === 0) models = await this.gateway.listModels(ch).catch(() => [])
    return [...new Set(models)]
  }

  newTestId (): string { return `test_${this.rt.clock.now()}_${randomBytes(4).toString('hex')}` }

  /**
   * Runs a batch test, emitting the frames of docs/api.md (Server-sent events) in order. `closed()` true (client gone)
   * stops scheduling like a stop does. Resolves after the `complete` frame.
   */
  async run (ch: ChannelConfig, models: string[], opts: { concurrency: number; clearPrevious: boolean; emit: Emit; closed?: () => boolean; testId?: string }): Promise<{ testId: string; results: BatchResult[]; aborted: boolean }> {
    const { emit } = opts
    const id = opts.testId ?? this.newTestId()
    const channelId = this.channels.idOf(ch)
    const total = models.length
    const concurrency = Math.max(1, Math.min(opts.concurrency, total))
    const task: Running = { id, channel: channelId, completed: 0, total, aborted: false, stop: () => { task.aborted = true } }
    this.running.set(id, task)
    if (opts.clearPrevious) {
      this.last.delete(channelId)
      emit('clear', { message: 'Previous results cleared' })
    }
    emit('start', { testId: id, total, channelId, channelName: ch.name, concurrency })
    // With several keys one is chosen for the whole test, without advancing the rotation.
    const pinKey = this.gateway.keys.peek(ch.name, channelKeys(ch))
    const results: BatchResult[] = new Array(total)
    let next = 0
    let running = 0
    let successCount = 0
    let failCount = 0
    const stopped = (): boolean => task.aborted || (opts.closed?.() ?? false)

    const testOne = async (index: number): Promise<void> => {
      const model = models[index] as string
      running++
      emit('testing', { model, index, running })
      const started = this.rt.clock.now()
      let result: BatchResult
      try {
        const r = await this.gateway.call({
          channel: ch.name, model, messages: [{ role: 'user', content: BATCH_TEST_MESSAGE }],
          maxTokens: BATCH_MAX_TOKENS, temperature: TEST_TEMPERATURE, source: 'batch-test'
        }, undefined, { pinKey, anyState: true })
        result = { model, index, success: true, elapsed: this.rt.clock.now() - started, response: r.content.slice(0, RESPONSE_PREVIEW_CHARS), keyInfo: r.keyInfo }
      } catch (err) {
        result = { model, index, success: false, elapsed: this.rt.clock.now() - started, error: errorText(err) }
      }
      running--
      task.completed++
      if (result.success) successCount++
      else failCount++
      results[index] = result
      emit('result', result)
      emit('progress', { completed: task.completed, total, running, successCount, failCount })
    }

    // A pool of `concurrency` workers, each taking the next model as soon as its request ends.
    const worker = async (): Promise<void> => {
      while (next < total && !stopped()) await testOne(next++)
    }
    try {
      await Promise.all(Array.from({ length: concurrency }, worker))
    } finally {
      this.running.delete(id)
    }
    const done = results.filter(Boolean)
    const aborted = task.aborted || done.length < total
    this.last.set(channelId, { models, results: done, testedAt: this.rt.clock.now() })
    emit('complete', { testId: id, total, success: successCount, failed: failCount, aborted, results: done })
    return { testId: id, results: done, aborted }
  }

  /** Soft stop of one test, or of all when no id is given. */
  stop (testId?: string): { stopped: true; testId: string } | { stopped: false; message: string } | { stopped: true; count: number } {
    if (testId === undefined) {
      let count = 0
      for (const t of this.running.values()) if (!t.aborted) { t.stop(); count++ }
      return { stopped: true, count }
    }
    const t = this.running.get(testId)
    if (!t || t.aborted) return { stopped: false, message: `Test ${testId} is not running` }
    t.stop()
    return { stopped: true, testId }
  }

  active (): TestTask[] {
    return [...this.running.values()].map(({ id, completed, total, aborted }) => ({ id, completed, total, aborted }))
  }

  /** GET /channel-models/:id */
  channelModels (id: string): { channelId: string; channelName: string; models: string[]; status: string; testedAt: number | null; results: BatchResult[] } {
    const ch = this.channel(id)
    const channelId = this.channels.idOf(ch)
    const last = this.last.get(channelId)
    return {
      channelId,
      channelName: ch.name,
      models: ch.models.length ? ch.models : ch.model ? [ch.model] : [],
      status: this.channels.status(ch),
      testedAt: last?.testedAt ?? null,
      results: last?.results ?? []
    }
  }

  /** Quick test of one model: not recorded in statistics. */
  async quick (ch: ChannelConfig, model: string, message: string, emit: Emit): Promise<void> {
    emit('start', { model, channel: ch.name, message })
    const started = this.rt.clock.now()
    try {
      const r = await this.gateway.call({
        channel: ch.name, model, messages: [{ role: 'user', content: message }],
        maxTokens: QUICK_MAX_TOKENS, temperature: TEST_TEMPERATURE, source: 'other'
      }, undefined, { record: false, anyState: true })
      emit('result', { success: true, model, elapsed: this.rt.clock.now() - started, response: r.content, keyInfo: r.keyInfo })
    } catch (err) {
      emit('error', { success: false, model, elapsed: this.rt.clock.now() - started, error: errorText(err) })
    }
  }
}
