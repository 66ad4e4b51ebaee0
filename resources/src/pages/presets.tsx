// Presets (personas): the list, the preset editor form (prompt with a placeholders preview, sampling sliders,
// the tools, memory and voice sections; checked in the browser with the rules the server serves,
// GET /api/presets/schema, before it is sent), built-in presets read-only with "copy to edit", and the preset
// settings (the default, who may switch, one group's preset).
import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import { api, ApiError, BASE, errText, fieldMessage, session } from '../api'
import { t, tv } from '../i18n'
import type { ChannelView, Config, PresetList, PresetView } from '../contracts'
import { issueText, SettingsForm, useSchema, type SettingsField } from '../form-engine'
import { validate } from '../form-rules'
import { Act, Card, ErrorBox, Table, View, confirmDanger, toast, useLoad } from '../ui'

/** POST /api/preset/prompt-preview: the rendered prompt, the placeholders, those that change it between turns. */
interface Preview { prompt: string, placeholders: string[], cacheBreakers: Array<{ placeholder: string, changes: 'turn' | 'day' | 'speaker' }> }

/** The built-in categories (lib/presets/builtin.ts CATEGORIES); a preset may name its own. */
const CATEGORIES = ['general', 'work', 'roleplay'] as const
const OPTIONAL_SAMPLING = ['topP', 'frequencyPenalty', 'presencePenalty'] as const
const APPROVAL = ['', 'auto', 'manual', 'deny', 'allow'] as const

interface Draft {
  id: string, name: string, description: string, category: string, systemPrompt: string, model: string
  temperature: unknown, maxTokens: unknown, topP?: unknown, frequencyPenalty?: unknown, presencePenalty?: unknown
  tools: { enabled: boolean, allowedTools: string[], excludedTools: string[], allowDangerous: boolean, toolApprovalMode: string }
  memory: { enabled: boolean, maxMemories: unknown }
  voice: { enabled: boolean, voiceId: string, speed: unknown }
}

const NEW: Draft = {
  id: '', name: '', description: '', category: 'general', systemPrompt: '你是{{botName}}，正在和{{nickname}}聊天{{groupLine}}。', model: '', temperature: 0.7, maxTokens: 4096,
  tools: { enabled: true, allowedTools: [], excludedTools: [], allowDangerous: false, toolApprovalMode: '' },
  memory: { enabled: true, maxMemories: 10 }, voice: { enabled: false, voiceId: '', speed: 1 }
}

function draftOf (p: PresetView): Draft {
  const d: Draft = {
    id: p.id, name: p.name, description: p.description, category: p.category, systemPrompt: p.systemPrompt, model: p.model ?? '',
    temperature: p.temperature, maxTokens: p.maxTokens,
    tools: { ...p.tools, allowedTools: [...p.tools.allowedTools], excludedTools: [...p.tools.excludedTools], toolApprovalMode: p.tools.toolApprovalMode ?? '' },
    memory: { ...p.memory }, voice: { ...p.voice }
  }
  for (const k of OPTIONAL_SAMPLING) if (p[k] !== undefined) d[k] = p[k]
  return d
}

/** The body the preset routes take: toolApprovalMode '' (the global setting) and a sampling field not set are null, which unsets them. */
function bodyOf (d: Draft, isNew: boolean): Record<string, unknown> {
  const { id, tools, ...rest } = d
  const out: Record<string, unknown> = { ...rest, tools: { ...tools, toolApprovalMode: tools.toolApprovalMode || null } }
  for (const k of OPTIONAL_SAMPLING) if (d[k] === undefined) out[k] = null
  if (isNew) out.id = id
  return out
}

/** A number field beside its slider; the text is kept while typing ('' stays '', an error, never 0). */
function Slider ({ id, label, value, min, max, step, onChange, messages, testid, optional }: {
  id: string, label: string, value: unknown, min: number, max: number, step: number, onChange: (v: unknown) => void, messages: string[], testid: string, optional?: boolean
}) {
  const [text, setText] = useState(typeof value === 'number' ? String(value) : '')
  const set = optional ? value !== undefined : true
  const num = typeof value === 'number' ? value : min
  return <div class={`field sf-field${messages.length ? ' invalid' : ''}`}>
    <label for={id}>{label}</label>
    {optional && <label class="check"><input type="checkbox" data-testid={`${testid}-set`} checked={set} aria-label={`${label}: ${t('bs.override')}`}
      onChange={e => { const on = (e.target as HTMLInputElement).checked; setText(on ? String(num) : ''); onChange(on ? num : undefined) }} />{set ? t('bs.override') : t('pe.unset')}</label>}
    {set && <div class="pe-slider">
      <input type="range" min={min} max={max} step={step} value={num} aria-label={label} data-testid={`${testid}-range`}
        onInput={e => { const v = Number((e.target as HTMLInputElement).value); setText(String(v)); onChange(v) }} />
      <input id={id} type="number" min={min} max={max} step={step} value={text} data-testid={testid} aria-invalid={messages.length ? 'true' : undefined}
        aria-describedby={messages.length ? `${id}-err` : undefined}
        onInput={e => { const el = e.target as HTMLInputElement; setText(el.value); onChange(el.value.trim() === '' ? (el.validity.badInput ? 'NaN' : '') : Number(el.value)) }} />
    </div>}
    {messages.length > 0 && <small class="sf-error" id={`${id}-err`} data-testid={`${testid}-error`}>{messages.join(' ')}</small>}
  </div>
}

function Editor ({ preset, onDone, onCopy }: { preset: PresetView | null, onDone: (saved?: string) => void, onCopy: (p: PresetView) => void }) {
  const isNew = preset === null
  const readOnly = preset?.isBuiltin === true
  const [d, setD] = useState<Draft>(() => preset ? draftOf(preset) : structuredClone(NEW))
  const [server, setServer] = useState<Array<{ path: string, message: string }>>([])
  const [general, setGeneral] = useState<string | null>(null)
  const [tried, setTried] = useState(false)
  const [busy, setBusy] = useState(false)
  const [sample, setSample] = useState({ nickname: '小明', groupName: '' })
  const [preview, setPreview] = useState<Preview | null>(null)
  const promptRef = useRef<HTMLTextAreaElement>(null)

  // the body as it would be sent, checked with the served rules (the server trims the name before its length check)
  const { schema } = useSchema('/api/presets/schema')
  const issues = useMemo(() => schema ? validate(schema, { ...bodyOf(d, isNew), name: d.name.trim() }).filter(i => isNew || i.path !== 'id') : [], [schema, d, isNew])
  const messages = (path: string): string[] => [
    ...issues.filter(i => i.path === path || (path.endsWith('Tools') && i.path.startsWith(`${path}.`))).map(issueText),
    ...server.filter(e => e.path === path).map(e => fieldMessage(e.message))
  ]
  const set = (patch: Partial<Draft>, path?: string): void => { setD(x => ({ ...x, ...patch })); if (path) setServer(s => s.filter(e => e.path !== path)) }

  // the preview follows the prompt and the sample chat, a moment after the typing stops
  useEffect(() => {
    const timer = setTimeout(() => {
      api<Preview>('/api/preset/prompt-preview', { json: { systemPrompt: d.systemPrompt.slice(0, 10000), name: d.name.slice(0, 100), ...sample } })
        .then(setPreview, () => setPreview(null))
    }, 250)
    return () => clearTimeout(timer)
  }, [d.systemPrompt, d.name, sample.nickname, sample.groupName])

  const insert = (name: string): void => {
    const el = promptRef.current
    const token = `{{${name}}}`
    const at = el ? el.selectionStart : d.systemPrompt.length
    const end = el ? el.selectionEnd : at
    set({ systemPrompt: d.systemPrompt.slice(0, at) + token + d.systemPrompt.slice(end) }, 'systemPrompt')
    requestAnimationFrame(() => { el?.focus(); el?.setSelectionRange(at + token.length, at + token.length) })
  }

  const save = async (): Promise<void> => {
    setTried(true); setGeneral(null)
    if (issues.length) { document.querySelector<HTMLElement>('[data-testid="preset-editor"] [aria-invalid="true"]')?.focus(); return }
    setBusy(true)
    try {
      if (isNew) await api('/api/presets', { json: bodyOf(d, true) })
      else await api(`/api/presets/${encodeURIComponent(d.id)}`, { method: 'PUT', json: bodyOf(d, false) })
      toast(tv(isNew ? 'pe.created' : 'pe.saved', { id: d.id }))
      onDone(d.id)
    } catch (e) {
      const errors = e instanceof ApiError ? e.errors ?? [] : []
      setServer(errors)
      if (!errors.length) setGeneral(errText(e))
    } finally { setBusy(false) }
  }

  // the models the channels offer, to pick from (any other name may still be typed)
  const [models, setModels] = useState<string[]>([])
  useEffect(() => {
    api<ChannelView[]>('/api/config/channels')
      .then(cs => setModels([...new Set(cs.flatMap(c => [c.model, ...c.models]).filter(Boolean))].sort()), () => {})
  }, [])

  const id = (k: string): string => `pe-${k}`
  const text = (k: 'name' | 'description' | 'category' | 'model', label: string, long = false) => {
    const m = messages(k)
    const common = { id: id(k), 'data-testid': `pe-${k}`, disabled: readOnly, value: d[k], 'aria-invalid': m.length ? 'true' as const : undefined, 'aria-describedby': m.length ? `${id(k)}-err` : undefined }
    return <div class={`field sf-field${long ? ' sf-wide' : ''}${m.length ? ' invalid' : ''}`}>
      <label for={id(k)}>{label}</label>
      {long ? <textarea {...common} rows={2} onInput={e => set({ [k]: (e.target as HTMLTextAreaElement).value }, k)} />
        : <input {...common} type="text" list={k === 'category' ? 'pe-categories' : k === 'model' ? 'pe-models' : undefined} onInput={e => set({ [k]: (e.target as HTMLInputElement).value }, k)} />}
      {k === 'category' && <datalist id="pe-categories">{CATEGORIES.map(c => <option key={c} value={c}>{t(`pe.cat.${c}`)}</option>)}</datalist>}
      {k === 'model' && <datalist id="pe-models" data-testid="pe-models">{models.map(m => <option key={m} value={m} />)}</datalist>}
      {m.length > 0 && <small class="sf-error" id={`${id(k)}-err`} data-testid={`pe-${k}-error`}>{m.join(' ')}</small>}
    </div>
  }
  const lines = (k: 'allowedTools' | 'excludedTools', label: string) => <div class="field sf-field sf-wide">
    <label for={id(k)}>{label}</label>
    <textarea id={id(k)} data-testid={`pe-${k}`} rows={3} disabled={readOnly} value={d.tools[k].join('\n')}
      onInput={e => set({ tools: { ...d.tools, [k]: (e.target as HTMLTextAreaElement).value.split('\n').map(s => s.trim()).filter(Boolean) } })} />
    {messages(`tools.${k}`).length > 0 && <small class="sf-error">{messages(`tools.${k}`).join(' ')}</small>}
  </div>
  const check = (checked: boolean, label: string, testid: string, on: (v: boolean) => void) => <label class="check">
    <input type="checkbox" role="switch" data-testid={testid} disabled={readOnly} checked={checked} onChange={e => on((e.target as HTMLInputElement).checked)} />{label}</label>

  return <Card title={readOnly ? `${preset?.name} · ${t('pe.builtin')}` : isNew ? t('pe.new') : `${t('pe.editor')} · ${d.name || d.id}`} testid="preset-editor"
    extra={<button type="button" data-testid="preset-close" onClick={() => onDone()}>{t('pe.close')}</button>}>
    {readOnly && <p class="muted" data-testid="preset-readonly">{t('pe.readOnly')} <Act testid="preset-editor-copy" run={async () => { if (preset) onCopy(preset) }}>{t('pe.copyToEdit')}</Act></p>}
    <fieldset class="sf-group" disabled={readOnly}>
      <legend>{t('pe.basics')}</legend>
      <div class="form sf-form">
        {isNew && <div class={`field sf-field${messages('id').length ? ' invalid' : ''}`}>
          <label for={id('id')}>{t('pe.id')}</label>
          <input id={id('id')} data-testid="pe-id" type="text" value={d.id} aria-describedby={`${id('id')}-help`} aria-invalid={messages('id').length ? 'true' : undefined}
            onInput={e => set({ id: (e.target as HTMLInputElement).value }, 'id')} />
          <small class="help" id={`${id('id')}-help`}>{t('pe.idHelp')}</small>
          {messages('id').length > 0 && <small class="sf-error" data-testid="pe-id-error">{messages('id').join(' ')}</small>}
        </div>}
        {text('name', t('pe.name'))}
        {text('category', t('pe.category'))}
        {text('description', t('pe.description'), true)}
      </div>
    </fieldset>

    <fieldset class="sf-group">
      <legend>{t('pe.prompt')}</legend>
      <div class={`field sf-field${messages('systemPrompt').length ? ' invalid' : ''}`}>
        <label for={id('prompt')}>{t('pe.prompt')}</label>
        <textarea ref={promptRef} id={id('prompt')} data-testid="pe-prompt" rows={8} readOnly={readOnly} value={d.systemPrompt}
          aria-invalid={messages('systemPrompt').length ? 'true' : undefined} onInput={e => set({ systemPrompt: (e.target as HTMLTextAreaElement).value }, 'systemPrompt')} />
        {messages('systemPrompt').length > 0 && <small class="sf-error" data-testid="pe-prompt-error">{messages('systemPrompt').join(' ')}</small>}
        {/* placeholders that change the prompt between turns defeat the provider's prompt cache (README "What it costs") */}
        {preview && preview.cacheBreakers.length > 0 && <small class="muted" data-testid="pe-cache-note" role="note">
          {preview.cacheBreakers.map(b => tv(`pe.cache.${b.changes}`, { name: `{{${b.placeholder}}}` })).join(' ')} {t('pe.cache.why')}</small>}
      </div>
      {!readOnly && preview && <div class="row"><span class="muted">{t('pe.promptHelp')}</span>
        <div class="pe-chips">{preview.placeholders.map(p => <button type="button" key={p} data-testid={`pe-ph-${p}`} onClick={() => insert(p)}>{`{{${p}}}`}</button>)}</div></div>}
      <div class="form sf-form">
        <div class="field"><label for={id('nick')}>{t('pe.previewUser')}</label>
          <input id={id('nick')} type="text" value={sample.nickname} onInput={e => setSample({ ...sample, nickname: (e.target as HTMLInputElement).value.slice(0, 100) })} /></div>
        <div class="field"><label for={id('group')}>{t('pe.previewGroup')}</label>
          <input id={id('group')} type="text" value={sample.groupName} onInput={e => setSample({ ...sample, groupName: (e.target as HTMLInputElement).value.slice(0, 100) })} /></div>
      </div>
      <h4>{t('pe.preview')}</h4>
      <pre class="pe-preview" data-testid="pe-preview" aria-live="polite">{preview?.prompt ?? ''}</pre>
    </fieldset>

    <fieldset class="sf-group" disabled={readOnly}>
      <legend>{t('pe.sampling')}</legend>
      <div class="form sf-form">
        <Slider id={id('temperature')} label={t('pe.temperature')} value={d.temperature} min={0} max={2} step={0.05} testid="pe-temperature"
          messages={messages('temperature')} onChange={v => set({ temperature: v }, 'temperature')} />
        {OPTIONAL_SAMPLING.map(k => <Slider key={k} id={id(k)} label={t(`pe.${k}`)} value={d[k]} min={k === 'topP' ? 0 : -2} max={k === 'topP' ? 1 : 2} step={0.05}
          testid={`pe-${k}`} optional messages={messages(k)} onChange={v => setD(x => { const next = { ...x }; if (v === undefined) delete next[k]; else next[k] = v; return next })} />)}
        <div class={`field sf-field${messages('maxTokens').length ? ' invalid' : ''}`}>
          <label for={id('maxTokens')}>{t('pe.maxTokens')}</label>
          <input id={id('maxTokens')} type="number" min={1} max={128000} step={1} data-testid="pe-maxTokens" value={typeof d.maxTokens === 'number' ? d.maxTokens : ''}
            aria-invalid={messages('maxTokens').length ? 'true' : undefined}
            onInput={e => { const el = e.target as HTMLInputElement; set({ maxTokens: el.value.trim() === '' ? (el.validity.badInput ? 'NaN' : '') : Number(el.value) }, 'maxTokens') }} />
          {messages('maxTokens').length > 0 && <small class="sf-error" data-testid="pe-maxTokens-error">{messages('maxTokens').join(' ')}</small>}
        </div>
        {text('model', t('pe.model'))}
      </div>
    </fieldset>

    <fieldset class="sf-group" disabled={readOnly}>
      <legend>{t('pe.tools')}</legend>
      <div class="form sf-form">
        {check(d.tools.enabled, t('pe.toolsEnabled'), 'pe-tools-enabled', v => set({ tools: { ...d.tools, enabled: v } }))}
        {check(d.tools.allowDangerous, t('pe.allowDangerous'), 'pe-tools-dangerous', v => set({ tools: { ...d.tools, allowDangerous: v } }))}
        <div class="field"><label for={id('approval')}>{t('pe.approval')}</label>
          <select id={id('approval')} data-testid="pe-approval" value={d.tools.toolApprovalMode} onChange={e => set({ tools: { ...d.tools, toolApprovalMode: (e.target as HTMLSelectElement).value } })}>
            {APPROVAL.map(v => <option key={v} value={v}>{v ? t(`sf.v.${v}`) : t('pe.approvalGlobal')}</option>)}</select></div>
        {lines('allowedTools', t('pe.allowedTools'))}
        {lines('excludedTools', t('pe.excludedTools'))}
      </div>
    </fieldset>

    <fieldset class="sf-group" disabled={readOnly}>
      <legend>{t('pe.memory')} · {t('pe.voice')}</legend>
      <div class="form sf-form">
        {check(d.memory.enabled, t('pe.memoryEnabled'), 'pe-memory-enabled', v => set({ memory: { ...d.memory, enabled: v } }))}
        <div class={`field sf-field${messages('memory.maxMemories').length ? ' invalid' : ''}`}>
          <label for={id('maxMemories')}>{t('pe.maxMemories')}</label>
          <input id={id('maxMemories')} type="number" min={0} max={1000} step={1} data-testid="pe-maxMemories" value={typeof d.memory.maxMemories === 'number' ? d.memory.maxMemories : ''}
            aria-invalid={messages('memory.maxMemories').length ? 'true' : undefined}
            onInput={e => { const el = e.target as HTMLInputElement; set({ memory: { ...d.memory, maxMemories: el.value.trim() === '' ? '' : Number(el.value) } }, 'memory.maxMemories') }} />
          {messages('memory.maxMemories').length > 0 && <small class="sf-error" data-testid="pe-maxMemories-error">{messages('memory.maxMemories').join(' ')}</small>}
        </div>
        {check(d.voice.enabled, t('pe.voiceEnabled'), 'pe-voice-enabled', v => set({ voice: { ...d.voice, enabled: v } }))}
        <div class="field"><label for={id('voiceId')}>{t('pe.voiceId')}</label>
          <input id={id('voiceId')} type="text" data-testid="pe-voiceId" value={d.voice.voiceId} onInput={e => set({ voice: { ...d.voice, voiceId: (e.target as HTMLInputElement).value } })} /></div>
        <Slider id={id('speed')} label={t('pe.voiceSpeed')} value={d.voice.speed} min={0.1} max={10} step={0.1} testid="pe-speed" messages={messages('voice.speed')}
          onChange={v => set({ voice: { ...d.voice, speed: v } }, 'voice.speed')} />
      </div>
    </fieldset>

    {general && <ErrorBox error={general} />}
    {!readOnly && <div class="sf-actions">
      <button class="primary" type="button" data-testid="preset-save" disabled={busy} aria-busy={busy} onClick={save}>{t('save')}</button>
      {tried && issues.length > 0 && <span class="sf-error" role="alert" data-testid="preset-invalid">{tv('pe.fields', { n: issues.length })}</span>}
    </div>}
  </Card>
}

/** The preset settings (GET/PUT /api/presets/config: the `presets` section), through the form engine. */
const SETTINGS: SettingsField[] = [{ path: 'presets.defaultId', preset: true }, { path: 'presets.allowUserSwitch' }, { path: 'presets.perUserPreset' }, { path: 'presets.perGroupPreset' }]
type PresetSettings = Config['presets']

function Settings ({ presets, onSaved }: { presets: PresetView[], onSaved: () => void }) {
  const load = useLoad<PresetSettings>('/api/presets/config')
  return <Card title={t('pe.settings')} testid="preset-settings">
    <View load={load} isEmpty={() => false}>{s => <SettingsForm key={JSON.stringify(s)} testid="ps" sections={[{ fields: SETTINGS }]} root="presets" resets={false}
      presets={presets} read={f => s[f.path.slice('presets.'.length) as keyof PresetSettings]}
      onSave={async patch => { await api('/api/presets/config', { method: 'PUT', json: patch }); load.reload(); onSaved() }} />}</View>
    <GroupPreset presets={presets} />
  </Card>
}

function GroupPreset ({ presets }: { presets: PresetView[] }) {
  const [group, setGroup] = useState('')
  const [preset, setPreset] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const groupOk = /^[\w-]{1,64}$/.test(group)
  const save = async (): Promise<void> => {
    setError(null); setBusy(true)
    try {
      await api(`/api/config/groups/${encodeURIComponent(group)}`, { method: 'PUT', json: { preset: preset.trim() } })
      toast(tv('pe.groupSaved', { group, id: preset.trim() || t('pe.default') }))
    } catch (e) {
      const unknown = e instanceof ApiError && e.errors?.some(x => x.path.endsWith('.preset'))
      setError(unknown ? tv('pe.unknownPreset', { id: preset.trim() }) : errText(e))
    } finally { setBusy(false) }
  }
  return <div data-testid="ps-group">
    <h4>{t('pe.groupPreset')}</h4>
    <div class="form sf-form">
      <div class="field"><label for="ps-group-id">{t('pe.groupId')}</label>
        <input id="ps-group-id" data-testid="ps-group-id" type="text" inputMode="numeric" value={group} onInput={e => setGroup((e.target as HTMLInputElement).value.trim())} /></div>
      <div class={`field${error ? ' invalid' : ''}`}><label for="ps-group-preset">{t('pe.groupPresetId')}</label>
        <input id="ps-group-preset" data-testid="ps-group-preset" type="text" list="ps-preset-ids" value={preset} aria-invalid={error ? 'true' : undefined}
          aria-describedby="ps-group-help" onInput={e => { setPreset((e.target as HTMLInputElement).value); setError(null) }} />
        <datalist id="ps-preset-ids">{presets.map(p => <option key={p.id} value={p.id}>{p.name}</option>)}</datalist>
        <small class="help" id="ps-group-help">{t('pe.groupHint')}</small>
        {error && <small class="sf-error" role="alert" data-testid="ps-group-error">{error}</small>}
      </div>
    </div>
    <button type="button" data-testid="ps-group-save" disabled={!groupOk || busy} aria-busy={busy} onClick={save}>{t('save')}</button>
  </div>
}

/** An id for a copy: `<id>-copy`, `<id>-copy-2`, ... that no preset has (3-50 letters, digits, hyphens). */
function copyId (id: string, taken: Set<string>): string {
  const base = `${id.replace(/[^A-Za-z0-9-]/g, '-').slice(0, 40)}-copy`
  let next = base
  for (let i = 2; taken.has(next); i++) next = `${base}-${i}`
  return next
}

export default function Presets () {
  const [search, setSearch] = useState('')
  const list = useLoad<PresetList>(`/api/presets?type=all&search=${encodeURIComponent(search)}`)
  const all = useLoad<PresetList>('/api/presets?type=all')
  const [editing, setEditing] = useState<PresetView | null | undefined>(undefined)
  const [file, setFile] = useState<File | null>(null)
  const reload = (): void => { list.reload(); all.reload() }
  const done = (): void => { setEditing(undefined); reload() }
  const open = async (id: string): Promise<void> => { setEditing(await api<PresetView>(`/api/presets/${encodeURIComponent(id)}`)) }
  const copy = async (p: PresetView): Promise<void> => {
    const newId = copyId(p.id, new Set((all.data?.presets ?? []).map(x => x.id)))
    await api(`/api/presets/${encodeURIComponent(p.id)}/copy`, { json: { newId, newName: tv('pe.copyName', { name: p.name }) } })
    toast(tv('pe.copied', { id: newId }))
    reload()
    await open(newId)
  }
  const remove = async (p: PresetView): Promise<void> => {
    if (!await confirmDanger(tv('pe.confirmDelete', { name: p.name, id: p.id }))) return
    await api(`/api/presets/${encodeURIComponent(p.id)}`, { method: 'DELETE' })
    toast(tv('pe.deleted', { name: p.name }))
    if (editing?.id === p.id) setEditing(undefined)
    reload()
  }
  const download = async (id: string): Promise<void> => {
    const res = await fetch(`${BASE}/api/presets/${encodeURIComponent(id)}/export`, { headers: { Authorization: `Bearer ${session.token() ?? ''}` } })
    if (!res.ok) throw new Error((await res.json().catch(() => ({}))).message ?? `HTTP ${res.status}`)
    const a = document.createElement('a'); a.href = URL.createObjectURL(await res.blob()); a.download = `${id}.yaml`; a.click()
  }
  const importFile = async (): Promise<void> => {
    if (!file) return
    const fd = new FormData(); fd.append('file', file); fd.append('overwrite', 'true')
    await api('/api/presets/import', { body: fd }); reload()
  }
  return <div>
    {editing !== undefined && <Editor key={editing?.id ?? 'new'} preset={editing} onDone={done} onCopy={p => { void copy(p).catch(e => toast(errText(e), true)) }} />}
    <Card title={t('presets')} testid="preset-list" extra={<>
      <input placeholder={t('search')} aria-label={t('search')} value={search} onInput={e => setSearch((e.target as HTMLInputElement).value)} />
      <button class="primary" data-testid="preset-add" onClick={() => setEditing(null)}>{t('add')}</button>
      <input type="file" data-testid="preset-file" aria-label={t('pe.importFile')} accept=".yaml,.yml" onChange={e => setFile((e.target as HTMLInputElement).files?.[0] ?? null)} />
      <Act testid="preset-import" run={importFile} done={t('saved')}>{t('import')}</Act></>}>
      <View load={list} isEmpty={d => d.presets.length === 0}>{d => <Table cols={['id', t('name'), t('type'), t('default'), t('actions')]}
        rows={d.presets.map(p => [<code>{p.id}</code>, p.name, p.isBuiltin ? t('pe.builtin') : t('pe.custom'), p.isDefault ? <span aria-label={t('pe.default')}>★</span> : '',
          <div class="row" data-testid={`preset-actions-${p.id}`}>
            {p.isBuiltin
              ? <><Act testid={`preset-view-${p.id}`} run={() => open(p.id)}>{t('pe.view')}</Act>
                <Act testid={`preset-copy-${p.id}`} run={() => copy(p)}>{t('pe.copyToEdit')}</Act></>
              : <><Act testid={`preset-edit-${p.id}`} run={() => open(p.id)}>{t('edit')}</Act>
                <Act testid={`preset-copy-${p.id}`} run={() => copy(p)}>{t('copy')}</Act></>}
            {!p.isDefault && <Act testid={`preset-default-${p.id}`} run={async () => { await api(`/api/presets/${encodeURIComponent(p.id)}/set-default`, { method: 'POST' }); reload() }}>{t('setDefault')}</Act>}
            <Act testid={`preset-export-${p.id}`} run={() => download(p.id)}>{t('export')}</Act>
            {!p.isBuiltin && <Act kind="danger" testid={`preset-delete-${p.id}`} run={() => remove(p)}>{t('delete')}</Act>}
          </div>])} />}</View>
    </Card>
    <View load={all} isEmpty={() => false}>{d => <Settings presets={d.presets} onSaved={reload} />}</View>
  </div>
}
