// Cost (issue 20): the price table (`pricing`: currency, timezone, prices per million tokens, GET/PUT
// /api/config) and what the recorded usage costs, from the cost fields of /api/stats/* (docs/api.md, Cost):
// per day (chart and table, by period) and, over all time, per model, channel (with this month's spending
// against its budget), group and user. A null cost is shown as "unpriced", never as 0. The share of input
// the provider served from its cache, per model and channel, and for the period with the money it saved.
import { useState } from 'preact/hooks'
import { api, errText } from '../api'
import type { Config, StatsSummary } from '../contracts'
import { t, tv } from '../i18n'
import { Card, ErrorBox, Table, View, toast, useLoad, word } from '../ui'
import { LineChart } from '../chart'

type Pricing = Config['pricing']
type Price = Pricing['models'][number]
interface Costed { cost: number | null, unpricedTokens: number, cachedShare?: number | null, cacheSaved?: number | null }
interface ModelRow extends Costed { model: string, requests: number, tokens: number, inputTokens: number, outputTokens: number, cachedTokens: number, pricedAs: string | null }
interface Spending { month: string, spent: number | null, budget: number, currency: string, exhausted: boolean }
interface ChannelRow extends Costed { id: string, name: string, status: string, requests: number, spending?: Spending }
interface GroupRow extends Costed { groupId: string, messages: number, tokens: number }
interface UserRow extends Costed { userId: string, nickname: string, messages: number, tokens: number }

/** A cost in the table's currency; null (nothing priced) is "unpriced", not 0. */
function money (v: number | null | undefined, currency: string) {
  if (v === null || v === undefined) return <span class="muted" data-cost="none">{t('co.none')}</span>
  return <span data-cost={v}>{`${v.toLocaleString(undefined, { maximumFractionDigits: 4 })} ${currency}`}</span>
}
const n = (v: number | undefined): string => (v ?? 0).toLocaleString()
const percent = (v: number): string => v.toLocaleString(undefined, { style: 'percent', maximumFractionDigits: 1 })
/** The cached share of the input (0..1); none without input. */
function share (v: number | null | undefined) {
  if (v === null || v === undefined) return <span class="muted" data-share="none">-</span>
  return <span data-share={v}>{percent(v)}</span>
}

/** The period's input served from cache and the money saved; nothing to say without input. */
function CacheLine ({ d, currency }: { d: StatsSummary, currency: string }) {
  if (d.cachedShare === null || d.cachedShare === undefined) return null
  const saved = d.cacheSaved === null || d.cacheSaved === undefined ? t('co.none') : `${d.cacheSaved.toLocaleString(undefined, { maximumFractionDigits: 4 })} ${currency}`
  return <p data-testid="co-cache" data-share={d.cachedShare} data-saved={d.cacheSaved ?? 'none'}>{tv('co.cacheLine', { share: percent(d.cachedShare), saved })}</p>
}

/** A price as the form holds it: numbers as typed. */
interface Draft { model: string, input: string, output: string, cachedInput: string }
const toDraft = (p: Price): Draft => ({ model: p.model, input: String(p.input), output: String(p.output), cachedInput: p.cachedInput === undefined ? '' : String(p.cachedInput) })

function PriceEditor ({ pricing, onSaved }: { pricing: Pricing, onSaved: () => void }) {
  const [currency, setCurrency] = useState(pricing.currency)
  const [timezone, setTimezone] = useState(pricing.timezone)
  const [rows, setRows] = useState<Draft[]>(pricing.models.map(toDraft))
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const patch = (i: number, p: Partial<Draft>): void => setRows(l => l.map((r, j) => j === i ? { ...r, ...p } : r))
  const save = async (): Promise<void> => {
    setError(null)
    const num = (s: string, what: string): number => {
      const v = Number(s.trim())
      if (s.trim() === '' || !Number.isFinite(v)) throw new Error(`${what}: ${t('bs.notNumber')}`)
      return v
    }
    let models: Price[]
    try {
      models = rows.filter(r => r.model.trim()).map(r => ({
        model: r.model.trim(), input: num(r.input, `${r.model} ${t('co.input')}`), output: num(r.output, `${r.model} ${t('co.output')}`),
        ...(r.cachedInput.trim() ? { cachedInput: num(r.cachedInput, `${r.model} ${t('co.cachedInput')}`) } : {})
      }))
    } catch (e) { setError((e as Error).message); return }
    setBusy(true)
    try {
      await api('/api/config/pricing', { method: 'PUT', json: { currency: currency.trim(), timezone: timezone.trim(), models } })
      toast(t('saved'))
      onSaved()
    } catch (e) { setError(errText(e)) } finally { setBusy(false) }
  }
  return <div data-testid="co-prices">
    <div class="form">
      <div class="field"><label for="co-currency">{t('co.currency')}</label>
        <input id="co-currency" name="currency" value={currency} onInput={e => setCurrency((e.target as HTMLInputElement).value)} />
        <small class="help">{t('co.currencyHelp')}</small></div>
      <div class="field"><label for="co-timezone">{t('co.timezone')}</label>
        <input id="co-timezone" name="timezone" value={timezone} placeholder="Asia/Shanghai" onInput={e => setTimezone((e.target as HTMLInputElement).value)} />
        <small class="help">{t('co.timezoneHelp')}</small></div>
    </div>
    <p class="muted">{t('co.modelHelp')} {t('co.perMillion')}</p>
    {rows.length === 0 && <p class="muted" data-testid="co-noprices">{t('co.noPrices')}</p>}
    {rows.map((r, i) => {
      // each input under its caption: a filled row has no placeholders left to say which price is which
      const cell = (key: keyof Draft, name: string, label: string, decimal: boolean) => <label class="muted">{label}
        <input name={`${name}-${i}`} placeholder={label} inputmode={decimal ? 'decimal' : undefined} value={r[key]} onInput={e => patch(i, { [key]: (e.target as HTMLInputElement).value })} /></label>
      return <div class="row price" key={i} data-testid={`co-price-${i}`}>
        {cell('model', 'model', t('co.model'), false)}
        {cell('input', 'input', t('co.input'), true)}
        {cell('output', 'output', t('co.output'), true)}
        {cell('cachedInput', 'cached', t('co.cachedInput'), true)}
        <button class="link" aria-label={`${t('delete')} ${r.model}`} onClick={() => setRows(l => l.filter((_, j) => j !== i))}>✕</button>
      </div>
    })}
    {rows.length > 0 && <p class="muted">{t('co.cachedHelp')}</p>}
    {error && <ErrorBox error={error} />}
    <div class="row">
      <button data-testid="co-add" onClick={() => setRows(l => [...l, { model: '', input: '', output: '', cachedInput: '' }])}>{t('co.addPrice')}</button>
      <button class="primary" data-testid="co-save" disabled={busy} onClick={save}>{t('save')}</button>
    </div>
  </div>
}

/** Cost and tokens per day (chart.tsx: axes, tooltip, told apart by marker and dash), days without a cost at 0. */
function DailyChart ({ rows, currency }: { rows: StatsSummary['daily'], currency: string }) {
  const points = rows.map(r => ({ label: r.date.slice(5), title: r.date, values: { cost: r.cost ?? 0 } }))
  return <LineChart title={currency ? `${t('cost')} (${currency})` : t('cost')} testid="co-chart" points={points} series={[{ key: 'cost', label: t('cost') }]}
    format={v => v.toLocaleString(undefined, { maximumFractionDigits: 4 })} />
}

function Daily () {
  const [period, setPeriod] = useState('month')
  const load = useLoad<StatsSummary>(`/api/stats?period=${period}`)
  return <Card title={t('co.daily')} testid="co-daily" extra={<select name="period" aria-label={t('ov.period')} value={period} onChange={e => setPeriod((e.target as HTMLSelectElement).value)}>
    {['day', 'week', 'month', 'all'].map(p => <option key={p} value={p}>{t(`period_${p}`)}</option>)}</select>}>
    <View load={load} isEmpty={() => false}>{d => {
      const cur = d.currency ?? ''
      return <div>
        <div class="grid">
          <div class="stat">{t('co.total')}<b data-testid="co-total">{money(d.cost, cur)}</b></div>
          <div class="stat">{t('tokensUsed')}<b>{n(d.summary.tokensUsed)}</b></div>
          <div class="stat">{t('co.unpriced')}<b data-testid="co-unpriced">{n(d.unpricedTokens)}</b></div>
        </div>
        <CacheLine d={d} currency={cur} />
        {d.daily.length > 0 && <DailyChart rows={d.daily} currency={cur} />}
        <Table cols={[t('co.date'), t('tokens'), t('cost')]} rows={[...d.daily].reverse().filter(r => r.tokens > 0).slice(0, 31).map(r => [r.date, n(r.tokens), money(r.cost, cur)])} />
      </div>
    }}</View>
  </Card>
}

function Breakdown () {
  const models = useLoad<{ models: ModelRow[], currency: string }>('/api/stats/models')
  const channels = useLoad<{ channels: ChannelRow[], currency: string }>('/api/stats/channels')
  const groups = useLoad<{ groups: GroupRow[], currency: string }>('/api/stats/groups?limit=50')
  const users = useLoad<{ users: UserRow[], currency: string }>('/api/stats/users?limit=50&sort=cost')
  return <>
    <Card title={t('co.byModel')} testid="co-models"><View load={models} isEmpty={() => false}>{d => <Table
      cols={[t('co.model'), t('co.pricedAs'), t('co.inputTokens'), t('co.outputTokens'), t('co.cachedTokens'), t('co.cache'), t('cost')]}
      rows={d.models.map(m => [<b>{m.model}</b>, m.pricedAs ?? <span class="muted">-</span>, n(m.inputTokens), n(m.outputTokens), n(m.cachedTokens), share(m.cachedShare), money(m.cost, d.currency)])} />}</View></Card>
    <Card title={t('co.byChannel')} testid="co-channels"><View load={channels} isEmpty={() => false}>{d => <Table
      cols={[t('name'), t('status'), t('co.requests'), t('co.cache'), t('cost'), t('co.thisMonth'), t('co.budget')]}
      rows={d.channels.map(c => [<b>{c.name}</b>, word(c.status), n(c.requests), share(c.cachedShare), money(c.cost, d.currency),
        c.spending ? money(c.spending.spent, d.currency) : '-',
        c.spending ? (c.spending.budget > 0 ? <span class={c.spending.exhausted ? 'bad' : ''} data-exhausted={String(c.spending.exhausted)}>{`${c.spending.budget} ${d.currency}`}{c.spending.exhausted ? ` · ${t('co.exhausted')}` : ''}</span> : <span class="muted">{t('co.noBudget')}</span>) : '-'])} />}</View></Card>
    <Card title={t('co.byGroup')} testid="co-groups"><View load={groups} isEmpty={() => false}>{d => <Table
      cols={[t('groupId'), t('messages'), t('tokens'), t('cost')]} rows={d.groups.map(g => [g.groupId, n(g.messages), n(g.tokens), money(g.cost, d.currency)])} />}</View></Card>
    <Card title={t('co.byUser')} testid="co-users"><View load={users} isEmpty={() => false}>{d => <Table
      cols={[t('userId'), t('name'), t('messages'), t('tokens'), t('cost')]} rows={d.users.map(u => [u.userId, u.nickname, n(u.messages), n(u.tokens), money(u.cost, d.currency)])} />}</View></Card>
  </>
}

export default function Cost () {
  const cfg = useLoad<Config>('/api/config')
  // a saved price table changes every figure: the figures are drawn again
  const [version, setVersion] = useState(0)
  return <div>
    <p class="muted">{t('co.hint')}</p>
    <Card title={t('co.prices')} testid="card-co-prices">
      <View load={cfg} isEmpty={() => false}>{c => <PriceEditor key={JSON.stringify(c.pricing)} pricing={c.pricing} onSaved={() => { cfg.reload(); setVersion(v => v + 1) }} />}</View>
    </Card>
    <div key={version}>
      <Daily />
      <Breakdown />
    </div>
  </div>
}
