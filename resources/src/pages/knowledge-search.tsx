// The knowledge page's retrieval test (GET /api/knowledge/search: the passages a question finds, with
// score, heading and page and the retrievers that found them) and the embedding panel (GET
// /api/knowledge/embedding/status, POST /api/knowledge/embedding/test; a 404 says the server has no
// vector search yet).
import type { ComponentChildren } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { ApiError, api, errText } from '../api'
import { t, tv } from '../i18n'
import type { KnowledgeBaseView, KnowledgeHit } from '../contracts'
import { Act, Card, ErrorBox } from '../ui'
import { kt } from './knowledge-words'
import { whereOf } from './knowledge-docs'

/** Wraps every occurrence of the query's words in <mark>. */
export function highlight (text: string, query: string): ComponentChildren {
  const words = query.split(/\s+/).filter(Boolean).map(w => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  if (!words.length) return text
  const re = new RegExp(`(${words.join('|')})`, 'gi')
  return text.split(re).map((part, i) => i % 2 === 1 ? <mark key={i}>{part}</mark> : part)
}

export function RetrievalCard ({ bases }: { bases: KnowledgeBaseView[] }) {
  const [q, setQ] = useState('')
  const [scope, setScope] = useState('')
  const [hits, setHits] = useState<{ q: string, items: KnowledgeHit[] } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const search = async (): Promise<void> => {
    setError(null)
    const base = scope ? `&baseId=${encodeURIComponent(scope)}` : ''
    try { setHits({ q, items: await api<KnowledgeHit[]>(`/api/knowledge/search?query=${encodeURIComponent(q)}&limit=10${base}`) }) } catch (e) { setError(errText(e)) }
  }
  return <Card title={kt('kb.test')} testid="kb-test">
    <p class="muted">{kt('kb.testHint')}</p>
    <div class="row">
      <input data-testid="kb-query" type="search" class="kb-query" aria-label={t('kb.query')} value={q} onInput={e => setQ((e.target as HTMLInputElement).value)} onKeyDown={e => { if (e.key === 'Enter') void search() }} />
      <select data-testid="kb-scope" aria-label={kt('kb.scope')} value={scope} onChange={e => setScope((e.target as HTMLSelectElement).value)}>
        <option value="">{kt('kb.allBases')}</option>
        {bases.map(b => <option key={b.id} value={b.id}>{b.name}</option>)}
      </select>
      <Act testid="kb-search" run={search}>{t('search')}</Act>
    </div>
    {error && <ErrorBox error={error} />}
    {hits && (hits.items.length === 0
      ? <p class="muted" data-testid="kb-no-hits">{tv('kb.noHits', { q: hits.q })}</p>
      : <ol class="kb-hits" data-testid="kb-hits">{hits.items.map((h, i) => <li key={i} class="stat" data-testid={`kb-hit-${i}`}>
        <div class="row"><b class="kb-hit-title">{highlight(h.title, hits.q)}</b>
          <span class="muted" data-testid={`kb-hit-score-${i}`}>{kt('kb.score')} {h.score.toFixed(3)}</span>
          <span class="kb-tags">{h.retrievers.map(r => <span key={r} class="kb-tag">{r}</span>)}</span></div>
        {whereOf(h) && <div class="muted kb-where" data-testid={`kb-hit-where-${i}`}>{whereOf(h)}</div>}
        <div class="kb-text">{highlight(h.text.slice(0, 600), hits.q)}</div>
      </li>)}</ol>)}
  </Card>
}

type Shown = { kind: 'missing' } | { kind: 'error', text: string } | { kind: 'data', data: unknown }

const missing = (e: unknown): boolean => e instanceof ApiError && e.status === 404

/** An answer's plain fields as `name: value` lines (the embedding routes' answers may grow). */
function Fields ({ data }: { data: unknown }) {
  if (typeof data !== 'object' || data === null) return <span>{String(data)}</span>
  const label: Record<string, string> = { state: kt('kb.embState'), model: kt('kb.embModel'), vectors: kt('kb.embVectors'), dimensions: kt('kb.embDims'), batchSize: kt('kb.embBatch') }
  const o = data as Record<string, unknown>
  const rows = Object.entries(o).filter(([, v]) => v === null || typeof v !== 'object')
  if (typeof o.done === 'number' && typeof o.total === 'number') rows.push(['progress', `${o.done} / ${o.total}`])
  return <dl class="kb-fields">{rows.filter(([k]) => k !== 'done' && k !== 'total').map(([k, v]) => <div key={k}>
    <dt>{k === 'progress' ? kt('kb.embProgress') : label[k] ?? k}</dt>
    <dd>{k === 'state' ? kt(`kb.emb.${String(v)}`) : String(v)}</dd>
  </div>)}</dl>
}

export function EmbeddingCard () {
  const [status, setStatus] = useState<Shown | null>(null)
  const [tested, setTested] = useState<Shown | null>(null)
  const load = async (): Promise<void> => {
    try { setStatus({ kind: 'data', data: await api<unknown>('/api/knowledge/embedding/status') }) } catch (e) { setStatus(missing(e) ? { kind: 'missing' } : { kind: 'error', text: errText(e) }) }
  }
  useEffect(() => { void load() }, [])
  const test = async (): Promise<void> => {
    setTested(null)
    try { setTested({ kind: 'data', data: await api<unknown>('/api/knowledge/embedding/test', { method: 'POST', json: {} }) }); void load() } catch (e) { setTested(missing(e) ? { kind: 'missing' } : { kind: 'error', text: errText(e) }) }
  }
  const show = (s: Shown | null, testid: string): ComponentChildren => s === null ? null
    : s.kind === 'missing' ? <p class="muted" data-testid={testid}>{kt('kb.embMissing')}</p>
      : s.kind === 'error' ? <div data-testid={testid}><ErrorBox error={s.text} /></div>
        : <div data-testid={testid}><Fields data={s.data} /></div>
  return <Card title={kt('kb.emb')} testid="kb-emb" extra={<Act testid="kb-emb-test" run={test}>{kt('kb.embTest')}</Act>}>
    {show(status, 'kb-emb-status')}
    {tested?.kind === 'data' && <p class="ok">{kt('kb.embOk')}</p>}
    {show(tested, 'kb-emb-result')}
  </Card>
}
