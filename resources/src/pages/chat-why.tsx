// The chat page's "why" panel: what shaped one answer (GET /api/chat/why/:id, or the stream's end frame),
// and the tool calls of a message as they happen. Records come from lib/why (docs/api.md, The answer's why).
import type { WhyRecord } from '../../../lib/why/types'
import type { ApprovalState } from '../../../lib/chat/contracts'
import { t, tv } from '../i18n'

/** A tool call as the page shows it: from the stream's events, or from a kept record. */
export interface ToolView { id: string, name: string, arguments: string, result?: string, isError?: boolean, approval: ApprovalState }

export function ToolCalls ({ tools }: { tools: ToolView[] }) {
  if (!tools.length) return null
  return <ul class="chat-tools" aria-label={t('cp.w.tools')}>
    {tools.map(c => <li key={c.id} class="chat-tool" data-testid={`chat-tool-${c.name}`} data-state={c.result === undefined ? 'running' : c.isError ? 'error' : 'done'} data-approval={c.approval}>
      <div class="row"><b>{tv('cp.tool', { name: c.name })}</b>
        {c.approval !== 'none' && <span class={c.approval === 'approved' ? 'ok' : c.approval === 'waiting' ? 'muted' : 'bad'} data-testid="chat-tool-approval">{t(`cp.ap.${c.approval}`)}</span>}
        {c.result === undefined ? <span class="muted" role="status">{t('cp.toolRunning')}</span> : c.isError && <span class="bad">{t('cp.toolFailed')}</span>}</div>
      <div class="chat-tool-io"><span class="muted">{t('cp.toolArgs')}</span> <code data-testid="chat-tool-args">{c.arguments || '{}'}</code></div>
      {c.result !== undefined && <div class="chat-tool-io"><span class="muted">{t('cp.toolResult')}</span> <code data-testid="chat-tool-result">{c.result}</code></div>}
    </li>)}
  </ul>
}

/** A memory category in the page language (the memory page's names), else as the server says it. */
const category = (c: string): string => (t(`cat.${c}`) === `cat.${c}` ? c : t(`cat.${c}`))

const None = () => <span class="muted">{t('cp.w.none')}</span>

export function WhyPanel ({ record, id }: { record: WhyRecord | undefined, id: string }) {
  if (!record) return <div class="chat-why" id={id} data-testid="chat-why-panel"><p class="muted">{t('cp.whyMissing')}</p></div>
  const r = record
  // input the provider served from its cache (records of older versions have no figure)
  const cached = r.usage.cachedTokens ?? 0
  // how much of the conversation's previous request the first model call started with (lib/chat/prefix.ts)
  const first = r.calls?.[0]
  const reuse = first?.previousChars && first.reusedChars !== undefined ? Math.min(1, first.reusedChars / first.previousChars) : undefined
  return <section class="chat-why" id={id} data-testid="chat-why-panel" aria-label={t('cp.whyTitle')}>
    <h3>{t('cp.whyTitle')}</h3>
    <dl>
      <dt>{t('cp.w.question')}</dt><dd>{r.question}</dd>
      <dt>{t('cp.w.preset')}</dt><dd data-testid="why-preset">{r.preset.name} <span class="muted">({r.preset.id})</span></dd>
      <dt>{t('cp.w.channel')}</dt><dd data-testid="why-model">{r.channel || '-'} / {r.model || '-'}</dd>
      <dt>{t('cp.w.memories')}</dt>
      <dd>{r.memories.length ? <ul>{r.memories.map(m => <li key={m.id} data-testid={`why-memory-${m.id}`}>
        {m.removed ? <span class="muted">#{m.id} {t('cp.w.removed')}</span> : <>[{category(m.category)}] {m.content}</>} <span class="muted">{tv('cp.w.owner', { id: m.userId })}</span></li>)}</ul> : <None />}</dd>
      <dt>{t('cp.w.knowledge')}</dt>
      <dd>{r.knowledge.length ? <ul>{r.knowledge.map(k => <li key={k.documentId} data-testid={`why-knowledge-${k.documentId}`}><b>{k.title}</b>: {k.excerpt}</li>)}</ul> : <None />}</dd>
      <dt>{t('cp.w.skills')}</dt>
      <dd>{r.skills.length ? r.skills.map(s => s.name).join(', ') : <None />}</dd>
      <dt>{t('cp.w.tools')}</dt>
      <dd data-testid="why-tools">{r.tools.length ? <ToolCalls tools={r.tools} /> : <None />}</dd>
      <dt>{t('cp.w.tokens')}</dt>
      <dd data-testid="why-tokens">{tv('cp.w.tokensValue', { prompt: r.usage.promptTokens, completion: r.usage.completionTokens, total: r.usage.totalTokens })}
        {cached > 0 && r.usage.promptTokens > 0 && <span class="muted" data-testid="why-cached"> {tv('cp.w.cached', { cached, share: (Math.min(1, cached / r.usage.promptTokens)).toLocaleString(undefined, { style: 'percent', maximumFractionDigits: 1 }) })}</span>}</dd>
      {reuse !== undefined && <><dt>{t('cp.w.prefix')}</dt><dd data-testid="why-prefix">{tv('cp.w.prefixValue', { chars: first?.reusedChars ?? 0, share: reuse.toLocaleString(undefined, { style: 'percent', maximumFractionDigits: 1 }) })}</dd></>}
      <dt>{t('cp.w.time')}</dt><dd>{tv('cp.w.seconds', { s: (r.durationMs / 1000).toFixed(1) })}</dd>
    </dl>
  </section>
}
