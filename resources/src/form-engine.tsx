// The dashboard's one form engine, driven by the JSON Schema the server serves (GET /api/config/schema: every
// setting's rules, its title and help in English and Chinese, secrets marked; GET /api/presets/schema for the
// preset editor). A field's control (switch, select of the enum's values, number with its range, list,
// masked secret, text, JSON), its label and help (the schema's title and description in the page language)
// and its check (form-rules.ts, one JSON-Schema validator) all come from the schema. Two layouts:
// - SchemaForm: a whole section as a tree (lists and records as repeatable fieldsets), problems at each field;
// - SettingsForm: the fields a page names by their configuration path, globally or per group (a field
//   inherits the global value until set), only the changes sent, problems listed once under the form.
// Texts the schema does not hold (value names, hints, the inherit choice) are in i18n.
import { useEffect, useState } from 'preact/hooks'
import { api, ApiError, errText, fieldMessage, labelPathsWith } from './api'
import type { Config, GroupConfig } from './contracts'
import { describedBy, FieldShell, JsonInput, LinesInput, NumberInput, type Change, type Extra } from './form-fields'
import { defaultFor, isObj, isOpaque, join, nodeAt, validate, type Issue, type SchemaNode } from './form-rules'
import { lang, t, tv } from './i18n'
import { ErrorBox, Loading, toast } from './ui'
import './schema-form.css'

// ---- texts: the schema's own, in the page language ----

/** The title of a schema node in the page language (`fallback` when the schema has none). */
export function titleOf (node: SchemaNode | undefined, fallback: string): string {
  return (lang.get() === 'zh' ? node?.['x-title-zh'] : node?.title) ?? node?.title ?? fallback
}
/** The description of a schema node in the page language ('' when it has none). */
export function helpOf (node: SchemaNode | undefined): string {
  return (lang.get() === 'zh' ? node?.['x-description-zh'] : node?.description) ?? ''
}
/** A translation, or '' when the dictionary has none (never a raw key on screen). */
function tr (key: string): string { const s = t(key); return s === key ? '' : s }
/** An enum value's name: `bv.<path>.<value>` (the global setting's serves a group's override), the shared `v_<value>`, else the value. */
function valueLabel (path: string, v: unknown): string {
  const s = String(v)
  const segs = path.split('.').filter(k => !/^\d+$/.test(k))
  for (let i = 0; i < segs.length; i++) { const l = tr(`bv.${segs.slice(i).join('.')}.${s}`); if (l) return l }
  return tr(`v_${s}`) || tr(`sf.v.${s}`) || s
}
/** A number's range in words ('' when the schema gives none). */
function rangeHint (node: SchemaNode): string {
  const { minimum: lo, maximum: hi } = node
  if (lo !== undefined && hi !== undefined) return tv('sf.range', { lo, hi })
  if (lo !== undefined) return tv('sf.atLeast', { n: lo })
  if (hi !== undefined) return tv('sf.atMost', { n: hi })
  return ''
}
/** A finding of the browser's check in the page language. */
export const issueText = (i: Issue): string => tv(`sv.${i.key}`, i.vars ?? {})

// ---- the served schemas, loaded once a page load (they change only with the plugin's version) ----

const CONFIG_SCHEMA = '/api/config/schema'
/** The server's errors elsewhere on the dashboard (api.ts errText) name a configuration path by its title too. */
function nameErrorPaths (schema: SchemaNode): void {
  labelPathsWith(path => { const node = nodeAt(schema, path.split('.')); return node?.title ? titleOf(node, path) : undefined })
}

const loads = new Map<string, Promise<SchemaNode>>()
const loaded = new Map<string, SchemaNode>()
/** The JSON Schema at `url` (GET /api/config/schema unless told); rendered at once when already here. */
export function useSchema (url = CONFIG_SCHEMA): { schema?: SchemaNode, error?: string } {
  const [state, setState] = useState<{ schema?: SchemaNode, error?: string }>(() => ({ schema: loaded.get(url) }))
  useEffect(() => {
    if (loaded.has(url)) return
    let live = true
    let load = loads.get(url)
    if (!load) { load = api<SchemaNode>(url).then(s => { loaded.set(url, s); if (url === CONFIG_SCHEMA) nameErrorPaths(s); return s }); loads.set(url, load) }
    load.then(schema => { if (live) setState({ schema }) }, (e: unknown) => { loads.delete(url); if (live) setState({ error: errText(e) }) })
    return () => { live = false }
  }, [url])
  return state
}

// ---- SchemaForm: a section as a tree ----

/** Problems by dotted path, already in the page language. */
export type Problems = ReadonlyMap<string, string[]>
interface Ctx { problems: Problems, edited: (path: string) => void, testid: string }

const idOf = (testid: string, path: string): string => `${testid}-${path.replace(/[^\w-]+/g, '_')}`

/** The messages about one path, and for a list of plain values those about its items (as "#n: ..."). */
function messagesAt (ctx: Ctx, path: string, items = false): string[] {
  const own = [...(ctx.problems.get(path) ?? [])]
  if (items) {
    for (const [p, ms] of ctx.problems) {
      const m = p.startsWith(`${path}.`) ? p.slice(path.length + 1).match(/^(\d+)$/) : null
      if (m) own.push(...ms.map(x => `#${Number(m[1]) + 1}${t('bs.colon')}${x}`))
    }
  }
  return own
}

/** One field of any kind. `optional`: the key may be absent (an emptied number or an unset choice removes it). */
function Field ({ node, name, path, value, onChange, ctx, optional }: {
  node: SchemaNode, name: string, path: string, value: unknown, onChange: Change, ctx: Ctx, optional: boolean
}) {
  const id = idOf(ctx.testid, path)
  const label = titleOf(node, name)
  const help = helpOf(node)
  const tid = `${ctx.testid}-${path}`
  const set: Change = v => { ctx.edited(path); onChange(v) }

  if (isOpaque(node)) {
    const messages = messagesAt(ctx, path)
    const extra: Extra = { 'data-testid': tid, name: path, 'aria-invalid': messages.length ? 'true' : undefined, 'aria-describedby': describedBy(id, help || 'json', messages) }
    return <FieldShell id={id} label={label} help={help || t('sf.jsonHint')} messages={messages} wide testid={tid}>
      <JsonInput id={id} value={value} onChange={set} extra={extra} />
    </FieldShell>
  }
  if (node.type === 'object' && node.properties) {
    return <fieldset class="sf-group" data-testid={tid}>
      <legend>{label}</legend>
      {help && <p class="help sf-legend-help">{help}</p>}
      <ObjectFields node={node} value={value} onChange={set} path={path} ctx={ctx} />
      {(ctx.problems.get(path) ?? []).map(m => <small class="sf-error" key={m}>{m}</small>)}
    </fieldset>
  }
  if (node.type === 'object' && typeof node.additionalProperties === 'object') {
    return <RecordField node={node} values={node.additionalProperties} label={label} help={help} value={value} onChange={set} path={path} ctx={ctx} />
  }
  if (node.type === 'array' && node.items && (node.items.type === 'object' || node.items.anyOf)) {
    return <ListField node={node} label={label} help={help} value={value} onChange={set} path={path} ctx={ctx} />
  }

  const plainList = node.type === 'array'
  const messages = messagesAt(ctx, path, plainList)
  const extra: Extra = { 'data-testid': tid, name: path, 'aria-invalid': messages.length ? 'true' : undefined, 'aria-describedby': describedBy(id, help, messages) }
  let control: preact.ComponentChildren
  let hint = ''
  if (plainList) {
    control = <LinesInput id={id} value={value} numeric={node.items?.type === 'number' || node.items?.type === 'integer'} onChange={set} extra={extra} />
    hint = t('sf.linesHint')
  } else if (node.type === 'boolean') {
    control = <input {...extra} id={id} type="checkbox" role="switch" checked={value === true} onChange={e => set((e.target as HTMLInputElement).checked)} />
  } else if (node.enum) {
    const values = node.enum
    // an optional choice not made: '' (choosing it again removes the key)
    const unset = value === undefined && optional
    const options = unset ? ['', ...values] : values.includes(value) ? values : [value, ...values]
    control = <select {...extra} id={id} value={unset ? '' : String(value)} onChange={e => {
      const v = (e.target as HTMLSelectElement).value
      set(unset && v === '' ? undefined : values.find(x => String(x) === v) ?? v)
    }}>
      {options.map(v => <option key={String(v)} value={String(v)}>{v === '' && unset ? t('bs.default') : valueLabel(path, v)}</option>)}
    </select>
  } else if (node.type === 'integer' || node.type === 'number') {
    control = <NumberInput id={id} node={node} value={value} optional={optional} onChange={set} extra={extra} />
    hint = rangeHint(node)
  } else {
    const secret = node['x-secret'] === true
    const url = node.format === 'uri' || node.anyOf?.some(a => a.format === 'uri')
    const long = (node.maxLength ?? 0) >= 500
    const text = typeof value === 'string' ? value : value === undefined ? '' : String(value)
    const typed = (e: Event): void => set((e.target as HTMLInputElement | HTMLTextAreaElement).value)
    control = long && !secret
      ? <textarea {...extra} id={id} rows={3} value={text} onInput={typed} />
      : secret
        ? <input {...extra} id={id} type="password" autoComplete="off" value={text} onInput={typed} />
        : <input {...extra} id={id} type="text" inputMode={url ? 'url' : 'text'} autoComplete="off" value={text} onInput={typed} />
    if (secret) hint = t('sf.secretHint')
  }
  const fullHelp = [help, hint].filter(Boolean).join(' · ')
  return <FieldShell id={id} label={label} help={fullHelp} messages={messages} wide={plainList} testid={tid}>{control}</FieldShell>
}

/** The fields of an object node, in the schema's order. */
function ObjectFields ({ node, value, onChange, path, ctx }: { node: SchemaNode, value: unknown, onChange: Change, path: string, ctx: Ctx }) {
  const obj = isObj(value) ? value : {}
  const required = new Set(node.required ?? [])
  const put = (k: string, v: unknown): void => {
    const next = { ...obj }
    if (v === undefined) delete next[k]; else next[k] = v
    onChange(next)
  }
  return <div class="form sf-form">
    {Object.entries(node.properties ?? {}).map(([k, child]) => <Field key={k} node={child} name={k} path={join(path, k)} value={obj[k]}
      optional={!required.has(k) && child.default === undefined} onChange={v => put(k, v)} ctx={ctx} />)}
  </div>
}

/** A list item or record value under its own heading: an object's fields directly (no second legend), else one field. */
function Item ({ node, name, path, value, onChange, ctx }: { node: SchemaNode, name: string, path: string, value: unknown, onChange: Change, ctx: Ctx }) {
  if (node.type === 'object' && node.properties && !isOpaque(node)) return <ObjectFields node={node} value={value} onChange={onChange} path={path} ctx={ctx} />
  return <div class="form sf-form"><Field node={node} name={name} path={path} value={value} optional={false} ctx={ctx} onChange={onChange} /></div>
}

function ListField ({ node, label, help, value, onChange, path, ctx }: { node: SchemaNode, label: string, help: string, value: unknown, onChange: Change, path: string, ctx: Ctx }) {
  const list = Array.isArray(value) ? value : []
  const items = node.items!
  const tid = `${ctx.testid}-${path}`
  return <fieldset class="sf-group sf-wide" data-testid={tid}>
    <legend>{label}</legend>
    {help && <p class="help sf-legend-help">{help}</p>}
    {list.map((item, i) => <div class="sf-item" key={i}>
      <div class="row sf-item-head"><strong>#{i + 1}</strong>
        <button type="button" class="danger" data-testid={`${tid}-remove-${i}`} aria-label={tv('sf.removeItem', { name: label, n: i + 1 })}
          onClick={() => { ctx.edited(path); onChange(list.filter((_x, j) => j !== i)) }}>{t('sf.remove')}</button></div>
      <Item node={items} name={`#${i + 1}`} path={join(path, i)} value={item} ctx={ctx} onChange={v => onChange(list.map((x, j) => j === i ? v : x))} />
    </div>)}
    {list.length === 0 && <p class="muted">{t('sf.noItems')}</p>}
    {(ctx.problems.get(path) ?? []).map(m => <small class="sf-error" key={m}>{m}</small>)}
    <button type="button" data-testid={`${tid}-add`} aria-label={tv('sf.addTo', { name: label })} onClick={() => { ctx.edited(path); onChange([...list, defaultFor(items)]) }}>{t('sf.addItem')}</button>
  </fieldset>
}

function RecordField ({ node, values, label, help, value, onChange, path, ctx }: {
  node: SchemaNode, values: SchemaNode, label: string, help: string, value: unknown, onChange: Change, path: string, ctx: Ctx
}) {
  const obj = isObj(value) ? value : {}
  const [key, setKey] = useState('')
  const tid = `${ctx.testid}-${path}`
  const keyId = idOf(ctx.testid, `${path}-newkey`)
  const typed = key.trim()
  // the key's own rule, checked by the same validator as the values
  const keyIssue = typed && node.propertyNames ? validate(node.propertyNames, typed)[0] : undefined
  const keyProblem = !typed ? '' : typed in obj ? tv('sf.keyTaken', { key: typed }) : keyIssue ? tv('sv.recordKey', { key: typed }) : ''
  const keyOk = typed !== '' && !keyProblem
  return <fieldset class="sf-group sf-wide" data-testid={tid}>
    <legend>{label}</legend>
    {help && <p class="help sf-legend-help">{help}</p>}
    {Object.entries(obj).map(([k, v]) => <div class="sf-item" key={k}>
      <div class="row sf-item-head"><strong>{k}</strong>
        <button type="button" class="danger" data-testid={`${tid}-remove-${k}`} aria-label={tv('sf.removeItem', { name: label, n: k })}
          onClick={() => { ctx.edited(path); const next = { ...obj }; delete next[k]; onChange(next) }}>{t('sf.remove')}</button></div>
      <Item node={values} name={k} path={join(path, k)} value={v} ctx={ctx} onChange={nv => onChange({ ...obj, [k]: nv })} />
    </div>)}
    {(ctx.problems.get(path) ?? []).map(m => <small class="sf-error" key={m}>{m}</small>)}
    <div class="row">
      <label class="sf-inline" for={keyId}>{t('sf.newKey')}</label>
      <input id={keyId} data-testid={`${tid}-newkey`} value={key} aria-invalid={keyProblem ? 'true' : undefined} aria-describedby={keyProblem ? `${keyId}-err` : undefined}
        onInput={e => setKey((e.target as HTMLInputElement).value)} />
      <button type="button" data-testid={`${tid}-add`} disabled={!keyOk} aria-label={tv('sf.addTo', { name: label })}
        onClick={() => { ctx.edited(path); onChange({ ...obj, [typed]: defaultFor(values) }); setKey('') }}>{t('sf.addItem')}</button>
    </div>
    {keyProblem && <small class="sf-error" id={`${keyId}-err`} data-testid={`${tid}-newkey-error`}>{keyProblem}</small>}
  </fieldset>
}

/** A whole section: an object's fields (named from `name`, or from the top when it is ''), or one field for a plain setting. */
export function SchemaForm ({ node, name, value, onChange, problems, edited, testid }: {
  node: SchemaNode, name: string, value: unknown, onChange: Change, problems: Problems, edited: (path: string) => void, testid: string
}) {
  const ctx: Ctx = { problems, edited, testid }
  if (node.type === 'object' && node.properties) return <ObjectFields node={node} value={value} onChange={onChange} path={name} ctx={ctx} />
  return <div class="form sf-form"><Field node={node} name={name} path={name} value={value} onChange={onChange} ctx={ctx} optional={false} /></div>
}

/** The browser's findings and the server's words, by path, in the page language (computed at render: follows a language change). */
export function problemsOf (issues: Issue[], server: Array<{ path: string, message: string }>, serverText: (m: string) => string = fieldMessage): Problems {
  const m = new Map<string, string[]>()
  const add = (p: string, s: string): void => { m.set(p, [...(m.get(p) ?? []), s]) }
  for (const i of issues) add(i.path, issueText(i))
  for (const e of server) add(e.path, serverText(e.message))
  return m
}

// ---- SettingsForm: the fields a page names, globally or per group ----

/** Dotted paths of the leaves of T (lists are leaves). */
type Leaves<T, P extends string = ''> = T extends readonly unknown[] ? P : T extends object
  ? { [K in keyof T & string]-?: Leaves<NonNullable<T[K]>, P extends '' ? K : `${P}.${K}`> }[keyof T & string] : P

type ConfigPath = Leaves<Pick<Config, 'reminders' | 'guard' | 'qqActions' | 'delivery' | 'input' | 'groupLog' | 'proactive' | 'chat' | 'trigger' | 'tools' | 'tts' | 'webTools' | 'access' | 'quotas' | 'moderation' | 'game' | 'image' | 'presets'>>
type GroupPath = Leaves<Pick<GroupConfig, 'guard' | 'qqActions' | 'delivery' | 'conversation' | 'burstWindowMs' | 'contextMessages' | 'proactive' | 'events' | 'trigger' | 'tts' | 'access' | 'quotas' | 'moderation'>>

export interface SettingsField {
  /** where the global setting lives: its node in the schema (control, label, help, rules) */
  path: ConfigPath
  /** the value names a channel or a preset (a select of those there are): the schema knows it only as text */
  channel?: true
  preset?: true
  /** where a group's override lives (per-group editor) */
  group?: GroupPath
}
export interface FieldSection { title?: string, fields: SettingsField[] }

type Kind = 'bool' | 'enum' | 'int' | 'number' | 'text' | 'list' | 'secret' | 'channel' | 'preset'
/** A field with its schema node and what control it gets. */
interface Resolved extends SettingsField { node: SchemaNode, kind: Kind, values: readonly string[] }

/** The control of a field, from its schema node (a nullable or a union of constants reads as its values). */
function resolveField (schema: SchemaNode, f: SettingsField): Resolved {
  const node = nodeAt(schema, f.path.split('.'))
  if (!node) throw new Error(`settings: ${f.path} is not in the configuration schema`)
  const base = { ...f, node, values: [] as string[] }
  if (f.channel) return { ...base, kind: 'channel' }
  if (f.preset) return { ...base, kind: 'preset' }
  const branches = node.anyOf ? node.anyOf.filter(b => b.type !== 'null') : [node]
  const values = branches.flatMap(b => b.enum ?? ('const' in b ? [b.const] : []))
  if (values.length && branches.every(b => b.enum || 'const' in b)) return { ...base, kind: 'enum', values: values.map(String) }
  const n = branches[0] ?? node
  if (n.type === 'boolean') return { ...base, kind: 'bool' }
  if (n.type === 'integer' || n.type === 'number') return { ...base, node: n, kind: n.type === 'integer' ? 'int' : 'number' }
  if (n.type === 'array') return { ...base, kind: 'list' }
  if (n.type === 'string') return { ...base, kind: n['x-secret'] ? 'secret' : 'text' }
  throw new Error(`settings: no control for ${f.path} (${JSON.stringify(n).slice(0, 80)})`)
}

export function getAt (obj: unknown, path: string): unknown {
  let cur = obj
  for (const k of path.split('.')) cur = isObj(cur) && Object.hasOwn(cur, k) ? cur[k] : undefined
  return cur
}

function setAt (obj: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.')
  let cur = obj
  keys.slice(0, -1).forEach(k => { if (!isObj(cur[k])) cur[k] = {}; cur = cur[k] as Record<string, unknown> })
  cur[keys[keys.length - 1]!] = value
}

/** A value as the form holds it: text, 'true'/'false', a comma list; null = unset (inherits). */
function toDraft (v: unknown): string | null {
  if (v === undefined || v === null) return null
  if (Array.isArray(v)) return v.join(', ')
  return String(v)
}

/** The value a draft stands for (a number not typed as one stays text: the check names it). */
function fromDraft (f: Resolved, d: string): unknown {
  if (f.kind === 'bool') return d === 'true'
  if (f.kind === 'list') return d.split(/[,，、\n]/).map(s => s.trim()).filter(Boolean)
  if (f.kind === 'int' || f.kind === 'number') { const n = Number(d.trim()); return d.trim() !== '' && Number.isFinite(n) ? n : d }
  return d
}

/** Shown for an inherited value: the global one, in words. */
function shown (f: Resolved, v: unknown): string {
  if (typeof v === 'boolean') return t(v ? 'bs.on' : 'bs.off')
  if (f.kind === 'enum' && typeof v === 'string') return valueLabel(f.path, v)
  if (Array.isArray(v)) return v.length ? v.join(', ') : t('bs.none')
  if (v === '' || v === undefined || v === null) return t('bs.none')
  return String(v)
}

interface FormProps {
  sections: FieldSection[]
  /** the stored value of a field (per group: undefined while it inherits) */
  read: (f: SettingsField) => unknown
  /** per group: the global value a field inherits */
  inherited?: (f: SettingsField) => unknown
  /** sends the nested patch of the changed fields */
  onSave: (patch: Record<string, unknown>) => Promise<unknown>
  testid: string
  /** channel names for a `channel` field */
  channels?: string[]
  /** the presets for a `preset` field */
  presets?: Array<{ id: string, name: string }>
  /** a prefix of the server's error paths to drop (the group route answers `delivery.x`, the config one `groups.<id>.delivery.x`) */
  errorPrefix?: string
  /** the section a route of its own takes (PUT /api/game/config: `game`): names and the patch start below it */
  root?: string
  /** false where the route has no defaults to put back: an emptied number is refused instead of sent as null */
  resets?: boolean
}

export function SettingsForm (props: FormProps) {
  const { schema, error } = useSchema()
  if (error) return <ErrorBox error={error} />
  if (!schema) return <Loading />
  return <FlatForm {...props} sections={props.sections.map(s => ({ ...s, fields: s.fields.map(f => resolveField(schema, f)) }))} />
}

/** A problem of one field: the browser's (an issue) or the server's (its words). */
interface Problem { path: string, issue?: Issue, message: string }

function FlatForm ({ sections, read, inherited, onSave, testid, channels = [], presets = [], errorPrefix = '', root = '', resets = true }: Omit<FormProps, 'sections'> & { sections: Array<{ title?: string, fields: Resolved[] }> }) {
  const perGroup = inherited !== undefined
  const keyOf = (f: SettingsField): string => {
    const k = (perGroup ? f.group : f.path) ?? f.path
    return root && k.startsWith(`${root}.`) ? k.slice(root.length + 1) : k
  }
  const fields = sections.flatMap(s => s.fields)
  const initial = (): Record<string, string | null> => Object.fromEntries(fields.map(f => [keyOf(f), toDraft(read(f))]))
  const [draft, setDraft] = useState(initial)
  const [errors, setErrors] = useState<Problem[]>([])
  const [busy, setBusy] = useState(false)
  // editing a field clears what was said about it
  const set = (k: string, v: string | null): void => { setDraft(d => ({ ...d, [k]: v })); setErrors(es => es.filter(e => e.path !== k)) }

  const save = async (): Promise<void> => {
    const start = initial()
    const patch: Record<string, unknown> = {}
    const bad: Problem[] = []
    for (const f of fields) {
      const k = keyOf(f)
      const d = draft[k] ?? null
      if (d === start[k]) continue
      const number = f.kind === 'int' || f.kind === 'number'
      // an emptied number: unset (per group) or back to its default (global), where the route has defaults
      if (d === null || (number && d.trim() === '' && resets)) { setAt(patch, k, null); continue }
      if (number && d.trim() === '') { bad.push({ path: k, message: t('er.f.emptyNumber') }); continue }
      const value = fromDraft(f, d)
      // the schema's check: one finding a field (a list's item's as the list's)
      const issue = validate(f.node, value, k)[0]
      if (issue) bad.push({ path: k, issue: { ...issue, path: k }, message: '' })
      else setAt(patch, k, value)
    }
    setErrors(bad)
    if (bad.length) return
    if (!Object.keys(patch).length) { toast(t('bs.noChanges')); return }
    setBusy(true)
    try {
      await onSave(patch)
      toast(t('saved'))
    } catch (e) {
      setErrors(e instanceof ApiError && e.errors?.length
        ? e.errors.map(x => ({ path: x.path.startsWith(errorPrefix) ? x.path.slice(errorPrefix.length) : x.path, message: x.message }))
        : [{ path: '', message: errText(e) }])
    } finally { setBusy(false) }
  }

  const fieldOf = (p: string): Resolved | undefined => fields.find(x => keyOf(x) === p)
  const label = (f: Resolved): string => titleOf(f.node, f.path)
  const errorOf = (k: string): boolean => errors.some(e => e.path === k)
  const errorLine = (e: Problem): string => {
    const text = e.issue ? issueText(e.issue) : e.path ? fieldMessage(e.message) : e.message
    const f = fieldOf(e.path)
    return e.path ? `${f ? label(f) : e.path}${t('bs.colon')}${text}` : text
  }

  const control = (f: Resolved, id: string) => {
    const k = keyOf(f)
    const d = draft[k] ?? null
    const common = { id, name: k, 'data-testid': `${testid}-${k}`, 'aria-invalid': errorOf(k) ? 'true' as const : undefined, 'aria-describedby': `${id}-help` }
    const text = (e: Event): void => set(k, (e.target as HTMLInputElement).value)
    const inh = perGroup ? inherited(f) : undefined
    const inheritText = `${t('bs.inherit')}${t('bs.colon')}${shown(f, inh)}`
    if (f.kind === 'bool' && !perGroup) {
      return <input {...common} type="checkbox" checked={d === 'true'} onChange={e => set(k, String((e.target as HTMLInputElement).checked))} />
    }
    if (f.kind === 'bool' || f.kind === 'enum' || f.kind === 'channel' || f.kind === 'preset') {
      const options = f.kind === 'bool' ? ['true', 'false'] : f.kind === 'enum' ? [...f.values] : f.kind === 'preset' ? presets.map(p => p.id) : ['', ...channels]
      if (d !== null && !options.includes(d)) options.push(d)
      const presetName = (v: string): string => { const p = presets.find(x => x.id === v); return p ? `${p.name} (${v})` : v }
      const optLabel = (v: string): string => f.kind === 'bool' ? t(v === 'true' ? 'bs.on' : 'bs.off') : f.kind === 'channel' ? (v || t('bs.auto')) : f.kind === 'preset' ? presetName(v) : valueLabel(f.path, v)
      return <select {...common} value={d ?? ''} onChange={e => { const v = (e.target as HTMLSelectElement).value; set(k, perGroup && v === '' ? null : v) }}>
        {perGroup && <option value="">{inheritText}</option>}
        {options.map(v => <option key={v} value={v}>{optLabel(v)}</option>)}
      </select>
    }
    if (f.kind === 'int' || f.kind === 'number') {
      return <input {...common} type="text" inputmode={f.kind === 'int' ? 'numeric' : 'decimal'} autocomplete="off" value={d ?? ''}
        placeholder={perGroup ? inheritText : resets ? t('bs.default') : undefined} onInput={e => { const v = (e.target as HTMLInputElement).value; set(k, perGroup && v.trim() === '' ? null : v) }} />
    }
    if (f.kind === 'secret') return <input {...common} type="password" autocomplete="off" value={d ?? ''} onInput={text} />
    // text and lists: per group an explicit switch, because an empty text or list is a value of its own
    const input = <input {...common} type="text" value={d ?? (perGroup ? toDraft(inh) ?? '' : '')} disabled={perGroup && d === null}
      placeholder={f.kind === 'list' ? t('bs.listHint') : undefined} onInput={text} />
    if (!perGroup) return input
    return <div class="override">
      <label class="check"><input type="checkbox" name={`${k}:set`} checked={d !== null} aria-label={`${label(f)}: ${t('bs.override')}`}
        onChange={e => set(k, (e.target as HTMLInputElement).checked ? (toDraft(inh) ?? '') : null)} />{t('bs.override')}</label>
      {input}
    </div>
  }

  return <div data-testid={testid}>
    {sections.map((s, i) => <div key={i}>
      {s.title && <h4>{s.title}</h4>}
      <div class="form">{s.fields.map(f => {
        const id = `${testid}-${keyOf(f).replace(/\./g, '-')}`
        const range = f.kind === 'int' || f.kind === 'number' ? rangeHint(f.node) : ''
        const help = [(perGroup && tr(`bs.${f.path}.grouphelp`)) || helpOf(f.node), range, f.kind === 'list' ? t('bs.listHint') : ''].filter(Boolean).join(' · ')
        // per group, a field set for the group is marked (an unset one inherits)
        const isSet = perGroup && draft[keyOf(f)] != null
        return <div class={`field${isSet ? ' set' : ''}${errorOf(keyOf(f)) ? ' invalid' : ''}`} key={keyOf(f)}>
          <label for={id}>{label(f)}</label>
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
