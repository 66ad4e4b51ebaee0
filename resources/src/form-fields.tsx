// The controls of form-engine.tsx that keep what is typed while it is not a value yet: a field's frame
// (label, control, help, its problems), a number typed as text, a list one a line, any JSON value as text.
import { useState } from 'preact/hooks'
import { BadJson, type SchemaNode } from './form-rules'

export type Change = (v: unknown) => void
/** The attributes every control of a field carries. */
export interface Extra { 'data-testid': string, name?: string, 'aria-invalid'?: 'true', 'aria-describedby'?: string }

export function describedBy (id: string, help: string, messages: string[]): string | undefined {
  const ids = [help ? `${id}-help` : '', messages.length ? `${id}-err` : ''].filter(Boolean)
  return ids.length ? ids.join(' ') : undefined
}

export function FieldShell ({ id, label, help, messages, children, wide, testid }: {
  id: string, label: string, help: string, messages: string[], children: preact.ComponentChildren, wide?: boolean, testid: string
}) {
  return <div class={`field sf-field${messages.length ? ' invalid' : ''}${wide ? ' sf-wide' : ''}`} data-testid={`${testid}-field`}>
    <label for={id}>{label}</label>
    {children}
    {help && <small class="help" id={`${id}-help`}>{help}</small>}
    {messages.length > 0 && <small class="sf-error" id={`${id}-err`} data-testid={`${testid}-error`}>{messages.join(' ')}</small>}
  </div>
}

/** A number typed as text: the text is kept while typing, the value is a number, '' (empty) or the text. */
export function NumberInput ({ node, value, onChange, id, optional, extra }: { node: SchemaNode, value: unknown, onChange: Change, id: string, optional: boolean, extra: Extra }) {
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
export function LinesInput ({ value, onChange, id, numeric, extra }: { value: unknown, onChange: Change, id: string, numeric: boolean, extra: Extra }) {
  const [text, setText] = useState(Array.isArray(value) ? value.join('\n') : '')
  return <textarea {...extra} id={id} rows={Math.min(8, Math.max(3, (Array.isArray(value) ? value.length : 0) + 1))} value={text} onInput={e => {
    const raw = (e.target as HTMLTextAreaElement).value
    setText(raw)
    const lines = raw.split('\n').map(s => s.trim()).filter(Boolean)
    onChange(numeric ? lines.map(s => Number.isFinite(Number(s)) ? Number(s) : s) : lines)
  }} />
}

/** Any JSON value as text. */
export function JsonInput ({ value, onChange, id, extra }: { value: unknown, onChange: Change, id: string, extra: Extra }) {
  const [text, setText] = useState(value instanceof BadJson ? value.text : JSON.stringify(value ?? null, null, 2))
  return <textarea {...extra} id={id} rows={6} spellcheck={false} value={text} onInput={e => {
    const raw = (e.target as HTMLTextAreaElement).value
    setText(raw)
    try { onChange(JSON.parse(raw)) } catch { onChange(new BadJson(raw)) }
  }} />
}
