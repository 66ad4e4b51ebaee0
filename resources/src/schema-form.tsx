// A form generated from the configuration's JSON Schema (GET /api/config/schema; schema-validate.ts):
// switches for booleans, number inputs with their range, selects for enums, text inputs (masked for
// secrets), lists of strings one a line, lists of objects and records as repeatable fieldsets, nested
// objects as fieldsets, anything without rules as JSON text. Labels and help come from the schema's
// titles in the page language; each field shows its own problems (the browser's check and the server's)
// right under it. The form holds no state of its own but the texts being typed: the value is the caller's.
import { useState } from 'preact/hooks'
import { lang, t, tv } from './i18n'
import { BadJson, defaultFor, isOpaque, type SchemaNode } from './schema-validate'
import './schema-form.css'

/** Problems by dotted path, already in the page language. */
export type Problems = ReadonlyMap<string, string[]>

interface Ctx {
  problems: Problems
  /** the value at `path` changed (clears the server's word about it) */
  edited: (path: string) => void
  testid: string
}

type Change = (v: unknown) => void
/** The attributes every control of a field carries. */
interface Extra { 'data-testid': string, name?: string, 'aria-invalid'?: 'true', 'aria-describedby'?: string }

/** The title of a schema node in the page language (the key when the schema has none). */
export function titleOf (node: SchemaNode, fallback: string): string {
  return (lang.get() === 'zh' ? node['x-title-zh'] : node.title) ?? node.title ?? fallback
}
/** The description of a schema node in the page language ('' when it has none). */
export function helpOf (node: SchemaNode): string {
  return (lang.get() === 'zh' ? node['x-description-zh'] : node.description) ?? ''
}

/** A translation, or '' when the dictionary has none. */
function tr (key: string): string { const s = t(key); return s === key ? '' : s }
/** An enum value's name: the settings pages' `bv.<path>.<value>`, the shared `v_<value>`, else the value. */
function valueLabel (path: string, v: unknown): string {
  const s = String(v)
  // the global setting's names serve a group's override too (groups.<id>.delivery.markdown: delivery.markdown)
  const segs = path.split('.').filter(k => !/^\d+$/.test(k))
  for (let i = 0; i < segs.length; i++) { const l = tr(`bv.${segs.slice(i).join('.')}.${s}`); if (l) return l }
  return tr(`v_${s}`) || tr(`sf.v.${s}`) || s
}

const idOf = (testid: string, path: string): string => `${testid}-${path.replace(/[^\w-]+/g, '_')}`
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof BadJson)
const join = (path: string, k: string | number): string => path ? `${path}.${k}` : String(k)

/** A number's range in words ('' when the schema gives none). */
export function rangeHint (node: SchemaNode): string {
  const { minimum: lo, maximum: hi } = node
  if (lo !== undefined && hi !== undefined) return tv('sf.range', { lo, hi })
  if (lo !== undefined) return tv('sf.atLeast', { n: lo })
  if (hi !== undefined) return tv('sf.atMost', { n: hi })
  return ''
}

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

function FieldShell ({ id, label, help, messages, children, wide, testid }: {
  id: string, label: string, help: string, messages: string[], children: preact.ComponentChildren, wide?: boolean, testid: string
}) {
  return <div class={`field sf-field${messages.length ? ' invalid' : ''}${wide ? ' sf-wide' : ''}`} data-testid={`${testid}-field`}>
    <label for={id}>{label}</label>
    {children}
    {help && <small class="help" id={`${id}-help`}>{help}</small>}
    {messages.length > 0 && <small class="sf-error" id={`${id}-err`} data-testid={`${testid}-error`}>{messages.join(' ')}</small>}
  </div>
}

function describedBy (id: string, help: string, messages: string[]): string | undefined {
  const ids = [help ? `${id}-help` : '', messages.length ? `${id}-err` : ''].filter(Boolean)
  return ids.length ? ids.join(' ') : undefined
}

/** A number typed as text: the text is kept while typing, the value is a number, '' (empty) or the text. */
function NumberInput ({ node, value, onChange, id, optional, extra }: { node: SchemaNode, value: unknown, onChange: Change, id: string, optional: boolean, extra: Extra }) {
  const [text, setText] = useState(typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '')
  return <input {...extra} id={id} type="number" step={node.type === 'integer' ? 1 : 'any'} min={node.minimum} max={node.maximum}
    inputMode={node.type === 'integer' ? 'numeric' : 'decimal'} value={text} onInput={e => {
      const el = e.target as HTMLInputElement
      const raw = el.value
      setText(raw)
      if (raw.trim() === '') onChange(el.validity.badInput ? 'NaN' : optional ? undefined : '')
      else onChange(Number.isFinite(Number(raw)) ? Number(raw) : raw)
    }} />
}

/** A list of plain values, one a line. */
function LinesInput ({ value, onChange, id, numeric, extra }: { value: unknown, onChange: Change, id: string, numeric: boolean, extra: Extra }) {
  const [text, setText] = useState(Array.isArray(value) ? value.join('\n') : '')
  return <textarea {...extra} id={id} rows={Math.min(8, Math.max(3, (Array.isArray(value) ? value.length : 0) + 1))} value={text} onInput={e => {
    const raw = (e.target as HTMLTextAreaElement).value
    setText(raw)
    const lines = raw.split('\n').map(s => s.trim()).filter(Boolean)
    onChange(numeric ? lines.map(s => Number.isFinite(Number(s)) ? Number(s) : s) : lines)
  }} />
}

/** Any JSON value as text. */
function JsonInput ({ value, onChange, id, extra }: { value: unknown, onChange: Change, id: string, extra: Extra }) {
  const [text, setText] = useState(value instanceof BadJson ? value.text : JSON.stringify(value ?? null, null, 2))
  return <textarea {...extra} id={id} rows={6} spellcheck={false} value={text} onInput={e => {
    const raw = (e.target as HTMLTextAreaElement).value
    setText(raw)
    try { onChange(JSON.parse(raw)) } catch { onChange(new BadJson(raw)) }
  }} />
}

/** One field of any kind. `optional`: the key may be absent (an emptied number removes it). */
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
    const extra: Extra = { 'data-testid': tid, 'aria-invalid': messages.length ? 'true' : undefined, 'aria-describedby': describedBy(id, help || 'json', messages) }
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
    const options = node.enum.includes(value) ? node.enum : [value, ...node.enum]
    control = <select {...extra} id={id} value={String(value)} onChange={e => set(node.enum!.find(v => String(v) === (e.target as HTMLSelectElement).value) ?? (e.target as HTMLSelectElement).value)}>
      {options.map(v => <option key={String(v)} value={String(v)}>{valueLabel(path, v)}</option>)}
    </select>
  } else if (node.type === 'integer' || node.type === 'number') {
    control = <NumberInput id={id} node={node} value={value} optional={optional} onChange={set} extra={extra} />
    hint = rangeHint(node)
  } else {
    const secret = node['x-secret'] === true
    const url = node.format === 'uri' || node.anyOf?.some(a => a.format === 'uri')
    const long = (node.maxLength ?? 0) >= 500
    const text = typeof value === 'string' ? value : value === undefined ? '' : String(value)
    control = long && !secret
      ? <textarea {...extra} id={id} rows={3} value={text} onInput={e => set((e.target as HTMLTextAreaElement).value)} />
      : secret
        ? <input {...extra} id={id} type="password" autoComplete="off" value={text} onInput={e => set((e.target as HTMLInputElement).value)} />
        : <input {...extra} id={id} type="text" inputMode={url ? 'url' : 'text'} autoComplete="off" value={text} onInput={e => set((e.target as HTMLInputElement).value)} />
    if (secret) hint = t('sf.secretHint')
  }
  const fullHelp = [help, hint].filter(Boolean).join(' · ')
  return <FieldShell id={id} label={label} help={fullHelp} messages={messages} wide={plainList} testid={tid}>{control}</FieldShell>
}

/** The fields of an object node, in the schema's order. */
function ObjectFields ({ node, value, onChange, path, ctx }: { node: SchemaNode, value: unknown, onChange: Change, path: string, ctx: Ctx }) {
  const obj = isObj(value) ? value : {}
  const required = new Set(node.required ?? [])
  const entries = Object.entries(node.properties ?? {})
  const put = (k: string, v: unknown): void => {
    const next = { ...obj }
    if (v === undefined) delete next[k]; else next[k] = v
    onChange(next)
  }
  return <div class="form sf-form">
    {entries.map(([k, child]) => <Field key={k} node={child} name={k} path={join(path, k)} value={obj[k]} optional={!required.has(k) && child.default === undefined}
      onChange={v => put(k, v)} ctx={ctx} />)}
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
  const keyRule = node.propertyNames?.pattern
  const typed = key.trim()
  const keyProblem = !typed ? '' : typed in obj ? tv('sf.keyTaken', { key: typed }) : keyRule && !new RegExp(keyRule, 'u').test(typed) ? tv('sv.recordKey', { key: typed }) : ''
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

/** A whole section: an object's fields, or one field for a plain setting (language, debug...). */
export function SchemaForm ({ node, name, value, onChange, problems, edited, testid }: {
  node: SchemaNode, name: string, value: unknown, onChange: Change, problems: Problems, edited: (path: string) => void, testid: string
}) {
  const ctx: Ctx = { problems, edited, testid }
  if (node.type === 'object' && node.properties) return <ObjectFields node={node} value={value} onChange={onChange} path={name} ctx={ctx} />
  return <div class="form sf-form"><Field node={node} name={name} path={name} value={value} onChange={onChange} ctx={ctx} optional={false} /></div>
}
