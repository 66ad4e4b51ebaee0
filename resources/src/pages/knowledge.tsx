// The knowledge page: the bases (one is chosen: uploads, new documents and the list are its), uploads
// and URL imports with their progress, the documents and their passages, a retrieval test and the
// embedding panel. The parts live in knowledge-*.tsx; their texts in i18n-knowledge.ts.
import { useState } from 'preact/hooks'
import { usePage } from '../paging'
import type { KnowledgeBaseView, KnowledgeDoc, KnowledgeListItem } from '../contracts'
import { useLoad } from '../ui'
import { BasesCard } from './knowledge-bases'
import { DocsCard, Editor, Passages } from './knowledge-docs'
import { EmbeddingCard, RetrievalCard } from './knowledge-search'
import { UploadCard } from './knowledge-upload'
import './knowledge.css'

export { highlight } from './knowledge-search'

export default function Knowledge () {
  const bases = useLoad<KnowledgeBaseView[]>('/api/knowledge/bases')
  const [baseId, setBaseId] = useState('default')
  const list = usePage<KnowledgeListItem>(`/api/knowledge?baseId=${encodeURIComponent(baseId)}`)
  const [editing, setEditing] = useState<KnowledgeDoc | null | undefined>(undefined)
  const [passagesOf, setPassagesOf] = useState<{ id: string, title: string } | null>(null)
  const base = bases.data?.find(b => b.id === baseId)
  const changed = (): void => { list.reload(); bases.reload() }
  return <div class="kb-page">
    <BasesCard bases={bases} selected={baseId} onSelect={id => { setBaseId(id); setPassagesOf(null); setEditing(undefined) }} />
    <UploadCard baseId={baseId} baseName={base?.name ?? baseId} onChanged={changed} />
    {editing !== undefined && <Editor key={editing?.id ?? 'new'} doc={editing} baseId={baseId} onDone={() => { setEditing(undefined); changed() }} />}
    {passagesOf && <Passages key={passagesOf.id} doc={passagesOf} onClose={() => setPassagesOf(null)} />}
    <DocsCard list={list} onAdd={() => setEditing(null)} onEdit={setEditing} onPassages={d => setPassagesOf({ id: d.id, title: d.title })} />
    <RetrievalCard bases={bases.data ?? []} />
    <EmbeddingCard />
  </div>
}
