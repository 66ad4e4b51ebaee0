// One user's memories as a timeline (GET /api/memory/user/:userId?format=list, newest first): each with
// "你说过/我推测", where and when it was learnt, its state (in use, pending, superseded by which) and, expanded,
// its earlier texts (GET /api/memory/:id/history: what ended each, by whom, until when). A search box filters
// the timeline by the text of a memory or of its earlier versions.
import { useEffect, useState } from 'preact/hooks'
import { api, errText } from '../api'
import type { MemoryRecord } from '../contracts'
import { Pager, usePage } from '../paging'
import { Card, View } from '../ui'
import { learntWhere, mt, mtv, saidOrGuessed, when } from './memory-words'

type Revision = NonNullable<MemoryRecord['history']>[number]
interface History { id: number, history: Revision[] }

function stateOf (m: MemoryRecord): string {
  if (m.status === 'pending') return mt('mr.pending')
  if (m.status === 'superseded') return m.supersededBy !== undefined ? mtv('mr.superseded', { id: m.supersededBy }) : mt('mr.supersededPlain')
  return mt('mr.inUse')
}

function Earlier ({ id }: { id: number }) {
  const [h, setH] = useState<Revision[] | null>(null)
  const [error, setError] = useState('')
  useEffect(() => {
    let live = true
    api<History>(`/api/memory/${id}/history`).then(x => { if (live) setH(x.history) }, e => { if (live) setError(errText(e)) })
    return () => { live = false }
  }, [id])
  if (error) return <p class="error" role="alert">{error}</p>
  if (h === null) return <p class="muted">{mt('loading')}</p>
  if (h.length === 0) return <p class="muted">{mt('mr.noHistory')}</p>
  // newest change first, like the timeline
  return <ol class="mem-history" data-testid={`memory-history-list-${id}`}>{[...h].reverse().map((r, i) => <li key={i}>
    <span class="mem-old">{r.content}</span>
    <span class="muted"> · {mt(`mr.what.${r.what}`)} · {mt(`mr.by.${r.by}`)} · {mtv('mr.until', { time: when(r.until) })}</span>
  </li>)}</ol>
}

function Entry ({ m }: { m: MemoryRecord }) {
  const [open, setOpen] = useState(false)
  const n = m.history?.length ?? 0
  return <li class={`mem-item mem-${m.status ?? 'used'}`} data-testid={`memory-timeline-item-${m.id}`}>
    <div class="mem-body">
      <p class="mem-text"><b>{saidOrGuessed(m)}</b>{m.content}</p>
      <p class="muted mem-meta">#{m.id} · <span data-testid={`memory-timeline-state-${m.id}`}>{stateOf(m)}</span> · {learntWhere(m)} · {mtv('mr.confidence', { n: m.confidence.toFixed(2) })}</p>
      <button aria-expanded={open} data-testid={`memory-history-${m.id}`} onClick={() => setOpen(!open)}>{open ? mt('mr.hideHistory') : mtv('mr.showHistory', { n })}</button>
      {open && <Earlier key={`${m.id}:${m.updatedAt}`} id={m.id} />}
    </div>
  </li>
}

const matches = (m: MemoryRecord, q: string): boolean =>
  m.content.toLowerCase().includes(q) || (m.history ?? []).some(r => r.content.toLowerCase().includes(q))

/** `version` changes when the page's other parts changed memories (the timeline reloads). */
export function Timeline ({ userId, version }: { userId: string, version: number }) {
  const list = usePage<MemoryRecord>(`/api/memory/user/${encodeURIComponent(userId)}?format=list`, 100)
  const { reload } = list
  useEffect(() => { if (version > 0) reload() }, [version, reload])
  const [q, setQ] = useState('')
  const needle = q.trim().toLowerCase()
  return <Card title={`${mt('mr.timeline')}: ${userId}`} testid="memory-timeline">
    <p class="muted">{mt('mr.timelineHint')}</p>
    <input type="search" data-testid="memory-timeline-filter" aria-label={mt('mr.filter')} placeholder={mt('mr.filter')} value={q} onInput={e => setQ((e.target as HTMLInputElement).value)} />
    <View load={list} isEmpty={d => d.items.length === 0}>{d => {
      const shown = needle ? d.items.filter(m => matches(m, needle)) : d.items
      return shown.length === 0 ? <p class="muted">{mt('mr.noMatch')}</p>
        : <ul class="mem-list mem-timeline">{shown.map(m => <Entry key={`${m.id}:${m.updatedAt}`} m={m} />)}</ul>
    }}</View>
    <Pager page={list} testid="memory-timeline-pager" />
  </Card>
}
