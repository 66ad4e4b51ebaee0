// The knowledge page's bases card: the bases (pick one: the page's uploads, documents and new
// documents are that base's), make one, rename it, bind presets to it, delete it (with its documents,
// after asking).
import { useState } from 'preact/hooks'
import { api, errText } from '../api'
import type { KnowledgeBaseView, PresetList } from '../contracts'
import { Act, Card, ErrorBox, View, confirmDanger, toast, useLoad, type Loaded } from '../ui'
import { kt, ktv } from './knowledge-words'

const val = (e: Event): string => (e.target as HTMLInputElement).value

function NewBase ({ onMade }: { onMade: (id: string) => void }) {
  const [f, setF] = useState({ name: '', description: '', id: '' })
  const [error, setError] = useState<string | null>(null)
  const create = async (): Promise<void> => {
    setError(null)
    try {
      const made = await api<KnowledgeBaseView>('/api/knowledge/bases', { json: { name: f.name, description: f.description, ...(f.id.trim() ? { id: f.id.trim() } : {}) } })
      setF({ name: '', description: '', id: '' })
      onMade(made.id)
    } catch (e) { setError(errText(e)) }
  }
  return <div class="kb-newbase">
    <div class="form">
      <label>{kt('kb.baseName')}<input data-testid="kb-base-name" value={f.name} onInput={e => setF({ ...f, name: val(e) })} /></label>
      <label>{kt('kb.baseDesc')}<input data-testid="kb-base-desc" value={f.description} onInput={e => setF({ ...f, description: val(e) })} /></label>
      <label>{kt('kb.baseId')}<input data-testid="kb-base-id" value={f.id} onInput={e => setF({ ...f, id: val(e) })} /></label>
    </div>
    {error && <ErrorBox error={error} />}
    <Act kind="primary" testid="kb-base-create" run={create}>{kt('kb.create')}</Act>
  </div>
}

/** The chosen base's own settings: its name, description and bound presets. */
function BaseEditor ({ base, onChanged, onRemoved }: { base: KnowledgeBaseView, onChanged: () => void, onRemoved: () => void }) {
  const [f, setF] = useState({ name: base.name, description: base.description, presetIds: base.presetIds })
  const presets = useLoad<PresetList>('/api/presets?type=all')
  const ids = [...new Set([...(presets.data?.presets ?? []).map(p => p.id), ...f.presetIds])]
  const toggle = (id: string): void => setF({ ...f, presetIds: f.presetIds.includes(id) ? f.presetIds.filter(x => x !== id) : [...f.presetIds, id] })
  const save = async (): Promise<void> => {
    await api(`/api/knowledge/bases/${encodeURIComponent(base.id)}`, { method: 'PUT', json: f })
    toast(kt('saved')); onChanged()
  }
  const remove = async (): Promise<void> => {
    const ask = base.documents > 0 ? ktv('kb.delBaseDocs', { name: base.name, n: base.documents }) : ktv('kb.delBase', { name: base.name })
    if (!await confirmDanger(ask)) return
    await api(`/api/knowledge/bases/${encodeURIComponent(base.id)}${base.documents > 0 ? '?withDocuments=true' : ''}`, { method: 'DELETE' })
    onRemoved()
  }
  return <div class="kb-baseedit">
    <div class="form">
      <label>{kt('kb.baseName')}<input data-testid="kb-base-rename-input" value={f.name} onInput={e => setF({ ...f, name: val(e) })} /></label>
      <label>{kt('kb.baseDesc')}<input data-testid="kb-base-desc-input" value={f.description} onInput={e => setF({ ...f, description: val(e) })} /></label>
    </div>
    <fieldset class="kb-presets"><legend>{kt('kb.basePresets')}</legend>
      <p class="muted">{kt('kb.basePresetsHint')}</p>
      <div class="row">{ids.map(id => <label key={id} class="kb-check"><input type="checkbox" checked={f.presetIds.includes(id)} onChange={() => toggle(id)} />{id}</label>)}</div>
    </fieldset>
    <div class="row">
      <Act kind="primary" testid="kb-base-save" run={save}>{kt('save')}</Act>
      {base.id !== 'default' && <Act kind="danger" testid="kb-base-delete" run={remove}>{kt('delete')}</Act>}
    </div>
  </div>
}

export function BasesCard ({ bases, selected, onSelect }: { bases: Loaded<KnowledgeBaseView[]>, selected: string, onSelect: (id: string) => void }) {
  const [making, setMaking] = useState(false)
  const current = bases.data?.find(b => b.id === selected)
  return <Card title={kt('kb.bases')} testid="kb-bases" extra={<button data-testid="kb-base-new" aria-expanded={making} onClick={() => setMaking(!making)}>{kt('kb.newBase')}</button>}>
    {making && <NewBase onMade={id => { setMaking(false); bases.reload(); onSelect(id) }} />}
    <View load={bases}>{list => <ul class="kb-baselist">
      {list.map(b => <li key={b.id}>
        <button class={b.id === selected ? 'kb-base on' : 'kb-base'} aria-pressed={b.id === selected} data-testid={`kb-base-${b.id}`} onClick={() => onSelect(b.id)}>
          <b>{b.name}</b> <span class="muted">{ktv('kb.docsCount', { n: b.documents })}</span>
          {b.description && <small class="muted">{b.description}</small>}
        </button>
      </li>)}
    </ul>}</View>
    {current && <BaseEditor key={`${current.id}:${current.updatedAt}`} base={current} onChanged={bases.reload} onRemoved={() => { bases.reload(); onSelect('default') }} />}
  </Card>
}
