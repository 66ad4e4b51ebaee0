// The knowledge page's documents: the chosen base's list (a page at a time), the editor of a pasted
// document, and a document's passages (GET /api/knowledge/:id/passages) as the search cuts them.
import { useState } from 'preact/hooks'
import { api, errText } from '../api'
import { t, tv } from '../i18n'
import { Pager, type PageLoad } from '../paging'
import type { KnowledgeDoc, KnowledgeListItem, PassageView, PresetList } from '../contracts'
import { Act, Card, EmptyState, ErrorBox, Table, View, confirmDanger, toast, useLoad } from '../ui'
import { kt, ktv } from './knowledge-words'

export function Editor ({ doc, baseId, onDone }: { doc: KnowledgeDoc | null, baseId: string, onDone: () => void }) {
  const [f, setF] = useState({ title: doc?.title ?? '', content: doc?.content ?? '', presetId: doc?.presetId ?? '' })
  const [error, setError] = useState<string | null>(null)
  // documents bound to a preset are put into that preset's prompts
  const presets = useLoad<PresetList>('/api/presets?type=all')
  const presetIds: string[] = (presets.data?.presets ?? []).map(p => p.id)
  const save = async (): Promise<void> => {
    setError(null)
    try {
      if (doc) await api(`/api/knowledge/${encodeURIComponent(doc.id)}`, { method: 'PUT', json: f })
      else await api('/api/knowledge', { json: { ...f, baseId } })
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

/** Where a passage is: its heading path and page. */
export function whereOf (p: { heading?: string, page?: number }): string {
  return [p.heading ?? '', p.page !== undefined ? ktv('kb.page', { n: p.page }) : ''].filter(Boolean).join(' · ')
}

export function Passages ({ doc, onClose }: { doc: { id: string, title: string }, onClose: () => void }) {
  const list = useLoad<PassageView[]>(`/api/knowledge/${encodeURIComponent(doc.id)}/passages`)
  return <Card title={ktv('kb.passagesOf', { title: doc.title })} testid="kb-passages" extra={<button aria-label={t('kb.close')} data-testid="kb-passages-close" onClick={onClose}>×</button>}>
    <View load={list} empty={<p class="muted">{kt('kb.noPassages')}</p>}>{items => <ol class="kb-passages" data-testid="kb-passage-list">
      {items.map(p => <li key={p.index} data-testid={`kb-passage-${p.index}`}>
        <div class="muted kb-where">#{p.index + 1}{whereOf(p) && ` · ${whereOf(p)}`}</div>
        <div class="kb-text">{p.text}</div>
      </li>)}
    </ol>}</View>
  </Card>
}

const statusWord = (s: string): string => kt(`kb.st.${s}`)

export function DocsCard ({ list, onAdd, onEdit, onPassages }: { list: PageLoad<KnowledgeListItem>, onAdd: () => void, onEdit: (d: KnowledgeDoc) => void, onPassages: (d: KnowledgeListItem) => void }) {
  return <Card title={kt('kb.docs')} testid="kb-docs" extra={<button class="primary" data-testid="kb-add" onClick={onAdd}>{t('add')}</button>}>
    <View load={list} isEmpty={d => d.items.length === 0} empty={<EmptyState text={t('es.knowledge')} action={<button class="primary" data-testid="kb-empty-add" onClick={onAdd}>{t('kb.addFirst')}</button>} />}>{d => <Table cols={[t('titleField'), kt('kb.status'), t('content'), t('preset'), '']}
      rows={d.items.map((doc: KnowledgeListItem) => [<b>{doc.title}</b>,
        <span class={doc.status === 'failed' ? 'bad' : doc.status === 'ready' ? '' : 'muted'} title={doc.error}>{statusWord(doc.status)}{doc.status === 'ready' ? ` · ${doc.chunks}` : ''}</span>,
        <span class="muted">{doc.status === 'failed' ? doc.error : String(doc.content ?? '').slice(0, 120)}</span>, doc.presetId,
        <div class="row">
          <button data-testid={`kb-passages-${doc.title}`} disabled={doc.status !== 'ready'} onClick={() => onPassages(doc)}>{kt('kb.passages')}</button>
          <Act testid={`kb-edit-${doc.title}`} run={async () => onEdit(await api<KnowledgeDoc>(`/api/knowledge/${encodeURIComponent(doc.id)}`))}>{t('edit')}</Act>
          <Act kind="danger" testid={`kb-delete-${doc.title}`} run={async () => { if (await confirmDanger(tv('cf.delDoc', { name: doc.title }))) { await api(`/api/knowledge/${encodeURIComponent(doc.id)}`, { method: 'DELETE' }); list.reload() } }}>{t('delete')}</Act>
        </div>])} />}</View>
    <Pager page={list} testid="kb-pager" />
  </Card>
}
