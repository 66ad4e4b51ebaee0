// Edits a flat-ish object: booleans as checkboxes, numbers and strings as inputs (a select where the
// allowed values are given), the rest as JSON text. Labels come from i18n `f_<key>`, else the key.
import { useState } from 'preact/hooks'
import { errText } from './api'
import { t } from './i18n'
import { ErrorBox, toast } from './ui'

/** The translation of `<ns>_<k>` when the dictionary has one, else k itself (f_: field labels, v_: values). */
function label (k: string, ns: 'f' | 'v' = 'f'): string {
  const key = `${ns}_${k}`
  const l = t(key)
  return l === key ? k : l
}

export function ObjectForm ({ value, onSave, testid, readOnlyKeys = [], choices = {}, labels = {} }: {
  value: Record<string, any>, onSave: (v: Record<string, any>) => Promise<unknown>, testid?: string, readOnlyKeys?: string[],
  /** allowed values of string fields, shown as a select */
  choices?: Record<string, readonly string[]>
  /** labels of this form's fields where the shared `f_<key>` one does not fit */
  labels?: Record<string, string>
}) {
  const [draft, setDraft] = useState<Record<string, string | boolean>>(() => Object.fromEntries(Object.entries(value).map(([k, v]) =>
    [k, typeof v === 'boolean' ? v : typeof v === 'object' && v !== null ? JSON.stringify(v, null, 2) : String(v ?? '')])))
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const save = async (): Promise<void> => {
    setError(null); setBusy(true)
    try {
      const out: Record<string, any> = {}
      for (const [k, orig] of Object.entries(value)) {
        if (readOnlyKeys.includes(k)) continue
        const d = draft[k]
        if (typeof orig === 'boolean') out[k] = d
        else if (typeof orig === 'number') {
          // an emptied number is refused, never sent as 0 (Number('') is 0)
          const n = String(d).trim() === '' ? NaN : Number(d)
          if (!Number.isFinite(n)) throw new Error(`${label(k)}${t('bs.colon')}${t(String(d).trim() === '' ? 'er.f.emptyNumber' : 'bs.notNumber')}`)
          out[k] = n
        }
        else if (typeof orig === 'object' && orig !== null) { try { out[k] = JSON.parse(String(d)) } catch { throw new Error(`${label(k)}${t('bs.colon')}${t('er.badJson')}`) } }
        else out[k] = d
      }
      await onSave(out); toast(t('saved'))
    } catch (e) { setError(errText(e)) } finally { setBusy(false) }
  }
  return <div data-testid={testid}>
    <div class="form">{Object.entries(value).map(([k, orig]) => {
      const d = draft[k]
      const on = (e: Event): void => { const el = e.target as HTMLInputElement; setDraft({ ...draft, [k]: el.type === 'checkbox' ? el.checked : el.value }) }
      const name = <span>{labels[k] ?? label(k)}</span>
      const allowed = choices[k]
      if (allowed && typeof orig === 'string') {
        return <label key={k}>{name}<select name={k} value={d as string} onChange={on} disabled={readOnlyKeys.includes(k)}>
          {(allowed.includes(orig) ? allowed : [orig, ...allowed]).map(c => <option key={c} value={c}>{label(c, 'v')}</option>)}</select></label>
      }
      if (typeof orig === 'boolean') return <label key={k}>{name}<input name={k} type="checkbox" checked={d as boolean} onChange={on} disabled={readOnlyKeys.includes(k)} /></label>
      if (typeof orig === 'object' && orig !== null) return <label key={k} style={{ gridColumn: '1 / -1' }}>{name}<textarea name={k} value={d as string} onInput={on} rows={4} /></label>
      if (typeof orig === 'number') return <label key={k}>{name}<input name={k} type="number" step="any" value={d as string} onInput={on} disabled={readOnlyKeys.includes(k)} /></label>
      return <label key={k}>{name}<input name={k} type="text" value={d as string} onInput={on} disabled={readOnlyKeys.includes(k)} /></label>
    })}</div>
    {error && <ErrorBox error={error} />}
    <button class="primary" disabled={busy} aria-busy={busy || undefined} data-testid={testid ? `${testid}-save` : undefined} onClick={save}>{t('save')}</button>
  </div>
}
