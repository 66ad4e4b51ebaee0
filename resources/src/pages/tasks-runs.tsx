// A task's run history (GET /api/tasks/:id: the task and its runs, newest first): each run's time, result,
// late/by-hand marks, tokens, cost, answer and error. The answer is shown as the chat page shows one: plain
// text with its line breaks (the dashboard has no markdown renderer).
import { locale, t, tv } from '../i18n'
import type { Task, TaskRun } from '../../../lib/tasks/types'
import { Card, ErrorBox, View, type Loaded } from '../ui'

/** GET /api/tasks/:id (routes/tasks.ts). */
export type TaskDetail = Task & { runs: TaskRun[] }

export const when = (ms: number): string => new Date(ms).toLocaleString(locale(), { hour12: false })

/** A cost in the price table's currency; null (the model has no price) is "unpriced", not 0. */
export function money (v: number | null | undefined, currency: string): string {
  if (v === null || v === undefined) return t('tk.unpriced')
  return `${v.toLocaleString(locale(), { maximumFractionDigits: 4 })} ${currency}`
}

export function RunStatus ({ status }: { status: TaskRun['status'] }) {
  return <span class={`tk-status tk-${status}`}>{t(`tk.r.${status}`)}</span>
}

/** One run: when, how it went, what it cost, what it answered. */
function RunItem ({ run, currency, fresh }: { run: TaskRun, currency: string, fresh: boolean }) {
  return <li class={fresh ? 'tk-run tk-fresh' : 'tk-run'} data-testid={`tk-r-${run.id}`} data-status={run.status}>
    {fresh && <div class="tk-fresh-label">{t('tk.lastResult')}</div>}
    <div class="row tk-run-head">
      <time dateTime={new Date(run.startedAt).toISOString()}>{when(run.startedAt)}</time>
      <RunStatus status={run.status} />
      {run.late && <span class="tk-mark">{t('tk.r.late')}</span>}
      {run.trigger === 'manual' && <span class="tk-mark">{t('tk.r.manual')}</span>}
      {run.status === 'ok' && !run.delivered && <span class="tk-mark">{t('tk.r.notDelivered')}</span>}
    </div>
    <dl class="tk-run-facts">
      <dt>{t('tk.r.tokens')}</dt><dd data-testid={`tk-r-tokens-${run.id}`}>{tv('tk.r.tokensOf', run.tokens)}</dd>
      <dt>{t('tk.r.cost')}</dt><dd data-testid={`tk-r-cost-${run.id}`}>{money(run.cost, currency)}</dd>
      {run.model && <><dt>{t('model')}</dt><dd>{run.channel ? `${run.channel} / ${run.model}` : run.model}</dd></>}
      {run.tools.length > 0 && <><dt>{t('toolsShort')}</dt><dd>{run.tools.join(', ')}</dd></>}
    </dl>
    {run.answer && <div class="tk-answer"><h4>{t('tk.r.answer')}</h4><div class="tk-answer-text" data-testid={`tk-r-answer-${run.id}`}>{run.answer}</div></div>}
    {run.error && <div data-testid={`tk-r-error-${run.id}`}><h4>{t('tk.r.error')}</h4><ErrorBox error={run.error} /></div>}
  </li>
}

/** The runs of a task; `fresh`: the run just made by "run now" (marked, and its result announced). */
export function RunsCard ({ load, name, currency, fresh, onClose }: { load: Loaded<TaskDetail>, name: string, currency: string, fresh: TaskRun | null, onClose: () => void }) {
  return <Card title={tv('tk.runsOf', { name })} testid="tk-runs" extra={<>
    <button type="button" data-testid="tk-runs-refresh" onClick={load.reload}>{t('refresh')}</button>
    <button type="button" data-testid="tk-runs-close" onClick={onClose}>{t('tk.close')}</button>
  </>}>
    <p class="sr-only" role="status">{fresh ? `${t('tk.lastResult')}${t('bs.colon')}${t(`tk.r.${fresh.status}`)}` : ''}</p>
    <View load={load} isEmpty={d => d.runs.length === 0} empty={<p class="muted">{t('tk.noRuns')}</p>}>
      {d => <ol class="tk-runs">{d.runs.map(r => <RunItem key={r.id} run={r} currency={currency} fresh={r.id === fresh?.id} />)}</ol>}
    </View>
  </Card>
}
