// Model channels: the list (status, this month's spending, test, models, batch test, delete after a
// confirmation naming the channel) and the complete channel form (issue 21): the provider's model list
// fetched before saving (POST /api/config/channels/models), the default model chosen from it and
// required, image settings, vision, custom path, header and body templates (JSON checked while typed),
// timeouts, key cooldown, several keys (masks kept), monthly budget.
import type { ComponentChildren } from 'preact'
import { useRef, useState } from 'preact/hooks'
import { api, errText, sse } from '../api'
import { locale, t, tv } from '../i18n'
import type { ChannelTestResult, ChannelView } from '../contracts'
import { Act, Card, ErrorBox, Table, View, confirmDanger, toast, useLoad, word } from '../ui'

interface ApiKey { name: string, key: string, enabled: boolean }
type Channel = ChannelView
const TYPES = ['openai', 'openai-compatible', 'azure', 'deepseek', 'custom']
/** channels[].profile: whose wire rules the gateway follows (lib/channels/profiles.ts) */
const PROFILES = ['auto', 'openai', 'deepseek', 'moonshot', 'zhipu', 'qwen', 'siliconflow', 'gemini', 'openrouter', 'minimax', 'relay']

/** More keys of a channel, tried in order with failover (masked ones sent back unchanged keep the stored key). */
function KeysEditor ({ keys, onChange }: { keys: ApiKey[], onChange: (k: ApiKey[]) => void }) {
  const set = (i: number, patch: Partial<ApiKey>): void => onChange(keys.map((k, j) => j === i ? { ...k, ...patch } : k))
  return <fieldset class="keys" data-testid="channel-keys" style={{ gridColumn: '1 / -1' }}>
    <legend>{t('moreKeys')}</legend>
    {keys.map((k, i) => <div class="row" key={i}>
      <input name={`key-name-${i}`} aria-label={`${t('cx.keyName')} ${i + 1}`} placeholder={t('name')} value={k.name} onInput={e => set(i, { name: (e.target as HTMLInputElement).value })} />
      <input name={`key-value-${i}`} aria-label={`${t('cx.keyValue')} ${k.name || i + 1}`} type="password" autocomplete="off" placeholder="sk-…" value={k.key} onInput={e => set(i, { key: (e.target as HTMLInputElement).value })} />
      <label class="check"><input type="checkbox" name={`key-enabled-${i}`} checked={k.enabled} onChange={e => set(i, { enabled: (e.target as HTMLInputElement).checked })} />{t('cx.keyEnabled')}</label>
      <button aria-label={tv('cx.keyRemove', { name: k.name || String(i + 1) })} onClick={() => onChange(keys.filter((_, j) => j !== i))}>×</button>
    </div>)}
    <button data-testid="channel-key-add" onClick={() => onChange([...keys, { name: `key-${keys.length + 1}`, key: '', enabled: true }])}>+ {t('addKey')}</button>
  </fieldset>
}

/** The form's fields as typed (numbers and JSON as text until saved). */
interface Draft {
  name: string, type: string, profile: string, baseUrl: string, apiKey: string, model: string, models: string, enabled: boolean, vision: boolean,
  priority: string, monthlyBudget: string, imageEnabled: boolean, imageModel: string, customPath: string,
  headersTemplate: string, bodyTemplate: string, timeoutMs: string, idleTimeoutMs: string, keyCooldownMs: string
}
type Errors = Partial<Record<keyof Draft, string>>

const json = (v: unknown): string => v && typeof v === 'object' && Object.keys(v).length ? JSON.stringify(v, null, 2) : ''
const draftOf = (c?: Channel): Draft => ({
  name: c?.name ?? '', type: c?.type ?? 'openai', profile: c?.profile ?? 'auto', baseUrl: c?.baseUrl ?? '', apiKey: c?.apiKey ?? '', model: c?.model ?? '', models: (c?.models ?? []).join(', '),
  enabled: c?.enabled ?? true, vision: c?.vision ?? true, priority: String(c?.priority ?? 0), monthlyBudget: String(c?.monthlyBudget ?? 0),
  imageEnabled: c?.image?.enabled ?? false, imageModel: c?.image?.model ?? '', customPath: c?.customPath ?? '',
  headersTemplate: json(c?.headersTemplate), bodyTemplate: json(c?.bodyTemplate),
  timeoutMs: String(c?.timeoutMs ?? 60000), idleTimeoutMs: String(c?.idleTimeoutMs ?? 30000), keyCooldownMs: String(c?.keyCooldownMs ?? 60000)
})
const listOf = (s: string): string[] => s.split(',').map(x => x.trim()).filter(Boolean)

/** A JSON object typed in a template field: its value, or the reason it is refused. */
function jsonObject (text: string, field: string, strings = false): { value?: Record<string, unknown>, error?: string } {
  if (!text.trim()) return { value: {} }
  let v: unknown
  try { v = JSON.parse(text) } catch (e) { return { error: tv('cx.jsonBad', { field, error: (e as Error).message }) } }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return { error: tv('cx.jsonObject', { field }) }
  if (strings && Object.values(v).some(x => typeof x !== 'string')) return { error: tv('cx.headerString', { field }) }
  return { value: v as Record<string, unknown> }
}

function validUrl (s: string): boolean {
  try { const u = new URL(s.trim()); return u.protocol === 'http:' || u.protocol === 'https:' } catch { return false }
}

const int = (s: string, min: number, max: number): number | null => {
  const v = Number(s.trim())
  return s.trim() !== '' && Number.isInteger(v) && v >= min && v <= max ? v : null
}

/** Checks the draft as the server would; the channel body, or the errors by field. */
function check (f: Draft, keys: ApiKey[]): { body?: Record<string, unknown>, errors: Errors } {
  const errors: Errors = {}
  if (!f.name.trim()) errors.name = `${t('name')}: ${t('er.f.required')}`
  if (!validUrl(f.baseUrl)) errors.baseUrl = t('cx.baseUrlBad')
  if (!f.model.trim()) errors.model = t('cx.defaultRequired')
  const headers = jsonObject(f.headersTemplate, t('cx.headers'), true)
  if (headers.error) errors.headersTemplate = headers.error
  const body = jsonObject(f.bodyTemplate, t('cx.body'))
  if (body.error) errors.bodyTemplate = body.error
  const ranges: Array<[keyof Draft, string, number, number]> = [['timeoutMs', 'cx.timeout', 1000, 600000], ['idleTimeoutMs', 'cx.idle', 1000, 600000], ['keyCooldownMs', 'cx.cooldown', 0, 3600000], ['priority', 'cx.priority', -1000000, 1000000]]
  const nums: Record<string, number> = {}
  for (const [k, label, min, max] of ranges) {
    const v = int(String(f[k]), min, max)
    if (v === null) errors[k] = tv('cx.range', { field: t(label), min, max })
    else nums[k] = v
  }
  // an emptied number is refused, never saved as 0 (0 means "no budget": it is typed)
  const budget = Number(f.monthlyBudget.trim())
  if (!f.monthlyBudget.trim()) errors.monthlyBudget = `${t('co.monthlyBudget')}: ${t('er.f.emptyNumber')}`
  else if (!Number.isFinite(budget) || budget < 0) errors.monthlyBudget = `${t('co.monthlyBudget')}: ${t('bs.notNumber')}`
  if (Object.keys(errors).length) return { errors }
  return {
    errors,
    body: {
      name: f.name.trim(), type: f.type, profile: f.profile, baseUrl: f.baseUrl.trim(), apiKey: f.apiKey, model: f.model.trim(), models: listOf(f.models),
      enabled: f.enabled, vision: f.vision, monthlyBudget: budget, image: { enabled: f.imageEnabled, model: f.imageModel.trim() },
      customPath: f.customPath.trim(), headersTemplate: headers.value, bodyTemplate: body.value, ...nums,
      apiKeys: keys.filter(k => k.key.trim())
    }
  }
}

/** A labelled control with its help line and, when refused, its error (announced, linked by aria). */
function Field ({ id, label, help, error, children, wide }: { id: string, label: string, help?: string, error?: string | undefined, children: ComponentChildren, wide?: boolean }) {
  return <div class={error ? 'field invalid' : 'field'} style={wide ? { gridColumn: '1 / -1' } : undefined}>
    <label for={id}>{label}</label>
    {children}
    {help && <small class="help" id={`${id}-help`}>{help}</small>}
    {error && <small class="bad" id={`${id}-error`} data-testid={`${id}-error`}>{error}</small>}
  </div>
}

function ChannelForm ({ initial, onDone }: { initial?: Channel, onDone: () => void }) {
  const [f, setF] = useState<Draft>(() => draftOf(initial))
  const [keys, setKeys] = useState<ApiKey[]>(() => (initial?.apiKeys ?? []).map(({ name, key, enabled }) => ({ name, key, enabled })))
  const [errors, setErrors] = useState<Errors>({})
  const [error, setError] = useState<string | null>(null)
  const [fetched, setFetched] = useState<string[] | null>(null)
  const [busy, setBusy] = useState<'fetch' | 'save' | null>(null)
  const patch = (p: Partial<Draft>): void => setF(d => ({ ...d, ...p }))
  const on = (k: keyof Draft) => (e: Event): void => {
    const el = e.target as HTMLInputElement
    patch({ [k]: el.type === 'checkbox' ? el.checked : el.value })
  }
  // the JSON editors are checked while typed
  const live = (k: 'headersTemplate' | 'bodyTemplate', text: string): void => {
    patch({ [k]: text })
    setError(null) // the summary of a refused save: the field's own message below stays up to date
    const r = jsonObject(text, t(k === 'headersTemplate' ? 'cx.headers' : 'cx.body'), k === 'headersTemplate')
    setErrors(es => ({ ...es, [k]: r.error }))
  }
  const aria = (id: keyof Draft, help = true): Record<string, string | undefined> => ({
    'aria-invalid': errors[id] ? 'true' : undefined,
    'aria-describedby': [help ? `ch-${id}-help` : '', errors[id] ? `ch-${id}-error` : ''].filter(Boolean).join(' ') || undefined
  })

  const fetchModels = async (): Promise<void> => {
    setError(null)
    const es: Errors = {}
    if (!validUrl(f.baseUrl)) es.baseUrl = t('cx.baseUrlBad')
    const headers = jsonObject(f.headersTemplate, t('cx.headers'), true)
    if (headers.error) es.headersTemplate = headers.error
    const timeoutMs = int(f.timeoutMs, 1000, 600000)
    setErrors(es)
    if (Object.keys(es).length) { setError(Object.values(es).join('\n')); return }
    setBusy('fetch')
    try {
      const list = await api<string[]>('/api/config/channels/models', { json: {
        baseUrl: f.baseUrl.trim(), type: f.type, apiKey: f.apiKey, apiKeys: keys.filter(k => k.key.trim()), customPath: f.customPath.trim(),
        headersTemplate: headers.value, ...(timeoutMs !== null ? { timeoutMs } : {}), ...(initial ? { channel: initial.name } : {})
      } })
      setFetched(list)
      toast(tv('cx.fetched', { n: list.length }))
    } catch (e) { setError(errText(e)) } finally { setBusy(null) }
  }
  // the whole fetched list as the channel's models; an empty default takes the first
  const useAll = (list: string[]): void => patch({ models: list.join(', '), ...(f.model.trim() ? {} : { model: list[0] ?? '' }) })

  const save = async (): Promise<void> => {
    setError(null)
    const r = check(f, keys)
    setErrors(r.errors)
    if (!r.body) { setError(Object.values(r.errors).join('\n')); return }
    setBusy('save')
    try {
      if (initial) await api(`/api/config/channels/${encodeURIComponent(initial.name)}`, { method: 'PUT', json: r.body })
      else await api('/api/config/channels', { json: r.body })
      toast(t('saved')); onDone()
    } catch (e) { setError(errText(e)) } finally { setBusy(null) }
  }
  const models = listOf(f.models)
  const options = [...new Set([...(fetched ?? []), ...models])]
  return <Card title={initial ? `${t('edit')} ${initial.name}` : t('add')} testid="channel-form-card">
    <div data-testid="channel-form">
      <fieldset class="form"><legend>{t('cx.basics')}</legend>
        <Field id="ch-name" label={t('name')} error={errors.name}><input id="ch-name" name="name" value={f.name} onInput={on('name')} disabled={!!initial} {...aria('name', false)} /></Field>
        <Field id="ch-type" label={t('type')}><select id="ch-type" name="type" value={f.type} onChange={on('type')}>{TYPES.map(x => <option key={x}>{x}</option>)}</select></Field>
        <Field id="ch-profile" label={t('cx.profile')} help={initial?.provider ? tv('cx.profileHelpNow', { provider: initial.provider }) : t('cx.profileHelp')}><select id="ch-profile" name="profile" value={f.profile} onChange={on('profile')} aria-describedby="ch-profile-help">{PROFILES.map(x => <option key={x} value={x}>{x === 'auto' ? t('cx.profileAuto') : x}</option>)}</select></Field>
        <Field id="ch-baseUrl" label="Base URL" error={errors.baseUrl}><input id="ch-baseUrl" name="baseUrl" value={f.baseUrl} onInput={on('baseUrl')} placeholder="https://api.openai.com/v1" {...aria('baseUrl', false)} /></Field>
        <Field id="ch-apiKey" label="API key" help={t('cx.mainKeyHelp')}><input id="ch-apiKey" name="apiKey" type="password" autocomplete="off" value={f.apiKey} onInput={on('apiKey')} aria-describedby="ch-apiKey-help" /></Field>
        <Field id="ch-enabled" label={t('enabled')}><input id="ch-enabled" name="enabled" type="checkbox" checked={f.enabled} onChange={on('enabled')} /></Field>
        <Field id="ch-priority" label={t('cx.priority')} help={t('cx.priorityHelp')} error={errors.priority}><input id="ch-priority" name="priority" inputmode="numeric" value={f.priority} onInput={on('priority')} {...aria('priority')} /></Field>
      </fieldset>

      <fieldset class="form"><legend>{t('cx.modelsSection')}</legend>
        <div class="field" style={{ gridColumn: '1 / -1' }}>
          <div class="row">
            <button data-testid="channel-fetch-models" disabled={busy !== null} aria-busy={busy === 'fetch'} onClick={fetchModels} aria-describedby="ch-fetch-help">{t('cx.fetchModels')}</button>
            {fetched && fetched.length > 0 && <button data-testid="channel-use-fetched" onClick={() => useAll(fetched)}>{t('cx.useAll')}</button>}
          </div>
          <small class="help" id="ch-fetch-help">{t('cx.fetchHint')}</small>
          {fetched && <div class="row" data-testid="channel-fetched" role="group" aria-label={t('cx.pickDefault')}>
            {fetched.map(m => <button key={m} class={m === f.model ? 'primary' : ''} aria-pressed={m === f.model} data-model={m}
              onClick={() => patch({ model: m, ...(models.length && !models.includes(m) ? { models: [...models, m].join(', ') } : {}) })}>{m}</button>)}
          </div>}
        </div>
        <Field id="ch-model" label={t('defaultModel')} help={t('cx.defaultHelp')} error={errors.model}>
          <input id="ch-model" name="model" list="ch-model-options" value={f.model} onInput={on('model')} required aria-required="true" {...aria('model')} />
        </Field>
        <Field id="ch-models" label={t('models')} help={t('cx.modelsHelp')}>
          <input id="ch-models" name="models" value={f.models} onInput={on('models')} placeholder="gpt-4o, gpt-4o-mini" aria-describedby="ch-models-help" />
        </Field>
        <datalist id="ch-model-options">{options.map(m => <option key={m} value={m} />)}</datalist>
        <Field id="ch-vision" label={t('vision')} help={t('visionHint')}><input id="ch-vision" name="vision" type="checkbox" checked={f.vision} onChange={on('vision')} aria-describedby="ch-vision-help" /></Field>
        <Field id="ch-imageEnabled" label={t('cx.imageEnabled')} help={t('cx.imageHelp')}><input id="ch-imageEnabled" name="imageEnabled" type="checkbox" checked={f.imageEnabled} onChange={on('imageEnabled')} aria-describedby="ch-imageEnabled-help" /></Field>
        <Field id="ch-imageModel" label={t('cx.imageModel')}><input id="ch-imageModel" name="imageModel" list="ch-model-options" value={f.imageModel} onInput={on('imageModel')} placeholder={f.model} /></Field>
      </fieldset>

      <fieldset class="form"><legend>{t('cx.advanced')}</legend>
        <Field id="ch-customPath" label={t('cx.customPath')} help={t('cx.customPathHelp')} wide><input id="ch-customPath" name="customPath" value={f.customPath} onInput={on('customPath')} aria-describedby="ch-customPath-help" /></Field>
        <Field id="ch-headersTemplate" label={t('cx.headers')} help={t('cx.headersHelp')} error={errors.headersTemplate} wide>
          <textarea id="ch-headersTemplate" name="headersTemplate" rows={3} spellcheck={false} value={f.headersTemplate} placeholder="{}" onInput={e => live('headersTemplate', (e.target as HTMLTextAreaElement).value)} {...aria('headersTemplate')} />
        </Field>
        <Field id="ch-bodyTemplate" label={t('cx.body')} help={t('cx.bodyHelp')} error={errors.bodyTemplate} wide>
          <textarea id="ch-bodyTemplate" name="bodyTemplate" rows={3} spellcheck={false} value={f.bodyTemplate} placeholder="{}" onInput={e => live('bodyTemplate', (e.target as HTMLTextAreaElement).value)} {...aria('bodyTemplate')} />
        </Field>
        <Field id="ch-timeoutMs" label={t('cx.timeout')} help={t('cx.timeoutHelp')} error={errors.timeoutMs}><input id="ch-timeoutMs" name="timeoutMs" inputmode="numeric" value={f.timeoutMs} onInput={on('timeoutMs')} {...aria('timeoutMs')} /></Field>
        <Field id="ch-idleTimeoutMs" label={t('cx.idle')} help={t('cx.idleHelp')} error={errors.idleTimeoutMs}><input id="ch-idleTimeoutMs" name="idleTimeoutMs" inputmode="numeric" value={f.idleTimeoutMs} onInput={on('idleTimeoutMs')} {...aria('idleTimeoutMs')} /></Field>
        <Field id="ch-keyCooldownMs" label={t('cx.cooldown')} help={t('cx.cooldownHelp')} error={errors.keyCooldownMs}><input id="ch-keyCooldownMs" name="keyCooldownMs" inputmode="numeric" value={f.keyCooldownMs} onInput={on('keyCooldownMs')} {...aria('keyCooldownMs')} /></Field>
        <Field id="ch-monthlyBudget" label={t('co.monthlyBudget')} help={t('co.monthlyBudgetHelp')} error={errors.monthlyBudget}><input id="ch-monthlyBudget" name="monthlyBudget" inputmode="decimal" value={f.monthlyBudget} onInput={on('monthlyBudget')} {...aria('monthlyBudget')} /></Field>
        <KeysEditor keys={keys} onChange={setKeys} />
      </fieldset>
    </div>
    {error && <ErrorBox error={error} />}
    <div class="row"><button class="primary" data-testid="channel-save" disabled={busy !== null} aria-busy={busy === 'save'} onClick={save}>{t('save')}</button><button onClick={onDone}>{t('cancel')}</button></div>
  </Card>
}

interface Result { model: string, index: number, success: boolean, elapsed: number, response?: string, error?: string }
/** Sets the models a channel offers (the rest of the channel unchanged); an empty default model takes the first. */
async function saveModels (channel: Channel, models: string[]): Promise<void> {
  const v = await api<Channel>(`/api/config/channels/${encodeURIComponent(channel.name)}`, { method: 'PUT', json: { models, ...(channel.model ? {} : { model: models[0] ?? '' }) } })
  toast(tv('cx.modelsFilled', { n: models.length, model: v.model || '-' }))
}

function BatchTest ({ channel, onChanged }: { channel: Channel, onChanged: () => void }) {
  const [progress, setProgress] = useState<{ completed: number, total: number, successCount: number, failCount: number } | null>(null)
  const [results, setResults] = useState<Result[]>([])
  const [running, setRunning] = useState(false)
  const [stopped, setStopped] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const testId = useRef<string | null>(null)
  const start = async (): Promise<void> => {
    setRunning(true); setStopped(false); setError(null); setResults([]); setProgress(null)
    try {
      await sse('/api/test-panel/batch-test', { json: { channelId: channel.id, concurrency: 3 } }, ({ event, data }) => {
        if (event === 'start') { testId.current = data.testId; setProgress({ completed: 0, total: data.total, successCount: 0, failCount: 0 }) }
        if (event === 'result') setResults(r => [...r, data].sort((a, b) => a.index - b.index))
        if (event === 'progress') setProgress(data)
        if (event === 'complete' && data?.aborted) setStopped(true)
        if (event === 'error') setError(data?.message ?? String(data))
      })
    } catch (e) { setError(errText(e)) } finally { setRunning(false) }
  }
  const stop = async (): Promise<void> => { await api('/api/test-panel/batch-test-stop', { json: testId.current ? { testId: testId.current } : {} }) }
  const pct = progress && progress.total ? Math.round(progress.completed / progress.total * 100) : 0
  return <Card title={`${t('batchTest')}: ${channel.name}`} extra={<>
    <button class="primary" data-testid="batch-start" disabled={running} onClick={start}>{t('batchTest')}</button>
    <Act run={stop} testid="batch-stop">{t('stop')}</Act></>}>
    {progress && <div data-testid="batch-progress" data-pct={pct} data-stopped={String(stopped)}>
      {/* a stopped test has no progress left to show: no bar frozen part-way, the line below says "stopped" */}
      {!stopped && <div class="bar" role="progressbar" aria-label={t('batchTest')} aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct}><div style={{ width: `${pct}%` }} /></div>}
      <span>{progress.completed}/{progress.total} ({pct}%) · <span class="ok">{t('success')} {progress.successCount}</span> · <span class="bad">{t('failed')} {progress.failCount}</span>
        {stopped && <b data-testid="batch-stopped"> · {t('cx.stopped')}</b>}</span>
    </div>}
    {error && <ErrorBox error={error} />}
    {!running && results.some(r => r.success) && results.some(r => !r.success) &&
      <Act testid="batch-keep" run={async () => { await saveModels(channel, results.filter(r => r.success).map(r => r.model)); onChanged() }}>{t('keepWorking')}</Act>}
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

/** When a failed channel is tried again (lib/channels/health.ts); a past time: the next request tries it. */
function retryText (retryAt: string | null): string {
  if (!retryAt) return ''
  const at = new Date(retryAt)
  return at.getTime() <= Date.now() ? t('cx.retryNext') : tv('cx.retryAt', { time: at.toLocaleTimeString(locale(), { hour12: false }) })
}

/** The channel's live status in words; a channel without a default model says what to do. */
function Status ({ c }: { c: Channel }) {
  const status = c.enabled ? c.status : 'disabled'
  const retry = c.status === 'error' ? retryText(c.retryAt) : ''
  return <span class={status === 'active' ? 'ok' : 'bad'} data-status={status} data-testid={`channel-status-${c.name}`} data-retry-at={c.retryAt ?? ''} title={c.lastError}>
    {word(status)}{status === 'unconfigured' ? ` · ${t('cx.unconfigured')}` : ''}{retry ? ` · ${retry}` : ''}{c.status === 'error' && c.lastError ? ` · ${c.lastError}` : ''}</span>
}

export default function Channels () {
  const list = useLoad<Channel[]>('/api/config/channels')
  const [editing, setEditing] = useState<Channel | 'new' | null>(null)
  const [batch, setBatch] = useState<Channel | null>(null)
  const [models, setModels] = useState<{ channel: Channel, list: string[] } | null>(null)
  const done = (): void => { setEditing(null); list.reload() }
  const remove = async (c: Channel): Promise<void> => {
    if (!await confirmDanger(tv('cx.confirmDeleteChannel', { name: c.name }))) return
    await api(`/api/config/channels/${encodeURIComponent(c.name)}`, { method: 'DELETE' })
    toast(tv('cx.deleted', { name: c.name }))
    list.reload()
  }
  return <div>
    {editing && <ChannelForm key={editing === 'new' ? 'new' : editing.name} initial={editing === 'new' ? undefined : editing} onDone={done} />}
    <Card title={t('channels')} extra={<><button class="primary" data-testid="channel-add" onClick={() => setEditing('new')}>{t('add')}</button><button data-testid="channels-refresh" onClick={list.reload}>{t('refresh')}</button></>}>
      <View load={list}>{rows => <Table cols={[t('name'), t('type'), 'Base URL', 'API key', t('model'), t('status'), t('co.thisMonth'), t('actions')]} rows={rows.map(c => [
        <b>{c.name}</b>, c.type, <code>{c.baseUrl}</code>, <><code>{c.apiKey}</code>{(c.apiKeys?.length ?? 0) > 0 && <span class="muted"> +{c.apiKeys!.length}</span>}</>, c.model || '-',
        <Status c={c} />,
        <Spent s={c.spending} />,
        <div class="row">
          <button data-testid={`edit-${c.name}`} aria-label={`${t('edit')} ${c.name}`} onClick={() => setEditing(c)}>{t('edit')}</button>
          <Act testid={`test-${c.name}`} run={async () => { const r = await api<ChannelTestResult>(`/api/config/channels/${encodeURIComponent(c.name)}/test`, { method: 'POST', json: {} }); toast(`${r.model} · ${r.latency} ms`); list.reload() }}>{t('test')}</Act>
          <Act testid={`models-${c.name}`} run={async () => setModels({ channel: c, list: await api<string[]>(`/api/config/channels/${encodeURIComponent(c.name)}/models`) })}>{t('models')}</Act>
          <button data-testid={`batch-${c.name}`} onClick={() => setBatch(c)}>{t('batchTest')}</button>
          <Act kind="danger" testid={`delete-${c.name}`} run={() => remove(c)}>{t('delete')}</Act>
        </div>])} />}</View>
    </Card>
    {models && <Card testid="channel-models" title={`${t('models')}: ${models.channel.name}`} extra={<>
      <Act testid="models-use" run={async () => { await saveModels(models.channel, models.list); list.reload() }}>{t('useModels')}</Act>
      <button aria-label={t('cancel')} onClick={() => setModels(null)}>×</button></>}><div class="row">{models.list.map(m => <code key={m}>{m}</code>)}</div></Card>}
    {batch && <BatchTest key={batch.name} channel={batch} onChanged={list.reload} />}
  </div>
}
