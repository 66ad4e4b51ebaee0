import { useEffect, useState } from 'preact/hooks'
import { BASE } from '../api'
import { t } from '../i18n'
import type { StatsSummary, SystemHealth, SystemStatus } from '../contracts'
import { Card, Table, View, useLoad, word } from '../ui'
import { GuardCard } from '../guard-card'

interface Daily { date: string, messages: number, responses: number, toolCalls: number, tokens: number }

/** Hand-drawn SVG line chart: one polyline per series, no chart library. */
function Chart ({ rows, keys }: { rows: Daily[], keys: Array<keyof Daily> }) {
  const w = 600; const h = 150; const colors = ['#4f46e5', '#16a34a', '#ea580c']
  const max = Math.max(1, ...rows.flatMap(r => keys.map(k => Number(r[k]) || 0)))
  const x = (i: number): number => rows.length < 2 ? w / 2 : (i / (rows.length - 1)) * (w - 4) + 2
  const y = (v: number): number => h - 5 - (v / max) * (h - 10)
  return <div>
    <svg class="chart" viewBox={`0 0 ${w} ${h}`} preserveAspectRatio="none" role="img" aria-label={t('daily')}>
      {keys.map((k, j) => <polyline key={k} fill="none" stroke={colors[j]} stroke-width="2" vector-effect="non-scaling-stroke"
        points={rows.map((r, i) => `${x(i)},${y(Number(r[k]) || 0)}`).join(' ')} />)}
    </svg>
    {/* date labels in HTML: text inside the stretched SVG would be distorted */}
    <div class="chart-x muted">{rows.filter((_, i) => i % Math.ceil(rows.length / 7) === 0).map(r => <span key={r.date}>{r.date.slice(5)}</span>)}</div>
    <div class="row muted">{keys.map((k, j) => <span key={k} style={{ color: colors[j] }}>■ {t(String(k))} </span>)} max {max.toLocaleString()}</div>
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

function Live () {
  const [events, setEvents] = useState<Array<{ name: string, data: string, at: string }>>([])
  const [connected, setConnected] = useState(false)
  useEffect(() => {
    const es = new EventSource(`${BASE}/api/system/events`, { withCredentials: true })
    const add = (name: string) => (e: MessageEvent) => setEvents(l => [{ name, data: String(e.data), at: new Date().toLocaleTimeString() }, ...l].slice(0, 30))
    for (const n of ['status', 'metric', 'error', 'channel']) es.addEventListener(n, add(n) as EventListener)
    es.onopen = () => setConnected(true)
    es.onerror = () => setConnected(false)
    return () => es.close()
  }, [])
  const last = events.find(e => e.name === 'metric')
  let m: Metric | undefined
  try { m = last ? JSON.parse(last.data) as Metric : undefined } catch { m = undefined }
  return <Card title={t('liveMetrics')} extra={<span class={connected ? 'ok' : 'bad'} data-testid="sse-state">● {t(connected ? 'liveOn' : 'liveOff')}</span>}>
    {m && <div class="grid" data-testid="metric">
      <div class="stat">{t('rss')}<b>{mb(m.memory?.rss)}</b></div>
      <div class="stat">{t('heap')}<b>{mb(m.memory?.heapUsed)}</b></div>
      <div class="stat">{t('uptime')}<b>{minutes(m.uptime)}</b></div>
      <div class="stat">{t('messages')}<b>{(m.messages ?? 0).toLocaleString()}</b></div>
      <div class="stat">{t('tokens')}<b>{(m.tokens ?? 0).toLocaleString()}</b></div>
      <div class="stat">{t('toolCalls')}<b>{(m.toolCalls ?? 0).toLocaleString()}</b></div>
    </div>}
    <h4>{t('lastEvents')}</h4>
    <Table cols={[t('time'), t('event'), t('data')]} rows={events.slice(0, 10).map(e => [e.at, e.name, <span class={e.name === 'error' ? 'bad' : ''} title={e.data}>{summary(e.name, e.data)}</span>])} />
  </Card>
}

export default function Overview () {
  const status = useLoad<SystemStatus>('/api/system/status')
  const health = useLoad<SystemHealth>('/api/system/health')
  const [period, setPeriod] = useState('week')
  const stats = useLoad<StatsSummary>(`/api/stats?period=${period}`)
  return <div>
    <Card title={t('status')}>
      <View load={status}>{s => <div class="grid" data-testid="status">
        <div class="stat">{t('status')}<b class={s.status === 'running' ? 'ok' : 'bad'}>{word(s.status)}</b></div>
        <div class="stat">{t('version')}<b>{s.version}</b></div>
        <div class="stat">{t('uptime')}<b>{minutes(s.uptime)}</b></div>
        <div class="stat">{t('memoryUse')}<b>{s.memory?.percentage ?? '-'}%</b></div>
        <div class="stat">{t('bot')}<b class={s.bot?.connected ? 'ok' : 'bad'}>{s.bot?.connected ? s.bot.platform || word('connected') : word('off')}</b></div>
      </div>}</View>
    </Card>
    <Card title={t('health')}>
      <View load={health}>{h => <div class="grid">
        <div class="stat">{t('health')}<b class={h.healthy ? 'ok' : 'bad'}>{h.healthy ? word('ok') : word('error')}</b></div>
        {Object.entries(h.checks ?? {}).map(([k, v]) => <div class="stat" key={k}>{t(k === 'config' || k === 'channels' ? `${k}_check` : k)}
          <b class={v?.status === 'ok' ? 'ok' : v?.status === 'error' ? 'bad' : ''}>{word(v?.status)}</b>
          {v?.latency !== undefined && <span class="muted">{v.latency} ms</span>}{v?.available !== undefined && <span class="muted">{v.available}</span>}</div>)}
      </div>}</View>
    </Card>
    <Card title={t('daily')} extra={<select value={period} onChange={e => setPeriod((e.target as HTMLSelectElement).value)}>
      {['day', 'week', 'month', 'all'].map(p => <option key={p} value={p}>{t(`period_${p}`)}</option>)}</select>}>
      <View load={stats} isEmpty={() => false}>{d => <div>
        <div class="grid">{Object.entries(d.summary ?? {}).map(([k, v]) => <div class="stat" key={k}>{t(k)}<b>{typeof v === 'number' ? v.toLocaleString() : String(v)}</b></div>)}</div>
        {(d.daily?.length ?? 0) > 0 ? <><Chart rows={d.daily} keys={['messages', 'responses', 'toolCalls']} /><Chart rows={d.daily} keys={['tokens']} /></> : null}
      </div>}</View>
    </Card>
    <GuardCard />
    <Live />
  </div>
}
