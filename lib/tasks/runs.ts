// The tasks' runs (store `task-runs` on the storage port): each task's runs in time order, kept to the newest
// `tasks.runsKept`, what they cost in a month, and another instance's runs followed through onRemote.
import { monthKey } from '../stats/cost.js'
import type { RecordStore } from '../storage/records.js'
import type { Task, TaskRun } from './types.js'

export class TaskRuns {
  /** runs by task, oldest first (built from the store; the store is the truth) */
  private readonly byTask = new Map<string, TaskRun[]>()

  constructor (private readonly store: RecordStore<TaskRun, string>) {
    for (const r of store.values()) this.index(r)
    store.onRemote((id, r) => { if (r) this.index(r); else this.unindex(id) })
  }

  onRemote (listener: () => void): () => void { return this.store.onRemote(() => { listener() }) }

  async close (): Promise<void> { await this.store.close() }

  /** A task's runs, newest first. */
  of (taskId: string, limit = 50): TaskRun[] {
    return [...(this.byTask.get(taskId) ?? [])].reverse().slice(0, limit)
  }

  /** What the runs cost in the month of `at` in `timeZone` (all tasks, or one), in the price table's currency. */
  spent (at: number, timeZone: string, taskId?: string): number {
    const month = monthKey(at, timeZone)
    let sum = 0
    const lists = taskId !== undefined ? [this.byTask.get(taskId) ?? []] : this.byTask.values()
    for (const list of lists) for (const r of list) if (r.cost && monthKey(r.startedAt, timeZone) === month) sum += r.cost
    return Math.round(sum * 1e6) / 1e6
  }

  /** Records a run of `task` (its id from the start time) and keeps the newest `keep` of that task. */
  async add (task: Pick<Task, 'id'>, run: Omit<TaskRun, 'id' | 'taskId'>, keep: number): Promise<TaskRun> {
    let id = `${task.id}-${run.startedAt.toString(36)}`
    for (let n = 2; this.store.has(id); n++) id = `${task.id}-${run.startedAt.toString(36)}-${n}`
    const stored: TaskRun = { id, taskId: task.id, ...run }
    await this.store.put(stored)
    this.index(stored)
    const list = this.byTask.get(task.id) ?? []
    for (const r of list.slice(0, Math.max(0, list.length - keep))) { await this.store.delete(r.id); this.unindex(r.id) }
    return stored
  }

  /** A removed task's runs go with it. */
  async removeAll (taskId: string): Promise<void> {
    for (const r of this.byTask.get(taskId) ?? []) await this.store.delete(r.id)
    this.byTask.delete(taskId)
  }

  private index (r: TaskRun): void {
    let list = this.byTask.get(r.taskId)
    if (!list) this.byTask.set(r.taskId, (list = []))
    const at = list.findIndex((x) => x.id === r.id)
    if (at >= 0) list[at] = r
    else {
      list.push(r)
      if (list.length > 1 && (list[list.length - 2] as TaskRun).startedAt > r.startedAt) list.sort((a, b) => a.startedAt - b.startedAt)
    }
  }

  private unindex (runId: string): void {
    // a run's id starts with its task's (`t` + base36, no hyphen)
    const taskId = runId.slice(0, runId.indexOf('-'))
    const list = this.byTask.get(taskId)
    const at = list ? list.findIndex((x) => x.id === runId) : -1
    if (!list || at < 0) return
    list.splice(at, 1)
    if (!list.length) this.byTask.delete(taskId)
  }
}
