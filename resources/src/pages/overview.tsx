import { useEffect, useState } from 'preact/hooks'
import { BASE } from '../api'
import { locale, t } from '../i18n'
import type { StatsSummary, SystemHealth, SystemStatus } from '../contracts'
import { Card, Table, View, useLoad, word } from '../ui'
import { LineChart } from '../chart'
import { FirstRun } from './first-run'
import { GuardCard } from '../guard-card'
import { InstancesCard } from '../instances-card'
import { VersionCard } from '../version-card'

type StatRow = Counters & { label: string, title: string }
interface Counters { messages: number, responses: number, toolCalls: number, tokens: number }

/** The period's rows for the charts: today by hour (local time), else by day. */
function rowsOf (d: StatsSummary): StatRow[] {
  const two = (n: number): string => String(n).padStart(2, '0')
  if (d.hourly?.length) {
    return d.hourly.map(h => {
      const at = new Date(h.time)
      return { ...h, label: `${two(at.getHours())}:00`, title: `${at.toLocaleDateString(locale())} ${two(at.getHours())}:00–${two(at.getHours())}:59` }
    })
  }
  return d.daily.map(r => ({ ...r, label: r.date.slice(5), title: r.date }))
}

function Charts ({ d }: { d: StatsSummary }) {
  const rows = rowsOf(d)
  if (!rows.length) return <p class="muted" data-testid="chart-none">{t('ov.noData')}</p>
  const points = rows.map(r => ({ label: r.label, title: r.title, values: { messages: r.messages, responses: r.responses, toolCalls: r.toolCalls, tokens: r.tokens } }))
  return <div data-testid="overview-charts">
    <LineChart title={t('ov.activity')} testid="chart-activity" points={points}
      series={[{ key: 'messages', label: t('messages') }, { key: 'responses', label: t('responses') }, { key: 'toolCalls', label: t('toolCalls') }]} />
    <LineChart title={t('tokens')} testid="chart-tokens" points={points} series={[{ key: 'tokens', label: t('tokens') }]} />
  </div>
}

interface Metric { memory?: { rss?: number, heapUsed?: number }, uptime?: number, messages?: number, tokens?: number, toolCalls?: number }

const mb = (n?: number): string => n === undefined ? '-' : `${Math.round(n / 1048576)} MB`
const minutes = (sec?: number): string => sec === undefined ? '-' : `${Math.floor(sec / 60)} ${t('minutes')}`

/** One line for an event of the table: the metric in words, anything else as compact JSON. */
function summary (name: string, data: string): string {
  try {
    const d = JSON.parse(data) as Record<string, unknown>
    if (name === 'metric') {
      const m = d as Metric
      return `${t('rss')} ${mb(m.memory?.rss)} · ${t('heap')} ${mb(m.memory?.heapUsed)} · ${t('messages')} ${m.messages ?? 0} · ${t('tokens')} ${m.tokens ?? 0} · ${t('toolCalls')} ${m.toolCalls ?? 0}`
    }
    if (name === 'status') return `${word(d.status)} · ${String(d.version ?? '')} · ${String(d.runtime ?? '')}`
  } catch { /* not JSON: shown as it came */ }
  return data.slice(0, 160)
}

type LiveState = 'connecting' | 'live' | 'reconnecting' | 'closed'

function Live () {
  const [events, setEvents] = useState<Array<{ name: string, data: string, at: string }>>([])
  const [state, setState] = useState<LiveState>('connecting')
  const [n, setN] = useState(0)
  useEffect(() => {
    const es = new EventSource(`${BASE}/api/system/events`, { withCredentials: true })
    // The server's `error` events carry data; the EventSource's own `error` (the stream dropped) is a bare
    // Event on the same name: it changes the state, never adds a row.
    const add = (name: string) => (e: Event) => {
      if (!(e instanceof MessageEvent) || typeof e.data !== 'string') return
      setEvents(l => [{ name, data: e.data as string, at: new Date().toLocaleTimeString(locale()) }, ...l].slice(0, 30))
    }
    for (const name of ['status', 'metric', 'error', 'channel']) es.addEventListener(name, add(name))
    es.onopen = () => setState('live')
    es.onerror = () => setState(es.readyState === EventSource.CLOSED ? 'closed' : 'reconnecting')
    return () => es.close()
  }, [n])
  const connected = state === 'live'
  const last = events.find(e => e.name === 'metric')
  let m: Metric | undefined
  try { m = last ? JSON.parse(last.data) as Metric : undefined } catch { m = undefined }
  return <Card title={t('liveMetrics')} extra={<>
    <span class={connected ? 'ok' : 'bad'} data-testid="sse-state" data-state={state} role="status">● {t(`ov.live.${state}`)}</span>
    {state === 'closed' && <button data-testid="sse-reconnect" onClick={() => { setState('connecting'); setN(x => x + 1) }}>{t('reconnect')}</button>}</>}>
    {m && <div class="grid" data-testid="metric">
      <div class="stat">{t('rss')}<b>{mb(m.memory?.rss)}</b></div>
      <div class="stat">{t('heap')}<b>{mb(m.memory?.heapUsed)}</b></div>
      <div class="stat">{t('uptime')}<b>{minutes(m.uptime)}</b></div>
      <div class="stat">{t('messages')}<b>{(m.messages ?? 0).toLocaleString()}</b></div>
      <div class="stat">{t('tokens')}<b>{(m.tokens ?? 0).toLocaleString()}</b></div>
      <div class="stat">{t('toolCalls')}<b>{(m.toolCalls ?? 0).toLocaleString()}</b></div>
    </div>}
    <h4>{t('lastEvents')}</h4>
    <Table cols={[t('time'), t('event'), t('data')]} rows={events.slice(0, 10).map(e => [e.at, t(`ev.${e.name}`), <span class={e.name === 'error' ? 'bad' : ''} title={e.data}>{summary(e.name, e.data)}</span>])} />
  </Card>
}

export default function Overview () {
  const status = useLoad<SystemStatus>('/api/system/status')
  const health = useLoad<SystemHealth>('/api/system/health')
  const [period, setPeriod] = useState('week')
  const stats = useLoad<StatsSummary>(`/api/stats?period=${period}`)
  return <div>
    <FirstRun />
    <Card title={t('status')}>
      <View load={status}>{s => <div class="grid" data-testid="status">
        <div class="stat">{t('status')}<b class={s.status === 'running' ? 'ok' : 'bad'}>{word(s.status)}</b></div>
        <div class="stat">{t('version')}<b>{s.version}</b></div>
        <div class="stat">{t('uptime')}<b>{minutes(s.uptime)}</b></div>
        <div class="stat">{t('memoryUse')}<b>{s.memory?.percentage ?? '-'}%</b></div>
        <div class="stat">{t('bot')}<b class={s.bot?.connected ? 'ok' : 'bad'}>{s.bot?.connected ? s.bot.platform || word('connected') : word('off')}</b></div>
      </div>}</View>
    </Card>
    <VersionCard />
    <Card title={t('health')}>
      <View load={health}>{h => <div class="grid">
        <div class="stat">{t('health')}<b class={h.healthy ? 'ok' : 'bad'}>{h.healthy ? word('ok') : word('error')}</b></div>
        {Object.entries(h.checks ?? {}).map(([k, v]) => <div class="stat" key={k}>{t(k === 'config' || k === 'channels' ? `${k}_check` : k)}
          <b class={v?.status === 'ok' ? 'ok' : v?.status === 'error' ? 'bad' : ''}>{word(v?.status)}</b>
          {v?.latency !== undefined && <span class="muted">{v.latency} ms</span>}{v?.available !== undefined && <span class="muted">{v.available}</span>}</div>)}
      </div>}</View>
    </Card>
    <Card title={t('daily')} extra={<select aria-label={t('ov.period')} data-testid="period" value={period} onChange={e => setPeriod((e.target as HTMLSelectElement).value)}>
      {['day', 'week', 'month', 'all'].map(p => <option key={p} value={p}>{t(`period_${p}`)}</option>)}</select>}>
      <View load={stats} isEmpty={() => false}>{d => <div>
        <div class="grid">{Object.entries(d.summary ?? {}).filter(([k]) => t(k) !== k).map(([k, v]) => <div class="stat" key={k}>{t(k)}<b>{typeof v === 'number' ? v.toLocaleString() : String(v)}</b></div>)}</div>
        <Charts d={d} />
      </div>}</View>
    </Card>
    <GuardCard />
    <InstancesCard />
    <Live />
  </div>
}
