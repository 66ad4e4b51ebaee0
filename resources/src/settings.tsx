// Typed settings forms (the chat page and the other settings pages): each field is named by its dotted
// path in the configuration, which also names its label and help text (i18n `bs.<path>`, `bs.<path>.help`).
// What control a field gets (switch, select of the enum's values, number with its range, list, masked
// secret, text) comes from the configuration's schema (GET /api/config/schema, the one owner of those
// rules); a page says only which paths it shows, and which of them name a channel. Two modes:
// - global: every field has a value; an emptied number is sent as null, which puts its default back;
// - per group (`inherited` given): each field either inherits the global value (unset, sent as null) or
//   is set for the group.
// Only changed fields are sent. Server validation errors are listed once under the form, by field label.
import { useEffect, useState } from 'preact/hooks'
import { api, ApiError, errText, fieldMessage } from './api'
import type { Config, GroupConfig } from './contracts'
import { t } from './i18n'
import { rangeHint } from './schema-form'
import { nodeAt, type SchemaNode } from './schema-validate'
import { ErrorBox, Loading, toast } from './ui'

/** Dotted paths of the leaves of T (lists are leaves). */
type Leaves<T, P extends string = ''> = T extends readonly unknown[] ? P : T extends object
  ? { [K in keyof T & string]-?: Leaves<NonNullable<T[K]>, P extends '' ? K : `${P}.${K}`> }[keyof T & string] : P

type ConfigPath = Leaves<Pick<Config, 'reminders' | 'guard' | 'qqActions' | 'delivery' | 'input' | 'groupLog' | 'proactive' | 'chat' | 'trigger' | 'tools' | 'tts' | 'webTools' | 'access' | 'quotas' | 'moderation'>>
type GroupPath = Leaves<Pick<GroupConfig, 'guard' | 'qqActions' | 'delivery' | 'conversation' | 'burstWindowMs' | 'contextMessages' | 'proactive' | 'events' | 'trigger' | 'tts' | 'access' | 'quotas' | 'moderation'>>

export interface Field {
  /** where the global setting lives; also the key of its label and help text */
  path: ConfigPath
  /** the value names a channel (a select of the configured ones): the schema knows it only as text */
  channel?: true
  /** where a group's override lives (per-group editor) */
  group?: GroupPath
}
export interface FieldSection { title?: string, fields: Field[] }

type Kind = 'bool' | 'enum' | 'int' | 'number' | 'text' | 'list' | 'secret' | 'channel'
/** A field with what the schema says of it. */
interface Resolved extends Field { kind: Kind, values: readonly string[], range: string }

/** The control of a field, from its schema node (a nullable or a union of constants reads as its values). */
function resolveField (schema: SchemaNode, f: Field): Resolved {
  const node = nodeAt(schema, f.path.split('.'))
  if (!node) throw new Error(`settings: ${f.path} is not in the configuration schema`)
  const base = { ...f, values: [] as string[], range: '' }
  if (f.channel) return { ...base, kind: 'channel' }
  const branches = node.anyOf ? node.anyOf.filter(b => b.type !== 'null') : [node]
  const values = branches.flatMap(b => b.enum ?? ('const' in b ? [b.const] : []))
  if (values.length && branches.every(b => b.enum || 'const' in b)) return { ...base, kind: 'enum', values: values.map(String) }
  const n = branches[0] ?? node
  if (n.type === 'boolean') return { ...base, kind: 'bool' }
  if (n.type === 'integer' || n.type === 'number') return { ...base, kind: n.type === 'integer' ? 'int' : 'number', range: rangeHint(n) }
  if (n.type === 'array') return { ...base, kind: 'list' }
  if (n.type === 'string') return { ...base, kind: n['x-secret'] ? 'secret' : 'text' }
  throw new Error(`settings: no control for ${f.path} (${JSON.stringify(n).slice(0, 80)})`)
}

// loaded once a page load: it changes only with the plugin's version; once here, a form renders at once
let schemaLoad: Promise<SchemaNode> | undefined
let schemaLoaded: SchemaNode | undefined
function useConfigSchema (): { schema?: SchemaNode, error?: string } {
  const [state, setState] = useState<{ schema?: SchemaNode, error?: string }>(() => ({ schema: schemaLoaded }))
  useEffect(() => {
    if (schemaLoaded) return
    let live = true
    ;(schemaLoad ??= api<SchemaNode>('/api/config/schema').then(s => (schemaLoaded = s))).then(
      schema => { if (live) setState({ schema }) },
      (e: unknown) => { schemaLoad = undefined; if (live) setState({ error: errText(e) }) })
    return () => { live = false }
  }, [])
  return state
}

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)

export function getAt (obj: unknown, path: string): unknown {
  let cur = obj
  for (const k of path.split('.')) cur = isObj(cur) && Object.hasOwn(cur, k) ? cur[k] : undefined
  return cur
}

function setAt (obj: Obj, path: string, value: unknown): void {
  const keys = path.split('.')
  let cur = obj
  keys.slice(0, -1).forEach(k => { if (!isObj(cur[k])) cur[k] = {}; cur = cur[k] as Obj })
  cur[keys[keys.length - 1]!] = value
}

/** A translation, or '' when the dictionary has none (never a raw key on screen). */
function tr (key: string): string { const s = t(key); return s === key ? '' : s }
const fieldLabel = (f: Field): string => tr(`bs.${f.path}`) || f.path
function valueLabel (f: Resolved, v: string): string { return tr(`bv.${f.path}.${v}`) || tr(`v_${v}`) || v }

/** A value as the form holds it: text, 'true'/'false', a comma list; null = unset (inherits). */
function toDraft (v: unknown): string | null {
  if (v === undefined || v === null) return null
  if (Array.isArray(v)) return v.join(', ')
  return String(v)
}

class FieldError extends Error {}

function fromDraft (f: Resolved, d: string): unknown {
  if (f.kind === 'bool') return d === 'true'
  if (f.kind === 'list') return d.split(/[,，、\n]/).map(s => s.trim()).filter(Boolean)
  if (f.kind === 'int' || f.kind === 'number') {
    const n = Number(d.trim())
    if (!Number.isFinite(n)) throw new FieldError(t('bs.notNumber'))
    return n
  }
  return d
}

/** Shown for an inherited value: the global one, in words. */
function shown (f: Resolved, v: unknown): string {
  if (typeof v === 'boolean') return t(v ? 'bs.on' : 'bs.off')
  if (f.kind === 'enum' && typeof v === 'string') return valueLabel(f, v)
  if (Array.isArray(v)) return v.length ? v.join(', ') : t('bs.none')
  if (v === '' || v === undefined || v === null) return t('bs.none')
  return String(v)
}

interface FormProps {
  sections: FieldSection[]
  /** the stored value of a field (per group: undefined while it inherits) */
  read: (f: Field) => unknown
  /** per group: the global value a field inherits */
  inherited?: (f: Field) => unknown
  /** sends the nested patch of the changed fields */
  onSave: (patch: Obj) => Promise<unknown>
  testid: string
  /** channel names for a `channel` field */
  channels?: string[]
  /** a prefix of the server's error paths to drop (the group route answers `delivery.x`, the config one `groups.<id>.delivery.x`) */
  errorPrefix?: string
}

export function SettingsForm (props: FormProps) {
  const { schema, error } = useConfigSchema()
  if (error) return <ErrorBox error={error} />
  if (!schema) return <Loading />
  return <Form {...props} sections={props.sections.map(s => ({ ...s, fields: s.fields.map(f => resolveField(schema, f)) }))} />
}

function Form ({ sections, read, inherited, onSave, testid, channels = [], errorPrefix = '' }: Omit<FormProps, 'sections'> & { sections: Array<{ title?: string, fields: Resolved[] }> }) {
  const perGroup = inherited !== undefined
  const keyOf = (f: Field): string => (perGroup ? f.group : f.path) ?? f.path
  const fields = sections.flatMap(s => s.fields)
  const initial = (): Record<string, string | null> => Object.fromEntries(fields.map(f => [keyOf(f), toDraft(read(f))]))
  const [draft, setDraft] = useState(initial)
  const [errors, setErrors] = useState<Array<{ path: string, message: string }>>([])
  const [busy, setBusy] = useState(false)
  // editing a field clears what the server said about it
  const set = (k: string, v: string | null): void => { setDraft(d => ({ ...d, [k]: v })); setErrors(es => es.filter(e => e.path !== k)) }

  const save = async (): Promise<void> => {
    const start = initial()
    const patch: Obj = {}
    const bad: Array<{ path: string, message: string }> = []
    for (const f of fields) {
      const k = keyOf(f)
      const d = draft[k] ?? null
      if (d === start[k]) continue
      // an emptied number: unset (per group) or back to its default (global)
      const empty = d === null || (d.trim() === '' && (f.kind === 'int' || f.kind === 'number'))
      try { setAt(patch, k, empty ? null : fromDraft(f, d)) } catch (e) { bad.push({ path: k, message: (e as Error).message }) }
    }
    setErrors(bad)
    if (bad.length) return
    if (!Object.keys(patch).length) { toast(t('bs.noChanges')); return }
    setBusy(true)
    try {
      await onSave(patch)
      toast(t('saved'))
    } catch (e) {
      const list = e instanceof ApiError && e.errors?.length ? e.errors.map(x => ({ ...x, path: x.path.startsWith(errorPrefix) ? x.path.slice(errorPrefix.length) : x.path })) : [{ path: '', message: errText(e) }]
      setErrors(list)
    } finally { setBusy(false) }
  }

  const errorOf = (k: string): boolean => errors.some(e => e.path === k)
  const labelOfPath = (p: string): string => { const f = fields.find(x => keyOf(x) === p); return f ? fieldLabel(f) : p }
  const errorLine = (e: { path: string, message: string }): string => e.path ? `${labelOfPath(e.path)}${t('bs.colon')}${fieldMessage(e.message)}` : e.message

  const control = (f: Resolved, id: string) => {
    const k = keyOf(f)
    const d = draft[k] ?? null
    const common = { id, name: k, 'aria-invalid': errorOf(k) ? 'true' as const : undefined, 'aria-describedby': `${id}-help` }
    const text = (e: Event): void => set(k, (e.target as HTMLInputElement).value)
    const inh = perGroup ? inherited(f) : undefined
    const inheritText = `${t('bs.inherit')}${t('bs.colon')}${shown(f, inh)}`
    if (f.kind === 'bool' && !perGroup) {
      return <input {...common} type="checkbox" checked={d === 'true'} onChange={e => set(k, String((e.target as HTMLInputElement).checked))} />
    }
    if (f.kind === 'bool' || f.kind === 'enum' || f.kind === 'channel') {
      const options = f.kind === 'bool' ? ['true', 'false'] : f.kind === 'enum' ? [...f.values] : ['', ...channels]
      if (d !== null && !options.includes(d)) options.push(d)
      const optLabel = (v: string): string => f.kind === 'bool' ? t(v === 'true' ? 'bs.on' : 'bs.off') : f.kind === 'channel' ? (v || t('bs.auto')) : valueLabel(f, v)
      return <select {...common} value={d ?? ''} onChange={e => { const v = (e.target as HTMLSelectElement).value; set(k, perGroup && v === '' ? null : v) }}>
        {perGroup && <option value="">{inheritText}</option>}
        {options.map(v => <option key={v} value={v}>{optLabel(v)}</option>)}
      </select>
    }
    if (f.kind === 'int' || f.kind === 'number') {
      return <input {...common} type="text" inputmode={f.kind === 'int' ? 'numeric' : 'decimal'} autocomplete="off" value={d ?? ''}
        placeholder={perGroup ? inheritText : t('bs.default')} onInput={e => { const v = (e.target as HTMLInputElement).value; set(k, perGroup && v.trim() === '' ? null : v) }} />
    }
    if (f.kind === 'secret') return <input {...common} type="password" autocomplete="off" value={d ?? ''} onInput={text} />
    // text and lists: per group an explicit switch, because an empty text or list is a value of its own
    const input = <input {...common} type="text" value={d ?? (perGroup ? toDraft(inh) ?? '' : '')} disabled={perGroup && d === null}
      placeholder={f.kind === 'list' ? t('bs.listHint') : undefined} onInput={text} />
    if (!perGroup) return input
    return <div class="override">
      <label class="check"><input type="checkbox" name={`${k}:set`} checked={d !== null} aria-label={`${fieldLabel(f)}: ${t('bs.override')}`}
        onChange={e => set(k, (e.target as HTMLInputElement).checked ? (toDraft(inh) ?? '') : null)} />{t('bs.override')}</label>
      {input}
    </div>
  }

  return <div data-testid={testid}>
    {sections.map((s, i) => <div key={i}>
      {s.title && <h4>{s.title}</h4>}
      <div class="form">{s.fields.map(f => {
        const id = `${testid}-${keyOf(f).replace(/\./g, '-')}`
        const help = [(perGroup && tr(`bs.${f.path}.grouphelp`)) || tr(`bs.${f.path}.help`), f.range].filter(Boolean).join(' · ')
        // per group, a field set for the group is marked (an unset one inherits)
        const set = perGroup && draft[keyOf(f)] != null
        return <div class={`field${set ? ' set' : ''}${errorOf(keyOf(f)) ? ' invalid' : ''}`} key={keyOf(f)}>
          <label for={id}>{fieldLabel(f)}</label>
          {control(f, id)}
          <small class="help" id={`${id}-help`}>{help}</small>
        </div>
      })}</div>
    </div>)}
    {errors.length > 0 && <div class="error" role="alert" data-testid={`${testid}-errors`}>
      {errors.length === 1 ? errorLine(errors[0]!) : <ul>{errors.map(e => <li key={e.path}>{errorLine(e)}</li>)}</ul>}
    </div>}
    <button class="primary" disabled={busy} aria-busy={busy || undefined} data-testid={`${testid}-save`} onClick={save}>{t('save')}</button>
  </div>
}
