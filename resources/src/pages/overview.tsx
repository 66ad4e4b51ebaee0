import { useEffect, useState } from 'preact/hooks'
import { BASE } from '../api'
import { t } from '../i18n'
import { Card, Table, View, useLoad } from '../ui'

interface Daily { date: string, messages: number, responses: number, toolCalls: number, tokens: number }

/** Hand-drawn SVG line chart: one polyline per series, no chart library. */
function Chart ({ rows, keys }: { rows: Daily[], keys: Array<keyof Daily> }) {
  const w = 600; const h = 150; const colors = ['#4f46e5', '#16a34a', '#ea580c']
  const max = Math.max(1, ...rows.flatMap(r => keys.map(k => Number(r[k]) || 0)))
  const x = (i: number): number => rows.length < 2 ? w / 2 : (i / (rows.length - 1)) * (w - 20) + 10
  const y = (v: number): number => h - 15 - (v / max) * (h - 30)
  return <div>
    <svg class="chart" viewBox={`0 0 ${w} ${h}`} preserveAspectRatio="none" role="img" aria-label={t('daily')}>
      {keys.map((k, j) => <polyline key={k} fill="none" stroke={colors[j]} stroke-width="2"
        points={rows.map((r, i) => `${x(i)},${y(Number(r[k]) || 0)}`).join(' ')} />)}
      {rows.map((r, i) => i % Math.ceil(rows.length / 7) === 0 && <text key={i} x={x(i)} y={h - 2} font-size="10" text-anchor="middle" fill="#6b7280">{r.date.slice(5)}</text>)}
    </svg>
    <div class="row muted">{keys.map((k, j) => <span key={k} style={{ color: colors[j] }}>■ {t(String(k))} </span>)} max {max}</div>
  </div>
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
  const metric = events.find(e => e.name === 'metric')
  return <Card title={t('liveMetrics')} extra={<span class={connected ? 'ok' : 'bad'} data-testid="sse-state">● {connected ? 'live' : 'offline'}</span>}>
    {metric && <pre data-testid="metric">{metric.data}</pre>}
    <Table cols={['time', 'event', 'data']} rows={events.slice(0, 10).map(e => [e.at, e.name, <code>{e.data.slice(0, 160)}</code>])} />
  </Card>
}

export default function Overview () {
  const status = useLoad('/api/system/status')
  const health = useLoad('/api/system/health')
  const [period, setPeriod] = useState('week')
  const stats = useLoad(`/api/stats?period=${period}`)
  return <div>
    <Card title={t('status')}>
      <View load={status}>{s => <div class="grid" data-testid="status">
        <div class="stat">{t('status')}<b>{s.status}</b></div>
        <div class="stat">version<b>{s.version}</b></div>
        <div class="stat">{t('uptime')}<b>{Math.round(s.uptime / 60)} min</b></div>
        <div class="stat">{t('memoryUse')}<b>{s.memory?.percentage ?? '-'}%</b></div>
        <div class="stat">bot<b class={s.bot?.connected ? 'ok' : 'bad'}>{s.bot?.connected ? s.bot.platform || 'on' : 'off'}</b></div>
      </div>}</View>
    </Card>
    <Card title={t('health')}>
      <View load={health}>{h => <div class="grid">
        <div class="stat">{t('health')}<b class={h.healthy ? 'ok' : 'bad'}>{h.healthy ? 'OK' : '!'}</b></div>
        {Object.entries(h.checks ?? {}).map(([k, v]: [string, any]) => <div class="stat" key={k}>{k}<b>{v?.status}</b>{v?.latency !== undefined && <span class="muted">{v.latency} ms</span>}{v?.available !== undefined && <span class="muted">{v.available}</span>}</div>)}
      </div>}</View>
    </Card>
    <Card title={t('daily')} extra={<select value={period} onChange={e => setPeriod((e.target as HTMLSelectElement).value)}>
      {['day', 'week', 'month', 'all'].map(p => <option key={p}>{p}</option>)}</select>}>
      <View load={stats} isEmpty={() => false}>{d => <div>
        <div class="grid">{Object.entries(d.summary ?? {}).map(([k, v]) => <div class="stat" key={k}>{k}<b>{String(v)}</b></div>)}</div>
        {(d.daily?.length ?? 0) > 0 ? <><Chart rows={d.daily} keys={['messages', 'responses', 'toolCalls']} /><Chart rows={d.daily} keys={['tokens']} /></> : null}
      </div>}</View>
    </Card>
    <Live />
  </div>
}
