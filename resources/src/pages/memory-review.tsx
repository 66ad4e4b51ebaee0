// The memory page's review queue (GET /api/memory/pending, lib/memory/README.md "Review"): each pending
// memory with "你说过/我推测", the chat and time it came from and its confidence; confirm, correct inline,
// delete after a confirmation naming it; select several to confirm or delete at once (POST /api/memory/review).
// The counts of pending, superseded and confirmed memories head it (GET /api/memory/review/stats).
import { useState } from 'preact/hooks'
import { api } from '../api'
import type { MemoryRecord } from '../contracts'
import { Act, Card, View, confirmDanger, toast, useLoad } from '../ui'
import { learntWhere, mt, mtv, saidOrGuessed } from './memory-words'

interface BulkAnswer { action: 'confirm' | 'delete', done: number, results: Array<{ id: number, outcome: string }> }
interface Counts { pending: number, superseded: number, confirmed: number }

const short = (s: string): string => s.length > 60 ? `${s.slice(0, 60)}…` : s

function ReviewCounts ({ counts }: { counts: Counts }) {
  return <div class="grid" data-testid="memory-review-counts">
    <div class="stat">{mt('mr.pendingCount')}<b data-testid="memory-review-pending">{counts.pending}</b></div>
    <div class="stat">{mt('mr.supersededCount')}<b data-testid="memory-review-superseded">{counts.superseded}</b></div>
    <div class="stat">{mt('mr.confirmedCount')}<b data-testid="memory-review-confirmed">{counts.confirmed}</b></div>
  </div>
}

function Correct ({ m, onDone, onCancel }: { m: MemoryRecord, onDone: () => void, onCancel: () => void }) {
  const [v, setV] = useState(m.content)
  return <div class="row">
    <input data-testid={`memory-review-correct-input-${m.id}`} aria-label={`${mt('mr.correct')} #${m.id}`} value={v} onInput={e => setV((e.target as HTMLInputElement).value)} />
    <Act kind="primary" testid={`memory-review-correct-save-${m.id}`} run={async () => {
      await api(`/api/memory/${m.id}/correct`, { json: { content: v } })
      toast(mtv('mr.corrected', { id: m.id }))
      onDone()
    }}>{mt('mr.correctSave')}</Act>
    <button onClick={onCancel}>{mt('cancel')}</button>
  </div>
}

function Pending ({ m, picked, pick, reload }: { m: MemoryRecord, picked: boolean, pick: (on: boolean) => void, reload: () => void }) {
  const [editing, setEditing] = useState(false)
  return <li class="mem-item" data-testid={`memory-review-item-${m.id}`}>
    <label class="mem-check"><input type="checkbox" checked={picked} data-testid={`memory-review-select-${m.id}`} aria-label={mtv('mr.select', { id: m.id })}
      onChange={e => pick((e.target as HTMLInputElement).checked)} /></label>
    <div class="mem-body">
      {editing ? <Correct m={m} onCancel={() => setEditing(false)} onDone={() => { setEditing(false); reload() }} />
        : <p class="mem-text"><b>{saidOrGuessed(m)}</b><span data-testid={`memory-review-text-${m.id}`}>{m.content}</span></p>}
      <p class="muted mem-meta">#{m.id} · {mtv('mr.user', { id: m.userId })} · {learntWhere(m)}
        {m.origin?.conversationId ? ` · ${mtv('mr.conversation', { id: m.origin.conversationId })}` : ''} · {mtv('mr.confidence', { n: m.confidence.toFixed(2) })}
        {m.origin?.model ? ` · ${mtv('mr.model', { name: m.origin.model })}` : ''}</p>
      {!editing && <div class="row">
        <Act kind="primary" testid={`memory-review-confirm-${m.id}`} run={async () => {
          await api(`/api/memory/${m.id}/confirm`, { method: 'POST' })
          toast(mtv('mr.confirmed', { id: m.id }))
          reload()
        }}>{mt('mr.confirm')}</Act>
        <button data-testid={`memory-review-correct-${m.id}`} onClick={() => setEditing(true)}>{mt('mr.correct')}</button>
        <Act kind="danger" testid={`memory-review-delete-${m.id}`} run={async () => {
          if (!await confirmDanger(mtv('mr.deleteAsk', { name: short(m.content) }))) return
          await api(`/api/memory/${m.id}`, { method: 'DELETE' })
          toast(mtv('mr.deleted', { id: m.id }))
          reload()
        }}>{mt('delete')}</Act>
      </div>}
    </div>
  </li>
}

/** The review queue; `onChange` tells the page that memories changed (its other lists reload). */
export function ReviewQueue ({ onChange }: { onChange: () => void }) {
  const list = useLoad<MemoryRecord[]>('/api/memory/pending?limit=200')
  const counts = useLoad<Counts>('/api/memory/review/stats')
  const [picked, setPicked] = useState<ReadonlySet<number>>(new Set())
  const reload = (): void => { list.reload(); counts.reload(); onChange() }
  const ids = (list.data ?? []).map(m => m.id)
  const chosen = ids.filter(id => picked.has(id))
  const bulk = async (action: 'confirm' | 'delete'): Promise<void> => {
    if (action === 'delete' && !await confirmDanger(mtv('mr.bulkDeleteAsk', { n: chosen.length }))) return
    const r = await api<BulkAnswer>('/api/memory/review', { json: { ids: chosen, action } })
    const skipped = r.results.length - r.done
    toast(mtv('mr.bulkDone', { done: r.done, n: r.results.length }) + (skipped ? mtv('mr.bulkSkipped', { n: skipped }) : ''))
    setPicked(new Set())
    reload()
  }
  return <Card title={mt('mr.queue')} testid="memory-review" extra={<button onClick={reload}>{mt('refresh')}</button>}>
    <p class="muted">{mt('mr.queueHint')}</p>
    {counts.data && <ReviewCounts counts={counts.data} />}
    <View load={list} empty={<p class="muted" data-testid="memory-review-empty">{mt('mr.none')}</p>}>{items => <>
      <div class="row mem-bulk">
        <label class="mem-check"><input type="checkbox" data-testid="memory-review-select-all" checked={chosen.length === ids.length}
          onChange={e => setPicked(new Set((e.target as HTMLInputElement).checked ? ids : []))} />{mt('mr.selectAll')}</label>
        <span class="muted" data-testid="memory-review-selected">{mtv('mr.selected', { n: chosen.length })}</span>
        {chosen.length > 0 && <>
          <Act kind="primary" testid="memory-review-bulk-confirm" run={() => bulk('confirm')}>{mt('mr.bulkConfirm')}</Act>
          <Act kind="danger" testid="memory-review-bulk-delete" run={() => bulk('delete')}>{mt('mr.bulkDelete')}</Act>
        </>}
      </div>
      <ul class="mem-list">{items.map(m => <Pending key={m.id} m={m} picked={picked.has(m.id)} reload={reload}
        pick={on => { const next = new Set(picked); if (on) next.add(m.id); else next.delete(m.id); setPicked(next) }} />)}</ul>
    </>}</View>
  </Card>
}
