// The chat turn as named steps (README of this folder, "The turn, step by step"). Each domain declares
// its steps on `rt.chat.steps` at start (lib/chat/contracts.ts TurnStep: a name, the entries it takes
// part in, `before`/`after` by name); both entries, a QQ message (apps/chat.ts) and the HTTP chat
// (routes/chat.ts), run the same list through `runTurn`, the route adding its own stream step.
import type { ChatTurn, StepOutcome, TurnStep, TurnVia } from './contracts.js'

/** Steps that cannot be ordered: two with one name, or before/after in a circle. */
export class StepOrderError extends Error {
  override name = 'StepOrderError'
}

/**
 * The steps of one entry in their order: each after the steps it names in `after` and those naming it in
 * `before`; otherwise in the order declared. Names no step has are ignored (a domain that is not running).
 */
export function orderSteps (steps: readonly TurnStep[], via: TurnVia): TurnStep[] {
  const mine = steps.filter((s) => s.via.includes(via))
  const byName = new Map<string, TurnStep>()
  for (const s of mine) {
    if (byName.has(s.name)) throw new StepOrderError(`Two chat steps are named ${s.name}`)
    byName.set(s.name, s)
  }
  const first = new Map<TurnStep, TurnStep[]>(mine.map((s) => [s, []]))
  for (const s of mine) {
    for (const n of s.after ?? []) { const o = byName.get(n); if (o) first.get(s)?.push(o) }
    for (const n of s.before ?? []) { const o = byName.get(n); if (o) first.get(o)?.push(s) }
  }
  // what must come first is visited in the declared order too
  const rank = new Map(mine.map((s, i) => [s, i]))
  for (const list of first.values()) list.sort((a, b) => (rank.get(a) ?? 0) - (rank.get(b) ?? 0))
  const order: TurnStep[] = []
  const state = new Map<TurnStep, 'visiting' | 'done'>()
  const visit = (s: TurnStep, path: string[]): void => {
    if (state.get(s) === 'done') return
    if (state.get(s) === 'visiting') throw new StepOrderError(`Chat steps in a circle: ${[...path.slice(path.indexOf(s.name)), s.name].join(' -> ')}`)
    state.set(s, 'visiting')
    for (const o of first.get(s) ?? []) visit(o, [...path, s.name])
    state.set(s, 'done')
    order.push(s)
  }
  for (const s of mine) visit(s, [])
  return order
}

/**
 * Runs a turn through the steps of its entry (and `extra` steps of this turn only). Resolves 'done' or
 * 'pass' (a step said so, or every step ran: 'done'); a step's error ends the turn and is thrown after
 * the cleanup ran with `turn.error` set.
 */
export async function runTurn (steps: readonly TurnStep[], turn: ChatTurn, extra: readonly TurnStep[] = []): Promise<Exclude<StepOutcome, void>> {
  const order = extra.length ? orderSteps([...steps, ...extra], turn.via) : orderedOnce(steps, turn.via)
  try {
    let passed = false
    for (const step of order) {
      if (passed !== (step.onPass === true)) continue
      const said = await step.run(turn)
      if (said === 'done') return 'done'
      if (said === 'pass') passed = true
    }
    return passed ? 'pass' : 'done'
  } catch (err) {
    turn.error = err
    throw err
  } finally {
    for (const fn of turn.cleanup.splice(0).reverse()) await fn()
  }
}

/** Each list's order per entry, made again only when a domain added a step since (every message runs it). */
const orders = new WeakMap<readonly TurnStep[], { size: number; by: Map<TurnVia, TurnStep[]> }>()

function orderedOnce (steps: readonly TurnStep[], via: TurnVia): TurnStep[] {
  let known = orders.get(steps)
  if (known?.size !== steps.length) orders.set(steps, (known = { size: steps.length, by: new Map() }))
  let order = known.by.get(via)
  if (!order) known.by.set(via, (order = orderSteps(steps, via)))
  return order
}

/** A new turn of an entry with the user's words. */
export function newTurn (via: TurnVia, text: string, fields: Partial<Pick<ChatTurn, 'host' | 'scope' | 'options' | 'images'>> = {}): ChatTurn {
  return { via, text, images: fields.images ?? [], messageIds: [], options: fields.options ?? {}, answerChecks: [], onAnswered: [], answered: false, cleanup: [], ...(fields.host ? { host: fields.host } : {}), ...(fields.scope ? { scope: fields.scope } : {}) }
}
