import { useState } from 'preact/hooks'
import { api } from '../api'
import { t } from '../i18n'
import { Pager, usePage } from '../paging'
import type { MemoryHit, MemoryRecord, UserEntry } from '../contracts'
import { Act, Card, Table, View } from '../ui'

const CATS = ['profile', 'preference', 'event', 'relation', 'topic', 'custom']

function UserMemories ({ userId }: { userId: string }) {
  const list = usePage<MemoryRecord>(`/api/memory/user/${encodeURIComponent(userId)}?format=list`)
  const [content, setContent] = useState('')
  const [category, setCategory] = useState('custom')
  const u = encodeURIComponent(userId)
  return <Card title={`${t('memory')}: ${userId}`} extra={<>
    <Act testid="memory-cleanup" run={async () => { await api(`/api/memory/user/${u}/cleanup`, { method: 'POST' }); list.reload() }} done={t('saved')}>{t('cleanup')}</Act>
    <Act testid="memory-summarize" run={async () => { await api(`/api/memory/user/${u}/summarize`, { json: { useLLM: true } }); list.reload() }} done={t('saved')}>{t('summarize')}</Act>
    <Act kind="danger" run={async () => { if (confirm(t('confirmDelete'))) { await api(`/api/memory/user/${u}`, { method: 'DELETE' }); list.reload() } }}>{t('clearAll')}</Act></>}>
    <div class="row">
      <input data-testid="memory-content" placeholder={t('content')} value={content} onInput={e => setContent((e.target as HTMLInputElement).value)} />
      <select value={category} onChange={e => setCategory((e.target as HTMLSelectElement).value)}>{CATS.map(c => <option key={c}>{c}</option>)}</select>
      <Act kind="primary" testid="memory-add" run={async () => { await api(`/api/memory/user/${u}`, { json: { content, category } }); setContent(''); list.reload() }}>{t('add')}</Act>
    </div>
    <View load={list} isEmpty={d => d.items.length === 0}>{d => <Table cols={['id', t('categories'), t('content'), t('confidence'), '']}
      rows={d.items.map((m: MemoryRecord) => [m.id, m.category, <EditCell m={m} onDone={list.reload} />, m.confidence,
        <Act kind="danger" run={async () => { await api(`/api/memory/${m.id}`, { method: 'DELETE' }); list.reload() }}>{t('delete')}</Act>])} />}</View>
    <Pager page={list} testid="memory-pager" />
  </Card>
}

function EditCell ({ m, onDone }: { m: MemoryRecord, onDone: () => void }) {
  const [v, setV] = useState<string | null>(null)
  if (v === null) return <div class="row"><span onDblClick={() => setV(m.content)}>{m.content}</span>
    <button data-testid={`memory-edit-${m.id}`} onClick={() => setV(m.content)}>{t('edit')}</button></div>
  return <div class="row"><input data-testid="memory-edit-input" value={v} onInput={e => setV((e.target as HTMLInputElement).value)} />
    <Act testid="memory-edit-save" run={async () => { await api(`/api/memory/${m.id}`, { method: 'PUT', json: { content: v } }); setV(null); onDone() }}>{t('save')}</Act>
    <button onClick={() => setV(null)}>{t('cancel')}</button></div>
}

export default function Memory () {
  const users = usePage<UserEntry>('/api/memory/users')
  const [user, setUser] = useState('')
  const [q, setQ] = useState('')
  const [hits, setHits] = useState<MemoryHit[] | null>(null)
  return <div>
    <Card title={t('search')}>
      <div class="row"><input data-testid="memory-query" placeholder={t('search')} value={q} onInput={e => setQ((e.target as HTMLInputElement).value)} />
        <Act testid="memory-search" run={async () => setHits(await api<MemoryHit[]>('/api/memory/search', { json: { query: q, ...(user ? { userId: user } : {}) } }))}>{t('search')}</Act></div>
      {hits && (hits.length === 0 ? <p class="muted">{t('empty')}</p>
        : <div data-testid="memory-hits"><Table cols={[t('userId'), t('categories'), t('content')]} rows={hits.map(h => [h.userId, h.category, h.content])} /></div>)}
    </Card>
    <Card title={t('userId')} extra={<input data-testid="memory-user" placeholder={t('userId')} value={user} onInput={e => setUser((e.target as HTMLInputElement).value)} />}>
      <View load={users}>{d => <div class="row">{d.items.map((u: UserEntry) => <button key={u.userId} onClick={() => setUser(u.userId)}>{u.userId} ({u.count})</button>)}</div>}</View>
      <Pager page={users} testid="memory-users-pager" />
    </Card>
    {user && <UserMemories key={user} userId={user} />}
  </div>
}
