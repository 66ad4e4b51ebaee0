import { useRef, useState } from 'preact/hooks'
import { api, errText, sse } from '../api'
import { t } from '../i18n'
import type { ChannelTestResult, ChannelView } from '../contracts'
import { Act, Card, ErrorBox, Table, View, toast, useLoad, word } from '../ui'

interface ApiKey { name: string, key: string, enabled: boolean }
type Channel = ChannelView
const TYPES = ['openai', 'openai-compatible', 'azure', 'deepseek', 'custom']

/** More keys of a channel, tried in order with failover (masked ones sent back unchanged keep the stored key). */
function KeysEditor ({ keys, onChange }: { keys: ApiKey[], onChange: (k: ApiKey[]) => void }) {
  const set = (i: number, patch: Partial<ApiKey>): void => onChange(keys.map((k, j) => j === i ? { ...k, ...patch } : k))
  return <div class="keys" data-testid="channel-keys" style={{ gridColumn: '1 / -1' }}>
    <span>{t('moreKeys')}</span>
    {keys.map((k, i) => <div class="row" key={i}>
      <input name={`key-name-${i}`} placeholder={t('name')} value={k.name} onInput={e => set(i, { name: (e.target as HTMLInputElement).value })} />
      <input name={`key-value-${i}`} type="password" autocomplete="off" placeholder="sk-…" value={k.key} onInput={e => set(i, { key: (e.target as HTMLInputElement).value })} />
      <label class="row">{t('enabled')}<input type="checkbox" checked={k.enabled} onChange={e => set(i, { enabled: (e.target as HTMLInputElement).checked })} /></label>
      <button onClick={() => onChange(keys.filter((_, j) => j !== i))}>×</button>
    </div>)}
    <button data-testid="channel-key-add" onClick={() => onChange([...keys, { name: `key-${keys.length + 1}`, key: '', enabled: true }])}>+ {t('addKey')}</button>
  </div>
}

function ChannelForm ({ initial, onDone }: { initial?: Channel, onDone: () => void }) {
  const [f, setF] = useState({ name: initial?.name ?? '', type: initial?.type ?? 'openai', baseUrl: initial?.baseUrl ?? '', apiKey: initial?.apiKey ?? '', model: initial?.model ?? '', models: (initial?.models ?? []).join(', '), enabled: initial?.enabled ?? true, vision: initial?.vision ?? true, monthlyBudget: String(initial?.monthlyBudget ?? 0) })
  const [keys, setKeys] = useState<ApiKey[]>(() => (initial?.apiKeys ?? []).map(({ name, key, enabled }) => ({ name, key, enabled })))
  const [error, setError] = useState<string | null>(null)
  const set = (k: string) => (e: Event) => setF({ ...f, [k]: (e.target as HTMLInputElement).type === 'checkbox' ? (e.target as HTMLInputElement).checked : (e.target as HTMLInputElement).value })
  const save = async (): Promise<void> => {
    setError(null)
    const budget = Number(f.monthlyBudget.trim() || 0)
    if (!Number.isFinite(budget)) { setError(`${t('co.monthlyBudget')}: ${t('bs.notNumber')}`); return }
    const body = { ...f, monthlyBudget: budget, models: f.models.split(',').map(s => s.trim()).filter(Boolean), apiKeys: keys.filter(k => k.key.trim()) }
    try {
      if (initial) await api(`/api/config/channels/${encodeURIComponent(initial.name)}`, { method: 'PUT', json: body })
      else await api('/api/config/channels', { json: body })
      toast(t('saved')); onDone()
    } catch (e) { setError(errText(e)) }
  }
  return <Card title={initial ? `${t('edit')} ${initial.name}` : t('add')}>
    <div class="form" data-testid="channel-form">
      <label>{t('name')}<input name="name" value={f.name} onInput={set('name')} disabled={!!initial} /></label>
      <label>{t('type')}<select name="type" value={f.type} onChange={set('type')}>{TYPES.map(x => <option key={x}>{x}</option>)}</select></label>
      <label>Base URL<input name="baseUrl" value={f.baseUrl} onInput={set('baseUrl')} placeholder="https://api.openai.com/v1" /></label>
      <label>API key<input name="apiKey" type="password" autocomplete="off" value={f.apiKey} onInput={set('apiKey')} title={t('keepKey')} /></label>
      <label>{t('defaultModel')}<input name="model" value={f.model} onInput={set('model')} /></label>
      <label>{t('models')}<input name="models" value={f.models} onInput={set('models')} placeholder="gpt-4o, gpt-4o-mini" /></label>
      <label>{t('enabled')}<input type="checkbox" checked={f.enabled} onChange={set('enabled')} /></label>
      <label title={t('visionHint')}>{t('vision')}<input name="vision" type="checkbox" checked={f.vision} onChange={set('vision')} aria-describedby="channel-vision-help" />
        <small class="help" id="channel-vision-help">{t('visionHint')}</small></label>
      <label>{t('co.monthlyBudget')}<input name="monthlyBudget" inputmode="decimal" value={f.monthlyBudget} onInput={set('monthlyBudget')} aria-describedby="channel-budget-help" />
        <small class="help" id="channel-budget-help">{t('co.monthlyBudgetHelp')}</small></label>
      <KeysEditor keys={keys} onChange={setKeys} />
    </div>
    {initial && <p class="muted">{t('keepKey')}</p>}
    {error && <ErrorBox error={error} />}
    <div class="row"><button class="primary" data-testid="channel-save" onClick={save}>{t('save')}</button><button onClick={onDone}>{t('cancel')}</button></div>
  </Card>
}

interface Result { model: string, index: number, success: boolean, elapsed: number, response?: string, error?: string }
/** Sets the models a channel offers (the rest of the channel unchanged). */
async function saveModels (channel: string, models: string[]): Promise<void> {
  await api(`/api/config/channels/${encodeURIComponent(channel)}`, { method: 'PUT', json: { models } })
  toast(`${t('saved')} (${models.length})`)
}

function BatchTest ({ channel, onChanged }: { channel: Channel, onChanged: () => void }) {
  const [progress, setProgress] = useState<{ completed: number, total: number, successCount: number, failCount: number } | null>(null)
  const [results, setResults] = useState<Result[]>([])
  const [running, setRunning] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const testId = useRef<string | null>(null)
  const start = async (): Promise<void> => {
    setRunning(true); setError(null); setResults([]); setProgress(null)
    try {
      await sse('/api/test-panel/batch-test', { json: { channelId: channel.id, concurrency: 3 } }, ({ event, data }) => {
        if (event === 'start') { testId.current = data.testId; setProgress({ completed: 0, total: data.total, successCount: 0, failCount: 0 }) }
        if (event === 'result') setResults(r => [...r, data].sort((a, b) => a.index - b.index))
        if (event === 'progress') setProgress(data)
        if (event === 'error') setError(data?.message ?? String(data))
      })
    } catch (e) { setError(errText(e)) } finally { setRunning(false) }
  }
  const stop = async (): Promise<void> => { await api('/api/test-panel/batch-test-stop', { json: testId.current ? { testId: testId.current } : {} }) }
  const pct = progress && progress.total ? Math.round(progress.completed / progress.total * 100) : 0
  return <Card title={`${t('batchTest')}: ${channel.name}`} extra={<>
    <button class="primary" data-testid="batch-start" disabled={running} onClick={start}>{t('batchTest')}</button>
    <Act run={stop} testid="batch-stop">{t('stop')}</Act></>}>
    {progress && <div data-testid="batch-progress" data-pct={pct}>
      <div class="bar"><div style={{ width: `${pct}%` }} /></div>
      <span>{progress.completed}/{progress.total} ({pct}%) · <span class="ok">{t('success')} {progress.successCount}</span> · <span class="bad">{t('failed')} {progress.failCount}</span></span>
    </div>}
    {error && <ErrorBox error={error} />}
    {!running && results.some(r => r.success) && results.some(r => !r.success) &&
      <Act testid="batch-keep" run={async () => { await saveModels(channel.name, results.filter(r => r.success).map(r => r.model)); onChanged() }}>{t('keepWorking')}</Act>}
    {results.length > 0 && <Table cols={['#', t('model'), t('result'), t('elapsed'), '']} rows={results.map(r => [r.index + 1, r.model,
      <span class={r.success ? 'ok' : 'bad'}>{r.success ? '✓' : '✗'}</span>, `${r.elapsed} ms`, <span class="muted">{r.success ? r.response : r.error}</span>])} />}
  </Card>
}

/** This month's cost of a channel against its monthly budget (lib/channels/budget.ts). */
function Spent ({ s }: { s: Channel['spending'] }) {
  const spent = s.spent === null ? t('co.none') : `${s.spent.toLocaleString(undefined, { maximumFractionDigits: 4 })} ${s.currency}`
  return <span class={s.exhausted ? 'bad' : ''} data-testid="channel-spent" data-exhausted={String(s.exhausted)} title={s.month}>
    {spent}{s.budget > 0 ? ` / ${s.budget} ${s.currency}` : ''}{s.exhausted ? ` · ${t('co.exhausted')}` : ''}</span>
}

export default function Channels () {
  const list = useLoad<Channel[]>('/api/config/channels')
  const [editing, setEditing] = useState<Channel | 'new' | null>(null)
  const [batch, setBatch] = useState<Channel | null>(null)
  const [models, setModels] = useState<{ name: string, list: string[] } | null>(null)
  const done = (): void => { setEditing(null); list.reload() }
  return <div>
    {editing && <ChannelForm key={editing === 'new' ? 'new' : editing.name} initial={editing === 'new' ? undefined : editing} onDone={done} />}
    <Card title={t('channels')} extra={<><button class="primary" data-testid="channel-add" onClick={() => setEditing('new')}>{t('add')}</button><button data-testid="channels-refresh" onClick={list.reload}>{t('refresh')}</button></>}>
      <View load={list}>{rows => <Table cols={[t('name'), t('type'), 'Base URL', 'API key', t('model'), t('status'), t('co.thisMonth'), t('actions')]} rows={rows.map(c => [
        <b>{c.name}</b>, c.type, <code>{c.baseUrl}</code>, <><code>{c.apiKey}</code>{(c.apiKeys?.length ?? 0) > 0 && <span class="muted"> +{c.apiKeys!.length}</span>}</>, c.model,
        <span class={c.status === 'active' ? 'ok' : 'bad'} data-status={c.enabled ? c.status : 'disabled'} title={c.lastError}>{word(c.enabled ? c.status : 'disabled')}{c.status === 'error' && c.lastError ? ` · ${c.lastError}` : ''}</span>,
        <Spent s={c.spending} />,
        <div class="row">
          <button data-testid={`edit-${c.name}`} onClick={() => setEditing(c)}>{t('edit')}</button>
          <Act testid={`test-${c.name}`} run={async () => { const r = await api<ChannelTestResult>(`/api/config/channels/${encodeURIComponent(c.name)}/test`, { method: 'POST', json: {} }); toast(`${r.model} · ${r.latency} ms`); list.reload() }}>{t('test')}</Act>
          <Act testid={`models-${c.name}`} run={async () => setModels({ name: c.name, list: await api<string[]>(`/api/config/channels/${encodeURIComponent(c.name)}/models`) })}>{t('models')}</Act>
          <button data-testid={`batch-${c.name}`} onClick={() => setBatch(c)}>{t('batchTest')}</button>
          <Act kind="danger" run={async () => { if (confirm(t('confirmDelete'))) { await api(`/api/config/channels/${encodeURIComponent(c.name)}`, { method: 'DELETE' }); list.reload() } }}>{t('delete')}</Act>
        </div>])} />}</View>
    </Card>
    {models && <Card testid="channel-models" title={`${t('models')}: ${models.name}`} extra={<>
      <Act testid="models-use" run={async () => { await saveModels(models.name, models.list); list.reload() }}>{t('useModels')}</Act>
      <button onClick={() => setModels(null)}>×</button></>}><div class="row">{models.list.map(m => <code key={m}>{m}</code>)}</div></Card>}
    {batch && <BatchTest key={batch.name} channel={batch} onChanged={list.reload} />}
  </div>
}
