// Memory: statistics (GET /api/memory/stats: total, users, per category), search, the users with
// memories (paged), one user's memories (add, edit, clean up, summarize, delete after a confirmation
// naming the memory) and a group's memories (GET /api/memory/group/:groupId, paged). The review queue is
// memory-review.tsx, a user's timeline with provenance and history memory-timeline.tsx.
import { useEffect, useState } from 'preact/hooks'
import { api } from '../api'
import { BarList } from '../chart'
import { t, tv } from '../i18n'
import { Pager, usePage } from '../paging'
import type { MemoryHit, MemoryRecord, UserEntry } from '../contracts'
import { Act, Card, Table, View, confirmDanger, toast, useLoad } from '../ui'
import { ReviewQueue } from './memory-review'
import { Timeline } from './memory-timeline'
import { mt, saidOrGuessed } from './memory-words'
import './memory.css'

const CATS = ['profile', 'preference', 'event', 'relation', 'topic', 'custom']
const cat = (c: string): string => { const w = t(`cat.${c}`); return w === `cat.${c}` ? c : w }
/** A memory named in a confirmation: its content, cut short. */
const named = (m: MemoryRecord): string => m.content.length > 60 ? `${m.content.slice(0, 60)}…` : m.content

async function removeMemory (m: MemoryRecord, done: () => void): Promise<void> {
  if (!await confirmDanger(tv('me.confirmDelete', { name: named(m) }))) return
  await api(`/api/memory/${m.id}`, { method: 'DELETE' })
  toast(tv('cx.deleted', { name: named(m) }))
  done()
}

function Stats ({ version }: { version: number }) {
  const load = useLoad<{ total: number, users: number, byCategory: Record<string, number> }>('/api/memory/stats')
  const { reload } = load
  useEffect(() => { if (version > 0) reload() }, [version, reload])
  return <Card title={t('me.stats')} testid="memory-stats" extra={<button onClick={load.reload}>{t('refresh')}</button>}>
    <View load={load} isEmpty={() => false}>{s => <>
      <div class="grid">
        <div class="stat">{t('me.total')}<b data-testid="memory-stats-total">{s.total.toLocaleString()}</b></div>
        <div class="stat">{t('me.users')}<b data-testid="memory-stats-users">{s.users.toLocaleString()}</b></div>
      </div>
      <BarList title={t('me.byCategory')} testid="memory-stats-categories" rows={CATS.map(c => ({ label: cat(c), value: s.byCategory[c] ?? 0 }))} />
    </>}</View>
  </Card>
}

/** `version` changes when another part of the page changed memories; `onChange` says this part did. */
function UserMemories ({ userId, version, onChange }: { userId: string, version: number, onChange: () => void }) {
  const list = usePage<MemoryRecord>(`/api/memory/user/${encodeURIComponent(userId)}?format=list`)
  const { reload } = list
  useEffect(() => { if (version > 0) reload() }, [version, reload])
  const [content, setContent] = useState('')
  const [category, setCategory] = useState('custom')
  const u = encodeURIComponent(userId)
  return <Card title={`${t('memory')}: ${userId}`} testid="memory-user" extra={<>
    <Act testid="memory-cleanup" run={async () => { await api(`/api/memory/user/${u}/cleanup`, { method: 'POST' }); onChange() }} done={t('saved')}>{t('cleanup')}</Act>
    <Act testid="memory-summarize" run={async () => { await api(`/api/memory/user/${u}/summarize`, { json: { useLLM: true } }); onChange() }} done={t('saved')}>{t('summarize')}</Act>
    <Act kind="danger" testid="memory-clear-user" run={async () => {
      if (!await confirmDanger(tv('me.confirmClear', { name: userId }))) return
      await api(`/api/memory/user/${u}`, { method: 'DELETE' }); onChange()
    }}>{t('clearAll')}</Act></>}>
    <div class="row">
      <input data-testid="memory-content" aria-label={t('content')} placeholder={t('content')} value={content} onInput={e => setContent((e.target as HTMLInputElement).value)} />
      <select aria-label={t('me.category')} value={category} onChange={e => setCategory((e.target as HTMLSelectElement).value)}>{CATS.map(c => <option key={c} value={c}>{cat(c)}</option>)}</select>
      <Act kind="primary" testid="memory-add" run={async () => { await api(`/api/memory/user/${u}`, { json: { content, category } }); setContent(''); onChange() }}>{t('add')}</Act>
    </div>
    <View load={list} isEmpty={d => d.items.length === 0}>{d => <Table cols={['id', t('categories'), t('content'), t('confidence'), '']}
      rows={d.items.map((m: MemoryRecord) => [m.id, cat(m.category), <EditCell m={m} onDone={onChange} />, m.confidence,
        <Act kind="danger" testid={`memory-delete-${m.id}`} run={() => removeMemory(m, onChange)}>{t('delete')}</Act>])} />}</View>
    <Pager page={list} testid="memory-pager" />
  </Card>
}

function EditCell ({ m, onDone }: { m: MemoryRecord, onDone: () => void }) {
  const [v, setV] = useState<string | null>(null)
  if (v === null) return <div class="row"><span onDblClick={() => setV(m.content)}>{m.content}</span>
    <button data-testid={`memory-edit-${m.id}`} aria-label={`${t('edit')} #${m.id}`} onClick={() => setV(m.content)}>{t('edit')}</button></div>
  return <div class="row"><input data-testid="memory-edit-input" aria-label={`${t('content')} #${m.id}`} value={v} onInput={e => setV((e.target as HTMLInputElement).value)} />
    <Act testid="memory-edit-save" run={async () => { await api(`/api/memory/${m.id}`, { method: 'PUT', json: { content: v } }); setV(null); onDone() }}>{t('save')}</Act>
    <button onClick={() => setV(null)}>{t('cancel')}</button></div>
}

function GroupMemories () {
  const [input, setInput] = useState('')
  const [groupId, setGroupId] = useState('')
  const list = usePage<MemoryRecord>(groupId ? `/api/memory/group/${encodeURIComponent(groupId)}` : null)
  return <Card title={t('me.groupMemories')} testid="memory-group">
    <p class="muted">{t('me.groupHint')}</p>
    <form class="row" onSubmit={e => { e.preventDefault(); setGroupId(input.trim()) }}>
      <label class="row" for="memory-group-id">{t('me.groupId')}
        <input id="memory-group-id" data-testid="memory-group-id" value={input} onInput={e => setInput((e.target as HTMLInputElement).value)} /></label>
      <button type="submit" data-testid="memory-group-show" disabled={!input.trim()}>{t('me.show')}</button>
    </form>
    {groupId && <>
      <View load={list} isEmpty={d => d.items.length === 0}>{d => <Table cols={['id', t('userId'), t('categories'), t('content'), '']}
        rows={d.items.map((m: MemoryRecord) => [m.id, m.userId, cat(m.category), <span data-testid={`memory-group-row-${m.id}`}>{m.content}</span>,
          <Act kind="danger" testid={`memory-group-delete-${m.id}`} run={() => removeMemory(m, list.reload)}>{t('delete')}</Act>])} />}</View>
      <Pager page={list} testid="memory-group-pager" />
    </>}
  </Card>
}

export default function Memory () {
  const users = usePage<UserEntry>('/api/memory/users')
  const [user, setUser] = useState('')
  const [q, setQ] = useState('')
  const [hits, setHits] = useState<MemoryHit[] | null>(null)
  const [version, setVersion] = useState(0)
  const changed = (): void => setVersion(v => v + 1)
  return <div>
    <Stats version={version} />
    <ReviewQueue onChange={changed} />
    <Card title={t('search')}>
      <div class="row"><input data-testid="memory-query" aria-label={t('search')} placeholder={t('search')} value={q} onInput={e => setQ((e.target as HTMLInputElement).value)} />
        <Act testid="memory-search" run={async () => setHits(await api<MemoryHit[]>('/api/memory/search', { json: { query: q, ...(user ? { userId: user } : {}) } }))}>{t('search')}</Act></div>
      {hits && (hits.length === 0 ? <p class="muted">{t('empty')}</p>
        : <div data-testid="memory-hits"><Table cols={[t('userId'), t('categories'), t('content'), mt('mr.origin')]} rows={hits.map(h => [h.userId, cat(h.category), h.content, saidOrGuessed(h) + (h.status ? ` (${mt(`mr.${h.status === 'pending' ? 'pending' : 'supersededPlain'}`)})` : '')])} /></div>)}
    </Card>
    <Card title={t('me.users.title')} extra={<input data-testid="memory-user" aria-label={t('userId')} placeholder={t('userId')} value={user} onInput={e => setUser((e.target as HTMLInputElement).value)} />}>
      <View load={users}>{d => <div class="row">{d.items.map((u: UserEntry) => <button key={u.userId} data-testid={`memory-user-${u.userId}`} aria-pressed={u.userId === user} onClick={() => setUser(u.userId)}>{u.userId} ({u.count})</button>)}</div>}</View>
      <Pager page={users} testid="memory-users-pager" />
    </Card>
    {user && <UserMemories key={user} userId={user} version={version} onChange={changed} />}
    {user && <Timeline key={user} userId={user} version={version} />}
    <GroupMemories />
  </div>
}
