// One run of a task: its prompt through the chat pipeline (the task's preset, channel, model and only its
// tools), the answer through the outbound gate and lib/delivery into the task's chat, and what it cost.
// README.md of this folder, "A run".
import { AppError, errorText } from '../core/errors.js'
import { conversationIdOf } from '../chat/store.js'
import type { ChatScope } from '../chat/contracts.js'
import { mayReact, recordTurnTokens } from '../governance/gate.js'
import { chatSession, type HostSession } from '../host/session.js'
import { sayUnasked } from '../proactive/unasked.js'
import { t } from '../i18n.js'
import { formatWall } from '../reminders/zoned.js'
import type { Runtime } from '../runtime.js'
import { priceTable } from '../stats/cost.js'
import { NotSentError } from '../storage/due.js'
import type { Task, TaskRun } from './types.js'

/** The participant a task's turns are stored under (statistics, the group log): the bot acting on its own. */
const TASK_USER = 'task'

/** The conversation of a task's runs. */
const taskConversation = (task: Pick<Task, 'id' | 'target'>): string => conversationIdOf(`${TASK_USER}-${task.id}`, task.target.groupId)

/** What a run came to, before it is recorded (the service adds ids and times). */
export type RunOutcome = Pick<TaskRun, 'status' | 'delivered' | 'tokens' | 'cost' | 'tools'> & Partial<Pick<TaskRun, 'answer' | 'error' | 'skipReason' | 'model' | 'channel' | 'whyId'>>

const NO_TOKENS = { input: 0, output: 0, cached: 0 }
export const skipped = (skipReason: string, error: string): RunOutcome => ({ status: 'skipped', skipReason, error, delivered: false, tokens: { ...NO_TOKENS }, cost: 0, tools: [] })

/**
 * Runs `task` now. Throws NotSentError when its chat cannot be reached yet (the host not connected): nothing
 * was asked of the model, so the occurrence may be tried again. Any other failure is a failed run.
 */
export async function runTask (rt: Runtime, task: Task, o: { timeZone: string; signal?: AbortSignal }): Promise<RunOutcome> {
  const userId = task.target.userId ?? ''
  let session: HostSession
  try {
    session = chatSession({ groupId: task.target.groupId, userId }, task.botId)
  } catch (err) { throw new NotSentError(errorText(err)) }
  const groupId = task.target.groupId
  // the group (or the user of a private task) is not refused by the access rules; the account-risk guard pauses the bot's own posts
  if (!mayReact(rt, session)) return skipped('refused', 'The access rules refuse this chat')
  if (groupId !== undefined && rt.optional('guard')?.pausesProactive(groupId)) return skipped('guarded', 'The group is guarded against account risk (lib/guard): the bot does not post on its own there now')
  // the group's daily quota (lib/governance): a task's tokens count against it (below), and a spent one skips the run
  if (groupId !== undefined) {
    const left = (await rt.optional('governance')?.quotaLeft({ userId: TASK_USER, groupId, isMaster: false, isGroupAdmin: false }))?.group
    if (left && (left.tokens === 0 || left.messages === 0)) return skipped('quota', 'The group\'s daily quota is spent (quotas.group)')
  }
  const conversations = rt.need('conversations')
  const conversationId = taskConversation(task)
  if (!task.keepHistory) {
    // each run starts afresh: yesterday's digest is not today's context (and costs nothing)
    await conversations.pipeline.afterTurns(conversationId, async () => {
      conversations.pipeline.forget(conversationId)
      await conversations.store.delete(conversationId)
    })
  }
  const scope: ChatScope = {
    userId: TASK_USER,
    nickname: task.name,
    ...(groupId !== undefined ? { groupId } : {}),
    ...(task.botId ? { botId: task.botId } : {}),
    // the creator's rights, never more: a group admin's task does not run master-only tools
    isMaster: task.byMaster,
    via: 'bot',
    conversationId
  }
  const lang = rt.config.get().language
  const input = t(lang, groupId !== undefined ? 'tasks.prompt.group' : 'tasks.prompt.private', {
    name: task.name, time: formatWall(o.timeZone, rt.clock.now()), prompt: task.prompt
  })
  let delivered = false
  let answer: string | undefined
  let blocked = false
  try {
    const res = await conversations.pipeline.admitted(scope, input, {
      ...(task.presetId ? { presetId: task.presetId } : {}),
      ...(task.channel ? { channel: task.channel } : {}),
      ...(task.model ? { model: task.model } : {}),
      toolsEnabled: task.tools.length > 0,
      onlyTools: task.tools,
      ...(o.signal ? { signal: o.signal } : {}),
      onAnswer: async (response, media) => {
        // the text as it went out (banned words masked); undefined: withheld by the moderation gate
        const sent = await sayUnasked(rt, session, response, media)
        if (sent === undefined) { blocked = true; return }
        answer = sent
        delivered = true
      }
    })
    recordTurnTokens(rt, session, res.usage)
    const spent = spending(rt, res.whyId, res.usage)
    if (blocked) return { status: 'failed', error: 'The answer was withheld by the moderation rules', delivered: false, ...spent, answer: res.response }
    return { status: 'ok', delivered, ...spent, answer: answer ?? res.response }
  } catch (err) {
    const error = err instanceof AppError ? `${err.code}: ${err.message}` : errorText(err)
    return { status: 'failed', error: answer !== undefined && !delivered ? `Answered, but the answer could not be sent: ${error}` : error, delivered, tokens: { ...NO_TOKENS }, cost: 0, tools: [], ...(answer !== undefined ? { answer } : {}) }
  }
}

/** A run's tokens and cost from its "why" record (every model call, cached input included); without one, the turn's totals unpriced. */
function spending (rt: Runtime, whyId: string | undefined, usage: { promptTokens: number; completionTokens: number }): Pick<RunOutcome, 'tokens' | 'cost' | 'tools' | 'model' | 'channel' | 'whyId'> {
  const why = whyId ? rt.optional('why')?.store.get(whyId) : undefined
  if (!why) return { tokens: { input: usage.promptTokens, output: usage.completionTokens, cached: 0 }, cost: null, tools: [] }
  const table = priceTable(rt.config.get().pricing)
  let cost: number | null = null
  let input = 0
  let output = 0
  let cached = 0
  for (const c of why.calls ?? []) {
    input += c.promptTokens
    output += c.completionTokens
    cached += c.cachedTokens
    const f = table.modelCost(c.model, [c.promptTokens, c.completionTokens, c.cachedTokens], c.promptTokens + c.completionTokens)
    if (f.cost !== null) cost = (cost ?? 0) + f.cost
  }
  if (!why.calls?.length) { input = why.usage.promptTokens; output = why.usage.completionTokens; cached = why.usage.cachedTokens ?? 0 }
  return { tokens: { input, output, cached }, cost, tools: why.tools.map((x) => x.name), model: why.model, channel: why.channel, whyId }
}
