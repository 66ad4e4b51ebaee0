import { useState } from 'preact/hooks'
import { api, BASE, errText, session } from '../api'
import { t } from '../i18n'
import type { PresetList, PresetView } from '../contracts'
import { Act, Card, ErrorBox, Table, View, fmt, toast, useLoad } from '../ui'

const TEMPLATE = { id: 'my-preset', name: 'My preset', description: '', systemPrompt: 'You are a helpful assistant.', temperature: 0.7, maxTokens: 2048, voice: { enabled: false, voiceId: '', speed: 1 } }

function Editor ({ id, onDone }: { id: string | null, onDone: () => void }) {
  const load = useLoad<PresetView>(id ? `/api/presets/${encodeURIComponent(id)}` : null)
  const [text, setText] = useState<string | null>(id ? null : fmt(TEMPLATE))
  const [error, setError] = useState<string | null>(null)
  const value = text ?? (load.data ? fmt(load.data) : '')
  const save = async (): Promise<void> => {
    setError(null)
    try {
      const body = JSON.parse(value)
      if (id) await api(`/api/presets/${encodeURIComponent(id)}`, { method: 'PUT', json: body })
      else await api('/api/presets', { json: body })
      toast(t('saved')); onDone()
    } catch (e) { setError(errText(e)) }
  }
  return <Card title={id ? `${t('edit')} ${id}` : t('add')} extra={<button onClick={onDone}>×</button>}>
    {id && load.loading ? <p class="muted">{t('loading')}</p> : <textarea data-testid="preset-json" rows={18} value={value} onInput={e => setText((e.target as HTMLTextAreaElement).value)} />}
    {load.error && <ErrorBox error={load.error} />}
    {error && <ErrorBox error={error} />}
    <button class="primary" data-testid="preset-save" onClick={save}>{t('save')}</button>
  </Card>
}

export default function Presets () {
  const [search, setSearch] = useState('')
  const list = useLoad<PresetList>(`/api/presets?type=all&search=${encodeURIComponent(search)}`)
  const [editing, setEditing] = useState<string | null | undefined>(undefined)
  const [file, setFile] = useState<File | null>(null)
  const done = (): void => { setEditing(undefined); list.reload() }
  const download = async (id: string): Promise<void> => {
    const res = await fetch(`${BASE}/api/presets/${encodeURIComponent(id)}/export`, { headers: { Authorization: `Bearer ${session.token() ?? ''}` } })
    if (!res.ok) throw new Error((await res.json().catch(() => ({}))).message ?? `HTTP ${res.status}`)
    const a = document.createElement('a'); a.href = URL.createObjectURL(await res.blob()); a.download = `${id}.yaml`; a.click()
  }
  const importFile = async (): Promise<void> => {
    if (!file) return
    const fd = new FormData(); fd.append('file', file); fd.append('overwrite', 'true')
    await api('/api/presets/import', { body: fd }); list.reload()
  }
  return <div>
    {editing !== undefined && <Editor key={editing ?? 'new'} id={editing} onDone={done} />}
    <Card title={t('presets')} extra={<>
      <input placeholder={t('search')} value={search} onInput={e => setSearch((e.target as HTMLInputElement).value)} />
      <button class="primary" data-testid="preset-add" onClick={() => setEditing(null)}>{t('add')}</button>
      <input type="file" data-testid="preset-file" accept=".yaml,.yml" onChange={e => setFile((e.target as HTMLInputElement).files?.[0] ?? null)} />
      <Act testid="preset-import" run={importFile} done={t('saved')}>{t('import')}</Act></>}>
      <View load={list} isEmpty={d => d.presets.length === 0}>{d => <Table cols={['id', t('name'), t('type'), t('default'), t('actions')]}
        rows={d.presets.map(p => [<code>{p.id}</code>, p.name, p.type, p.isDefault ? '★' : '',
          <div class="row">
            <button onClick={() => setEditing(p.id)}>{t('edit')}</button>
            <Act testid={`preset-default-${p.id}`} run={async () => { await api(`/api/presets/${encodeURIComponent(p.id)}/set-default`, { method: 'POST' }); list.reload() }}>{t('setDefault')}</Act>
            <Act testid={`preset-copy-${p.id}`} run={async () => { const newId = prompt(t('newId'), `${p.id}-copy`); if (newId) { await api(`/api/presets/${encodeURIComponent(p.id)}/copy`, { json: { newId, newName: `${p.name} copy` } }); list.reload() } }}>{t('copy')}</Act>
            <Act testid={`preset-export-${p.id}`} run={() => download(p.id)}>{t('export')}</Act>
            <Act kind="danger" run={async () => { if (confirm(t('confirmDelete'))) { await api(`/api/presets/${encodeURIComponent(p.id)}`, { method: 'DELETE' }); list.reload() } }}>{t('delete')}</Act>
          </div>])} />}</View>
    </Card>
  </div>
}
