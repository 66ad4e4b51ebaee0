import type { ComponentChildren } from 'preact'
import { useState } from 'preact/hooks'
import { api, errText } from '../api'
import { t, tv } from '../i18n'
import { Pager, usePage } from '../paging'
import type { KnowledgeDoc, KnowledgeHit, KnowledgeListItem, PresetList } from '../contracts'
import { Act, Card, EmptyState, ErrorBox, Table, View, confirmDanger, toast, useLoad } from '../ui'

/** Wraps every occurrence of the query's words in <mark>. */
export function highlight (text: string, query: string): ComponentChildren {
  const words = query.split(/\s+/).filter(Boolean).map(w => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  if (!words.length) return text
  const re = new RegExp(`(${words.join('|')})`, 'gi')
  return text.split(re).map((part, i) => i % 2 === 1 ? <mark key={i}>{part}</mark> : part)
}

function Editor ({ doc, onDone }: { doc: KnowledgeDoc | null, onDone: () => void }) {
  const [f, setF] = useState({ title: doc?.title ?? '', content: doc?.content ?? '', presetId: doc?.presetId ?? '' })
  const [error, setError] = useState<string | null>(null)
  // documents bound to a preset are put into that preset's prompts
  const presets = useLoad<PresetList>('/api/presets?type=all')
  const presetIds: string[] = (presets.data?.presets ?? []).map(p => p.id)
  const save = async (): Promise<void> => {
    setError(null)
    try {
      if (doc) await api(`/api/knowledge/${encodeURIComponent(doc.id)}`, { method: 'PUT', json: f })
      else await api('/api/knowledge', { json: f })
      toast(t('saved')); onDone()
    } catch (e) { setError(errText(e)) }
  }
  return <Card title={doc ? t('edit') : t('add')} extra={<button aria-label={t('kb.close')} onClick={onDone}>×</button>}>
    <div class="form"><label>{t('titleField')}<input data-testid="kb-title" value={f.title} onInput={e => setF({ ...f, title: (e.target as HTMLInputElement).value })} /></label>
      <label>{t('preset')}<select data-testid="kb-preset" value={f.presetId} onChange={e => setF({ ...f, presetId: (e.target as HTMLSelectElement).value })}>
        <option value="">—</option>
        {presetIds.map(id => <option key={id} value={id}>{id}</option>)}
        {f.presetId && !presetIds.includes(f.presetId) && <option value={f.presetId}>{f.presetId}</option>}
      </select></label></div>
    <textarea data-testid="kb-content" aria-label={t('content')} rows={10} value={f.content} onInput={e => setF({ ...f, content: (e.target as HTMLTextAreaElement).value })} />
    {error && <ErrorBox error={error} />}
    <Act kind="primary" testid="kb-save" run={save}>{t('save')}</Act>
  </Card>
}

export default function Knowledge () {
  const list = usePage<KnowledgeListItem>('/api/knowledge')
  const [editing, setEditing] = useState<KnowledgeDoc | null | undefined>(undefined)
  const [q, setQ] = useState('')
  const [hits, setHits] = useState<{ q: string, items: KnowledgeHit[] } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const search = async (): Promise<void> => {
    setError(null)
    try { setHits({ q, items: await api<KnowledgeHit[]>(`/api/knowledge/search?query=${encodeURIComponent(q)}&limit=10`) }) } catch (e) { setError(errText(e)) }
  }
  return <div>
    <Card title={t('search')}>
      <div class="row"><input data-testid="kb-query" type="search" aria-label={t('kb.query')} value={q} onInput={e => setQ((e.target as HTMLInputElement).value)} onKeyDown={e => { if (e.key === 'Enter') void search() }} />
        <Act testid="kb-search" run={search}>{t('search')}</Act></div>
      {error && <ErrorBox error={error} />}
      {hits && (hits.items.length === 0 ? <p class="muted" data-testid="kb-no-hits">{tv('kb.noHits', { q: hits.q })}</p> : <div data-testid="kb-hits">{hits.items.map((h, i) => <div key={i} class="stat">
        <b>{highlight(h.title, hits.q)}</b> <span class="muted">{h.score.toFixed(2)}</span>
        <div>{highlight(h.snippet.slice(0, 400), hits.q)}</div></div>)}</div>)}
    </Card>
    {editing !== undefined && <Editor key={editing?.id ?? 'new'} doc={editing} onDone={() => { setEditing(undefined); list.reload() }} />}
    <Card title={t('knowledge')} extra={<button class="primary" data-testid="kb-add" onClick={() => setEditing(null)}>{t('add')}</button>}>
      <View load={list} isEmpty={d => d.items.length === 0} empty={<EmptyState text={t('es.knowledge')} action={<button class="primary" data-testid="kb-empty-add" onClick={() => setEditing(null)}>{t('kb.addFirst')}</button>} />}>{d => <Table cols={[t('titleField'), t('content'), t('preset'), '']}
        rows={d.items.map((doc: KnowledgeListItem) => [<b>{doc.title}</b>, <span class="muted">{String(doc.content ?? '').slice(0, 120)}</span>, doc.presetId,
          <div class="row">
            <Act testid={`kb-edit-${doc.title}`} run={async () => setEditing(await api<KnowledgeDoc>(`/api/knowledge/${encodeURIComponent(doc.id)}`))}>{t('edit')}</Act>
            <Act kind="danger" testid={`kb-delete-${doc.title}`} run={async () => { if (await confirmDanger(tv('cf.delDoc', { name: doc.title }))) { await api(`/api/knowledge/${encodeURIComponent(doc.id)}`, { method: 'DELETE' }); list.reload() } }}>{t('delete')}</Act>
          </div>])} />}</View>
      <Pager page={list} testid="kb-pager" />
    </Card>
  </div>
}
