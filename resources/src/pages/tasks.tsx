// Scheduled tasks (routes/tasks.ts): the next runs of the coming week by day, this month's spending against
// the tasks' budget, the tasks (target, schedule in words, next time, state, last run) with run now, pause or
// resume, edit and delete, the form that makes or changes one (pages/tasks-form.tsx) and a task's run history
// with its answers (pages/tasks-runs.tsx). Texts in i18n-tasks.ts.
import { useState } from 'preact/hooks'
import { api } from '../api'
import { locale, t, tv } from '../i18n'
import type { Task, TaskRun } from '../../../lib/tasks/types'
import { Act, Card, EmptyState, View, confirmDanger, toast, useLoad, type Loaded } from '../ui'
import { TaskForm } from './tasks-form'
import { money, RunsCard, RunStatus, when, type TaskDetail } from './tasks-runs'
import './tasks.css'

/** A task as GET /api/tasks lists it (routes/tasks.ts). */
type TaskItem = Task & {
  next: string | null, timeZone: string, scheduleWords: string, spentThisMonth: number
  lastRun: { id: string, status: TaskRun['status'], startedAt: number, cost: number | null, error?: string } | null
}
/** GET /api/tasks/upcoming: `next` is the wall time (YYYY-MM-DD HH:MM) of `at` in the tasks' time zone. */
interface Upcoming { at: number, next: string, taskId: string, name: string }
/** GET /api/tasks/spent */
interface Spent { month: string, spent: number, budget: number, currency: string }

/**
 * The runs grouped by their day in the tasks' time zone. "Today" is that zone's date now, found from an
 * entry's own offset (its wall time minus its instant), so the browser's zone does not matter.
 */
function byDay (list: Upcoming[], now: number): Array<{ day: string, label: string, runs: Upcoming[] }> {
  const first = list[0]
  const offset = first ? Date.parse(`${first.next.replace(' ', 'T')}:00Z`) - first.at : 0
  const dayAt = (ms: number): string => new Date(ms + offset).toISOString().slice(0, 10)
  const today = dayAt(now)
  const tomorrow = dayAt(now + 86_400_000)
  const out: Array<{ day: string, label: string, runs: Upcoming[] }> = []
  for (const u of list) {
    const day = u.next.slice(0, 10)
    let group = out.at(-1)
    if (group?.day !== day) {
      // a later day by its date and weekday (the date is the zone's own: read as UTC, it stays that day)
      const label = day === today ? t('tk.today') : day === tomorrow ? t('tk.tomorrow')
        : new Date(`${day}T12:00:00Z`).toLocaleDateString(locale(), { month: 'short', day: 'numeric', weekday: 'short', timeZone: 'UTC' })
      out.push(group = { day, label, runs: [] })
    }
    group.runs.push(u)
  }
  return out
}

function UpcomingCard ({ upcoming, spent }: { upcoming: Loaded<Upcoming[]>, spent: Loaded<Spent> }) {
  const s = spent.data
  const pct = s && s.budget > 0 ? Math.min(100, Math.round(s.spent / s.budget * 100)) : 0
  return <Card title={t('tk.upcoming')} testid="tk-upcoming">
    {s && <div class="tk-spent" data-testid="tk-spent">
      <strong>{t('tk.spent')}</strong>{' '}
      <span>{s.budget > 0 ? tv('tk.spentOf', { spent: money(s.spent, '').trim(), budget: s.budget, currency: s.currency }) : tv('tk.spentNoCap', { spent: money(s.spent, '').trim(), currency: s.currency })}</span>
      {s.budget > 0 && <div class="bar" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-label={tv('tk.budgetBar', { p: pct })}><div style={{ width: `${pct}%` }} /></div>}
    </div>}
    <View load={upcoming} empty={<p class="muted" data-testid="tk-no-upcoming">{t('tk.noUpcoming')}</p>}>{list =>
      <div class="tk-days">{byDay(list, Date.now()).map(g => <section key={g.day} class="tk-day" aria-labelledby={`tk-day-${g.day}`}>
        <h3 id={`tk-day-${g.day}`}>{g.label}</h3>
        <ul>{g.runs.map(u => <li key={`${u.taskId}-${u.at}`} data-testid="tk-upcoming-run"><time dateTime={new Date(u.at).toISOString()}>{u.next.slice(11)}</time> <span>{u.name}</span></li>)}</ul>
      </section>)}</div>}
    </View>
  </Card>
}

const stateOf = (task: TaskItem): string => task.paused ? t(`tk.paused.${task.paused}`) : task.nextAt === undefined ? t('tk.finished') : t('tk.active')
const targetOf = (task: Task): string => task.target.groupId !== undefined ? tv('tk.group', { id: task.target.groupId }) : tv('tk.private', { id: task.target.userId ?? '' })
/** The task a row's button acts on, read after the button's word (screen readers; the rows look alike otherwise). */
const named = (name: string): string => tv('tk.actOn', { name })

export default function Tasks () {
  const list = useLoad<TaskItem[]>('/api/tasks')
  const upcoming = useLoad<Upcoming[]>('/api/tasks/upcoming?days=7')
  const spent = useLoad<Spent>('/api/tasks/spent')
  // undefined: no form; null: a new task
  const [editing, setEditing] = useState<Task | null | undefined>(undefined)
  const [historyOf, setHistoryOf] = useState<TaskItem | null>(null)
  const history = useLoad<TaskDetail>(historyOf ? `/api/tasks/${encodeURIComponent(historyOf.id)}` : null)
  const [justRan, setJustRan] = useState<TaskRun | null>(null)
  const currency = spent.data?.currency ?? ''
  const reload = (): void => { list.reload(); upcoming.reload(); spent.reload() }
  const showHistory = (task: TaskItem): void => {
    setJustRan(null)
    if (historyOf?.id === task.id) history.reload()
    else setHistoryOf(task)
  }

  const actions = (task: TaskItem) => <div class="row tk-actions">
    <Act kind="primary" testid={`tk-runnow-${task.id}`} run={async () => {
      const run = await api<TaskRun>(`/api/tasks/${encodeURIComponent(task.id)}/run`, { method: 'POST' })
      showHistory(task)
      setJustRan(run)
      reload()
    }}>{t('tk.runNow')}<span class="sr-only">{named(task.name)}</span></Act>
    {task.paused
      ? <Act testid={`tk-resume-${task.id}`} done={t('tk.resumedDone')} run={async () => { await api(`/api/tasks/${encodeURIComponent(task.id)}/resume`, { method: 'POST' }); reload() }}>
        {t('tk.resume')}<span class="sr-only">{named(task.name)}</span></Act>
      : <Act testid={`tk-pause-${task.id}`} done={t('tk.pausedDone')} run={async () => { await api(`/api/tasks/${encodeURIComponent(task.id)}/pause`, { method: 'POST' }); reload() }}>
        {t('tk.pause')}<span class="sr-only">{named(task.name)}</span></Act>}
    <button type="button" data-testid={`tk-history-${task.id}`} onClick={() => showHistory(task)}>{t('tk.history')}<span class="sr-only">{named(task.name)}</span></button>
    <button type="button" data-testid={`tk-edit-${task.id}`} onClick={() => setEditing(task)}>{t('tk.edit')}<span class="sr-only">{named(task.name)}</span></button>
    <Act kind="danger" testid={`tk-delete-${task.id}`} run={async () => {
      if (!await confirmDanger(tv('tk.confirmDelete', { name: task.name }))) return
      await api(`/api/tasks/${encodeURIComponent(task.id)}`, { method: 'DELETE' })
      toast(t('tk.deleted'))
      if (historyOf?.id === task.id) setHistoryOf(null)
      if (editing?.id === task.id) setEditing(undefined)
      reload()
    }}>{t('tk.delete')}<span class="sr-only">{named(task.name)}</span></Act>
  </div>

  return <div class="tk-page">
    <p class="muted">{t('tk.hint')}</p>
    <UpcomingCard upcoming={upcoming} spent={spent} />
    <Card title={t('tk.list')} testid="tk-list" extra={<>
      <button type="button" data-testid="tk-refresh" onClick={reload}>{t('refresh')}</button>
      <button type="button" class="primary" data-testid="tk-new" onClick={() => setEditing(null)}>{t('tk.new')}</button>
    </>}>
      <View load={list} empty={<EmptyState text={t('tk.none')} />}>{tasks => <div class="scroll"><table>
        <thead><tr>{[t('name'), t('tk.target'), t('tk.schedule'), t('tk.next'), t('tk.state'), t('tk.lastRun'), t('actions')].map(c => <th key={c}>{c}</th>)}</tr></thead>
        <tbody>{tasks.map(task => <tr key={task.id} data-testid={`tk-row-${task.id}`}>
          <td data-label={t('name')}><strong data-testid={`tk-name-${task.id}`}>{task.name}</strong></td>
          <td data-label={t('tk.target')}>{targetOf(task)}</td>
          <td data-label={t('tk.schedule')}><span data-testid={`tk-words-${task.id}`}>{task.scheduleWords}</span>{task.scheduleWords !== task.scheduleText && <span class="muted"> ({task.scheduleText})</span>}</td>
          <td data-label={t('tk.next')}><span data-testid={`tk-next-${task.id}`} title={task.timeZone}>{task.next ?? t('tk.noNext')}</span></td>
          <td data-label={t('tk.state')}><span data-testid={`tk-state-${task.id}`} class={task.paused ? 'tk-paused' : ''} data-state={task.paused ?? (task.nextAt === undefined ? 'finished' : 'active')}>{stateOf(task)}</span></td>
          <td data-label={t('tk.lastRun')}>{task.lastRun
            ? <span data-testid={`tk-last-${task.id}`}><RunStatus status={task.lastRun.status} /> · {when(task.lastRun.startedAt)} · {money(task.lastRun.cost, currency)}</span>
            : <span class="muted">{t('tk.never')}</span>}</td>
          <td data-label={t('actions')}>{actions(task)}</td>
        </tr>)}</tbody>
      </table></div>}</View>
    </Card>
    {editing !== undefined && <TaskForm key={editing?.id ?? 'new'} task={editing} onDone={saved => { setEditing(undefined); if (saved) { reload(); if (historyOf) history.reload() } }} />}
    {historyOf && <RunsCard load={history} name={historyOf.name} currency={currency} fresh={justRan} onClose={() => { setHistoryOf(null); setJustRan(null) }} />}
  </div>
}
