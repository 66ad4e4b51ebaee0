// Statistics (issue 21): usage over a period (today by hour, else per day), and per model, channel,
// user, group and tool, and the error log, from /api/stats/* and /api/logs/errors (docs/api.md).
import type { JSX } from 'preact'
import { useState } from 'preact/hooks'
import { BarList, LineChart, type ChartPoint } from '../chart'
import type { StatsSummary } from '../contracts'
import { lang, t } from '../i18n'
import { Card, Table, View, useLoad, word } from '../ui'

interface Hour { time: string, messages: number, responses: number, toolCalls: number, tokens: number }
type Summary = StatsSummary & { hourly?: Hour[] }
interface ModelRow { model: string, requests: number, tokens: number, avgLatency: number, errors: number }
interface ChannelRow { id: string, name: string, status: string, requests: number, errors: number, avgLatency: number, lastUsed: string }
interface UserRow { userId: string, nickname: string, messages: number, tokens: number, lastActive: string }
interface GroupRow { groupId: string, messages: number, responses: number, tokens: number, users: number, lastActive: string }
interface ToolRow { name: string, calls: number, avgDuration: number, successRate: number }
interface ErrorEntry { timestamp: string, error: string, context: Record<string, unknown> }

const TABS = ['usage', 'models', 'channels', 'users', 'groups', 'tools', 'errors'] as const
type Tab = typeof TABS[number]
const n = (v: number | undefined): string => (v ?? 0).toLocaleString()
const when = (iso: string): string => iso && !iso.startsWith('1970') ? new Date(iso).toLocaleString(lang.get() === 'zh' ? 'zh-CN' : 'en') : '-'

/** The period's rows as chart points: today by hour (local clock), longer periods by day. */
function pointsOf (d: Summary, period: string): ChartPoint[] {
  if (period === 'day' && d.hourly) {
    return d.hourly.map(h => {
      const at = new Date(h.time)
      const hh = `${String(at.getHours()).padStart(2, '0')}:00`
      return { label: hh, title: `${at.toLocaleDateString(lang.get() === 'zh' ? 'zh-CN' : 'en')} ${hh}`, values: { messages: h.messages, responses: h.responses, toolCalls: h.toolCalls, tokens: h.tokens } }
    })
  }
  return d.daily.map(r => ({ label: r.date.slice(5), title: r.date, values: { messages: r.messages, responses: r.responses, toolCalls: r.toolCalls, tokens: r.tokens } }))
}

function Charts ({ d, period, testid }: { d: Summary, period: string, testid: string }) {
  const points = pointsOf(d, period)
  if (points.length === 0) return <p class="muted">{t('sx.none')}</p>
  const by = t(period === 'day' ? 'sx.byHour' : 'sx.byDay')
  return <>
    <p class="muted">{t('sx.chartHint')}</p>
    <LineChart testid={testid} title={`${t('sx.activity')} · ${by}`} points={points}
      series={[{ key: 'messages', label: t('messages') }, { key: 'responses', label: t('responses') }, { key: 'toolCalls', label: t('toolCalls') }]} />
    <LineChart testid={`${testid}-tokens`} title={`${t('sx.tokensChart')} · ${by}`} points={points} series={[{ key: 'tokens', label: t('tokens') }]} />
  </>
}

function PeriodSelect ({ value, onChange, id }: { value: string, onChange: (v: string) => void, id: string }) {
  return <label class="row" for={id}>{t('sx.period')}
    <select id={id} data-testid={id} value={value} onChange={e => onChange((e.target as HTMLSelectElement).value)}>
      {['day', 'week', 'month', 'all'].map(p => <option key={p} value={p}>{t(`period_${p}`)}</option>)}</select></label>
}

function Usage () {
  const [period, setPeriod] = useState('day')
  const load = useLoad<Summary>(`/api/stats?period=${period}`)
  return <Card title={t('sx.usage')} testid="sx-usage" extra={<PeriodSelect id="sx-period" value={period} onChange={setPeriod} />}>
    <View load={load} isEmpty={() => false}>{d => <div>
      <div class="grid" data-testid="sx-summary">{Object.entries(d.summary ?? {}).map(([k, v]) => <div class="stat" key={k}>{t(k)}<b>{n(v)}</b></div>)}</div>
      <Charts d={d} period={period} testid="sx-chart" />
    </div>}</View>
  </Card>
}

function Models () {
  const load = useLoad<{ models: ModelRow[] }>('/api/stats/models')
  return <Card title={t('sx.models')} testid="sx-models"><View load={load} isEmpty={d => d.models.length === 0}>{d => <>
    <BarList title={t('sx.topRequests')} rows={d.models.slice(0, 10).map(m => ({ label: m.model, value: m.requests }))} />
    <Table cols={[t('model'), t('sx.requests'), t('tokens'), t('sx.avgLatency'), t('sx.errorsCount')]}
      rows={d.models.map(m => [<b data-testid={`sx-model-${m.model}`}>{m.model}</b>, n(m.requests), n(m.tokens), n(m.avgLatency), <span class={m.errors ? 'bad' : ''}>{n(m.errors)}</span>])} />
  </>}</View></Card>
}

function Channels () {
  const load = useLoad<{ channels: ChannelRow[] }>('/api/stats/channels')
  return <Card title={t('sx.channels')} testid="sx-channels"><View load={load} isEmpty={d => d.channels.length === 0}>{d => <>
    <BarList title={t('sx.topRequests')} rows={[...d.channels].sort((a, b) => b.requests - a.requests).slice(0, 10).map(c => ({ label: c.name, value: c.requests }))} />
    <Table cols={[t('name'), t('status'), t('sx.requests'), t('sx.errorsCount'), t('sx.avgLatency'), t('sx.lastUsed')]}
      rows={d.channels.map(c => [<b data-testid={`sx-channel-${c.name}`}>{c.name}</b>, c.status === 'removed' ? t('sx.removed') : word(c.status), n(c.requests),
        <span class={c.errors ? 'bad' : ''}>{n(c.errors)}</span>, n(c.avgLatency), when(c.lastUsed)])} />
  </>}</View></Card>
}

function Users () {
  const [sort, setSort] = useState('messages')
  const load = useLoad<{ users: UserRow[] }>(`/api/stats/users?limit=100&sort=${sort}`)
  return <Card title={t('sx.users')} testid="sx-users" extra={<label class="row" for="sx-user-sort">{t('sx.sortBy')}
    <select id="sx-user-sort" value={sort} onChange={e => setSort((e.target as HTMLSelectElement).value)}>
      <option value="messages">{t('messages')}</option><option value="tokens">{t('tokens')}</option></select></label>}>
    <View load={load} isEmpty={d => d.users.length === 0}>{d => <>
      <BarList title={sort === 'tokens' ? t('tokens') : t('sx.topMessages')} rows={d.users.slice(0, 10).map(u => ({ label: u.nickname ? `${u.nickname} (${u.userId})` : u.userId, value: sort === 'tokens' ? u.tokens : u.messages }))} />
      <Table cols={[t('userId'), t('sx.nickname'), t('messages'), t('tokens'), t('sx.lastActive')]}
        rows={d.users.map(u => [<span data-testid={`sx-user-${u.userId}`}>{u.userId}</span>, u.nickname || '-', n(u.messages), n(u.tokens), when(u.lastActive)])} />
    </>}</View></Card>
}

/** One group's figures per day (GET /api/stats?groupId=). */
function GroupDaily ({ groupId }: { groupId: string }) {
  const [period, setPeriod] = useState('week')
  const load = useLoad<Summary>(`/api/stats?period=${period}&groupId=${encodeURIComponent(groupId)}`)
  return <Card title={`${t('sx.groupDaily')}: ${groupId}`} testid="sx-group-daily" extra={<PeriodSelect id="sx-group-period" value={period} onChange={setPeriod} />}>
    <View load={load} isEmpty={() => false}>{d => <Charts d={{ ...d, hourly: undefined }} period={period === 'day' ? 'week' : period} testid="sx-group-chart" />}</View>
  </Card>
}

function Groups () {
  const load = useLoad<{ groups: GroupRow[] }>('/api/stats/groups?limit=100')
  const [open, setOpen] = useState<string | null>(null)
  return <>
    <Card title={t('sx.groups')} testid="sx-groups"><View load={load} isEmpty={d => d.groups.length === 0}>{d => <>
      <BarList title={t('sx.topMessages')} rows={d.groups.slice(0, 10).map(g => ({ label: g.groupId, value: g.messages }))} />
      <Table cols={[t('groupId'), t('messages'), t('responses'), t('tokens'), t('sx.userCount'), t('sx.lastActive'), '']}
        rows={d.groups.map(g => [<span data-testid={`sx-group-${g.groupId}`}>{g.groupId}</span>, n(g.messages), n(g.responses), n(g.tokens), n(g.users), when(g.lastActive),
          <button aria-label={`${t('sx.show')} ${g.groupId}`} onClick={() => setOpen(g.groupId)}>{t('sx.show')}</button>])} />
    </>}</View></Card>
    {open && <GroupDaily key={open} groupId={open} />}
  </>
}

function Tools () {
  const load = useLoad<{ tools: ToolRow[] }>('/api/stats/tools')
  return <Card title={t('sx.tools')} testid="sx-tools"><View load={load} isEmpty={d => d.tools.length === 0}>{d => <>
    <BarList title={t('sx.topCalls')} rows={d.tools.slice(0, 10).map(x => ({ label: x.name, value: x.calls }))} />
    <Table cols={[t('name'), t('sx.calls'), t('sx.avgDuration'), t('sx.successRate')]}
      rows={d.tools.map(x => [<b data-testid={`sx-tool-${x.name}`}>{x.name}</b>, n(x.calls), n(x.avgDuration), `${Math.round(x.successRate * 100)}%`])} />
  </>}</View></Card>
}

function Errors () {
  const load = useLoad<{ errors: ErrorEntry[] }>('/api/logs/errors?limit=200')
  return <Card title={t('sx.errors')} testid="sx-errors" extra={<button onClick={load.reload}>{t('refresh')}</button>}>
    <View load={load} isEmpty={d => d.errors.length === 0} empty={<p class="muted">{t('sx.noErrors')}</p>}>{d => <Table cols={[t('sx.time'), t('sx.error'), t('sx.context')]}
      rows={[...d.errors].reverse().map(e => [when(e.timestamp), <span class="bad">{e.error}</span>,
        Object.keys(e.context ?? {}).length ? <code>{JSON.stringify(e.context)}</code> : '-'])} />}</View>
  </Card>
}

const PANELS: Record<Tab, () => JSX.Element> = { usage: Usage, models: Models, channels: Channels, users: Users, groups: Groups, tools: Tools, errors: Errors }

export default function Stats () {
  const [tab, setTab] = useState<Tab>('usage')
  const Panel = PANELS[tab]
  const onKey = (e: KeyboardEvent): void => {
    const i = TABS.indexOf(tab)
    const next = e.key === 'ArrowRight' ? TABS[(i + 1) % TABS.length] : e.key === 'ArrowLeft' ? TABS[(i + TABS.length - 1) % TABS.length] : undefined
    if (!next) return
    e.preventDefault()
    setTab(next)
    document.getElementById(`sx-tab-${next}`)?.focus()
  }
  return <div>
    <div class="cx-tabs" role="tablist" aria-label={t('stats')} onKeyDown={onKey}>
      {TABS.map(x => <button key={x} id={`sx-tab-${x}`} role="tab" aria-selected={tab === x} aria-controls="sx-panel" tabIndex={tab === x ? 0 : -1}
        data-testid={`sx-tab-${x}`} onClick={() => setTab(x)}>{t(`sx.${x}`)}</button>)}
    </div>
    <div id="sx-panel" role="tabpanel" aria-labelledby={`sx-tab-${tab}`}><Panel /></div>
  </div>
}
