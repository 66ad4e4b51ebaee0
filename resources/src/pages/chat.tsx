// The chat page: talk to the bot as it answers in QQ (POST /api/chat/stream), with the preset, channel and
// model the bot would choose (GET /api/chat/defaults) or others; tool calls, their approvals and results as
// they happen; the conversations are kept in the bot's own store (they appear on the Conversations page)
// under ids `web:<user>:<time>`, and every answer has its "why" (lib/why, pages/chat-why.tsx).
// Streamed text is rendered into the live message's DOM node by a render of its own, at most once a frame
// (markdown.tsx re-parses the text so far; unchanged nodes stay): a token costs no render of the page, and
// the history is only re-rendered when a message is added or finished (Msg skips unchanged messages).
// Answers are shown as markdown (markdown.tsx), or, on request, as the text the bot sends in QQ: the
// delivery's own converter (lib/delivery/markdown.ts, pure and free of Node APIs) when the global
// `delivery.markdown` is `plain`, the text as written when it is `keep`.
import { Component, render } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import { api, ApiError, errText, sse, type SseFrame } from '../api'
import type { ChannelView, StoredMessage } from '../contracts'
import type { TurnEvent } from '../../../lib/chat/contracts'
import type { WhyRecord } from '../../../lib/why/types'
import { markdownToPlain } from '../../../lib/delivery/markdown'
import { lang, locale, t, tv } from '../i18n'
import { Markdown } from '../markdown'
import { Card, EmptyState, ErrorBox, PageButton } from '../ui'
import { useFollow } from './chat-follow'
import { ToolCalls, WhyPanel, type ToolView } from './chat-why'
import './chat.css'

interface Msg { key: string, role: 'user' | 'assistant', content: string, at?: number, live?: boolean, error?: string, tools: ToolView[], why?: WhyRecord, whyId?: string }
interface ConvItem { id: string, messageCount: number, lastMessage: string, updatedAt: number }
interface PresetItem { id: string, name: string }
/** GET /api/chat/defaults (lib/chat/defaults.ts) */
interface ChatDefaults { preset: { id: string, name: string }, channel: string, model: string }

let seq = 0
const keyOf = (): string => `m${++seq}`

/** How an answer is shown: markdown rendered, or the text QQ gets (`keep`: as written). */
type View = 'md' | 'plain' | 'keep'
const qqText = (text: string, view: View): string => (view === 'plain' ? markdownToPlain(text) : text)

/** A message's text: the user's as typed, an answer as markdown or as QQ shows it. */
function MsgText ({ m, view }: { m: Msg, view: View }) {
  if (m.role === 'assistant' && view === 'md') return <div class="chat-text" data-testid="chat-text"><Markdown text={m.content} /></div>
  return <div class="chat-text plain" data-testid="chat-text">{m.role === 'assistant' ? qqText(m.content, view) : m.content}</div>
}

/** One message; re-rendered only when its own object (or its panel) changed, not per token or per other message. */
class MessageRow extends Component<{ m: Msg, open: boolean, lang: string, view: View, onWhy: (key: string) => void, liveRef?: (el: HTMLElement | null) => void }> {
  override shouldComponentUpdate (next: MessageRow['props']): boolean { return next.m !== this.props.m || next.open !== this.props.open || next.lang !== this.props.lang || next.view !== this.props.view }
  override render () {
    const { m, open, view, onWhy, liveRef } = this.props
    const panelId = `why-${m.key}`
    return <li class={`chat-msg ${m.role}`} data-testid="chat-msg" data-role={m.role} data-live={m.live ? 'true' : undefined}>
      <div class="chat-who">{m.role === 'user' ? t('cp.you') : t('cp.bot')}</div>
      <ToolCalls tools={m.tools} />
      {m.live
        ? <div key="live" class={view === 'md' ? 'chat-text' : 'chat-text plain'} data-testid="chat-live-text" ref={liveRef} aria-live="polite" />
        : <MsgText key="done" m={m} view={view} />}
      {m.error && <ErrorBox error={m.error} />}
      {m.role === 'assistant' && !m.live && !m.error && <div class="row">
        <button type="button" class="link" data-testid="chat-why-button" aria-expanded={open} aria-controls={panelId} onClick={() => onWhy(m.key)}>{open ? t('cp.whyHide') : t('cp.why')}</button>
      </div>}
      {open && <WhyPanel id={panelId} record={m.why} />}
    </li>
  }
}

/**
 * The assistant message of one turn as it streams: the text rendered into the live node once a frame (its
 * own render root, not the page's), events into the state; `grew` after each paint (the list follows).
 */
function liveTurn (el: () => HTMLElement | null, update: (fn: (m: Msg) => Msg) => void, view: () => View, grew: () => void) {
  let text = ''
  let queued = false
  let over = false
  let painted: HTMLElement | null = null
  const paint = (): void => {
    queued = false
    const host = el()
    if (over || !host) return
    painted = host
    render(view() === 'md' ? <Markdown text={text} /> : qqText(text, view()), host)
    grew()
  }
  return {
    text: () => text,
    paint,
    /** the turn ended: no more paints; the live node's own render root is unmounted once the page replaced it */
    end (): void {
      over = true
      const host = painted
      if (host) requestAnimationFrame(() => render(null, host))
    },
    frame (f: SseFrame): void {
      const d = f.data as { type: string, text?: string }
      if (d.type === 'content') {
        text += d.text ?? ''
        // the first text at once (the first token is what the reader waits for), then once a frame
        if (!painted) paint()
        else if (!queued) { queued = true; requestAnimationFrame(paint) }
        return
      }
      const ev = f.data as TurnEvent
      if (ev.type === 'tool_call') update(m => ({ ...m, tools: [...m.tools, { id: ev.id, name: ev.name, arguments: ev.arguments, approval: 'none' }] }))
      else if (ev.type === 'tool_approval') update(m => ({ ...m, tools: m.tools.map(c => c.id === ev.id ? { ...c, approval: ev.state } : c) }))
      else if (ev.type === 'tool_result') update(m => ({ ...m, tools: m.tools.map(c => c.id === ev.id ? { ...c, result: ev.result, isError: ev.isError } : c) }))
    }
  }
}

export default function ChatPage () {
  const [me, setMe] = useState('')
  const [defaults, setDefaults] = useState<ChatDefaults | null>(null)
  const [presets, setPresets] = useState<PresetItem[]>([])
  const [channels, setChannels] = useState<ChannelView[]>([])
  const [pick, setPick] = useState({ preset: '', channel: '', model: '' })
  const [convs, setConvs] = useState<ConvItem[]>([])
  const [conv, setConv] = useState<string | null>(null)
  const [msgs, setMsgs] = useState<Msg[]>([])
  const [open, setOpen] = useState<string | null>(null)
  const [input, setInput] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  // QQ view: off, or the global delivery.markdown (how the bot sends answers in a private chat)
  const [qq, setQq] = useState(false)
  const [qqMarkdown, setQqMarkdown] = useState<'plain' | 'keep'>('plain')
  const view: View = qq ? qqMarkdown : 'md'
  const viewRef = useRef<View>(view)
  viewRef.current = view
  const live = useRef<HTMLElement | null>(null)
  const liveTurnRef = useRef<ReturnType<typeof liveTurn> | null>(null)
  const abort = useRef<AbortController | null>(null)
  const follow = useFollow()

  const loadConvs = (user: string): void => {
    api<{ conversations: ConvItem[] }>(`/api/conversations?userId=${encodeURIComponent(user)}&limit=100`)
      .then(r => setConvs(r.conversations.filter(c => c.id.startsWith('web:'))), e => setError(errText(e)))
  }
  useEffect(() => {
    api<{ userId: string }>('/api/auth/verify').then(v => { setMe(v.userId); loadConvs(v.userId) }, e => setError(errText(e)))
    api<ChatDefaults>('/api/chat/defaults').then(setDefaults, e => setError(errText(e)))
    api<PresetItem[]>('/api/config/presets').then(setPresets, () => {})
    api<ChannelView[]>('/api/config/channels').then(setChannels, () => {})
    api<{ markdown?: string }>('/api/config/delivery').then(d => setQqMarkdown(d.markdown === 'keep' ? 'keep' : 'plain'), () => {})
    return () => abort.current?.abort()
  }, [])
  // a message added, finished or changed (a tool call): the list follows when the reader is at its bottom
  useEffect(follow.grew, [msgs])
  // the live answer is painted by its own render: shown again in the other view at once
  useEffect(() => { liveTurnRef.current?.paint() }, [view])

  const openConv = async (id: string): Promise<void> => {
    setError(null); setOpen(null); setConv(id); follow.jump()
    try {
      const [c, w] = await Promise.all([api<{ messages: StoredMessage[] }>(`/api/conversations/${encodeURIComponent(id)}`), api<{ records: WhyRecord[] }>(`/api/chat/why?conversationId=${encodeURIComponent(id)}`)])
      setMsgs(c.messages.map(m => {
        const why = m.role === 'assistant' ? w.records.find(r => r.at === m.timestamp) : undefined
        return { key: keyOf(), role: m.role === 'user' ? 'user' : 'assistant', content: m.content, ...(m.timestamp ? { at: m.timestamp } : {}), tools: why?.tools ?? [], ...(why ? { why, whyId: why.id } : {}) }
      }))
    } catch (e) { setError(errText(e)) }
  }

  const send = async (): Promise<void> => {
    const message = input.trim()
    if (!message || busy) return
    const id = conv ?? `web:${me || 'dashboard'}:${Date.now().toString(36)}`
    if (!conv) setConv(id)
    const answer: Msg = { key: keyOf(), role: 'assistant', content: '', live: true, tools: [] }
    setMsgs(list => [...list, { key: keyOf(), role: 'user', content: message, tools: [] }, answer])
    setInput(''); setBusy(true); setError(null); follow.jump()
    const update = (fn: (m: Msg) => Msg): void => setMsgs(list => list.map(m => m.key === answer.key ? fn(m) : m))
    const turn = liveTurn(() => live.current, update, () => viewRef.current, follow.grew)
    liveTurnRef.current = turn
    const ctl = new AbortController()
    abort.current = ctl
    let ended = false
    try {
      await sse('/api/chat/stream', {
        json: { message, conversationId: id, ...(pick.preset ? { preset: pick.preset } : {}), ...(pick.channel ? { channel: pick.channel } : {}), ...(pick.model ? { model: pick.model } : {}) },
        signal: ctl.signal
      }, f => {
        const d = f.data as { type: string, response?: string, whyId?: string, why?: WhyRecord, message?: string, code?: string }
        // the answer as stored (what the bot sends in QQ): text written before a tool call is not part of it
        if (d.type === 'end') { ended = true; update(m => ({ ...m, live: false, content: d.response ?? turn.text(), ...(d.why ? { why: d.why, tools: d.why.tools } : {}), ...(d.whyId ? { whyId: d.whyId } : {}) })) }
        // the server's English words in the page language (api.ts errText, by the frame's code)
        else if (d.type === 'error') { ended = true; update(m => ({ ...m, live: false, content: turn.text(), error: errText(new ApiError(d.message ?? '', 0, d.code)) })) }
        else turn.frame(f)
      })
      if (!ended) update(m => ({ ...m, live: false, content: turn.text() }))
    } catch (e) {
      update(m => ({ ...m, live: false, content: turn.text(), error: ctl.signal.aborted ? t('cp.stopped') : errText(e) }))
    } finally {
      turn.end()
      liveTurnRef.current = null
      abort.current = null
      setBusy(false)
      loadConvs(me)
    }
  }

  const defChannel = channels.find(c => c.name === (pick.channel || defaults?.channel))
  const models = defChannel ? [...new Set([defChannel.model, ...(defChannel.models ?? [])].filter(Boolean))] : []
  const newConv = (): void => { setConv(null); setMsgs([]); setOpen(null); setError(null); follow.jump() }
  const toggleWhy = (key: string): void => setOpen(o => (o === key ? null : key))
  // the last message without its markdown syntax, as the list's name of the conversation
  const preview = (c: ConvItem): string => markdownToPlain(c.lastMessage.slice(0, 200)).replace(/\s+/g, ' ').slice(0, 40) || c.id

  return <div class="chat-page">
    <Card title={t('cp.settings')} testid="chat-settings">
      <div class="form">
        <div class="field"><label for="chat-preset">{t('cp.preset')}</label>
          <select id="chat-preset" data-testid="chat-preset" value={pick.preset} onChange={e => setPick({ ...pick, preset: (e.target as HTMLSelectElement).value })}>
            <option value="">{defaults ? tv('cp.asBot', { name: defaults.preset.name }) : t('cp.asBotNone')}</option>
            {presets.map(p => <option key={p.id} value={p.id}>{p.name} ({p.id})</option>)}
          </select></div>
        <div class="field"><label for="chat-channel">{t('cp.channel')}</label>
          <select id="chat-channel" data-testid="chat-channel" value={pick.channel} onChange={e => setPick({ ...pick, channel: (e.target as HTMLSelectElement).value, model: '' })}>
            <option value="">{defaults?.channel ? tv('cp.asBot', { name: defaults.channel }) : t('cp.asBotNone')}</option>
            {channels.filter(c => c.enabled !== false).map(c => <option key={c.name} value={c.name}>{c.name}</option>)}
          </select></div>
        <div class="field"><label for="chat-model">{t('cp.model')}</label>
          <select id="chat-model" data-testid="chat-model" value={pick.model} onChange={e => setPick({ ...pick, model: (e.target as HTMLSelectElement).value })}>
            <option value="">{pick.channel ? tv('cp.channelModel', { name: defChannel?.model || '-' }) : defaults?.model ? tv('cp.asBot', { name: defaults.model }) : t('cp.asBotNone')}</option>
            {models.map(m => <option key={m} value={m}>{m}</option>)}
          </select></div>
      </div>
      <small class="help">{t('cp.defaultsHint')}</small>
    </Card>
    <div class="chat-layout">
      <Card title={t('cp.conversations')} testid="chat-convs" extra={<button type="button" data-testid="chat-new" onClick={newConv}>{t('cp.newConv')}</button>}>
        {convs.length === 0
          ? <p class="muted">{t('cp.noConvs')}</p>
          : <ul class="chat-convs">{convs.map(c => <li key={c.id}>
            <button type="button" class={c.id === conv ? 'link on' : 'link'} data-testid={`chat-conv-${c.id}`} aria-current={c.id === conv ? 'true' : undefined}
              aria-label={tv('cp.openConv', { id: preview(c) })} onClick={() => { void openConv(c.id) }}>
              {preview(c)}</button>
            <span class="muted"> · {new Date(c.updatedAt).toLocaleString(locale())}</span></li>)}</ul>}
      </Card>
      <Card title={t('cp.messages')} testid="chat-conversation" extra={<label class="chat-qq" title={t(qqMarkdown === 'plain' ? 'cp.qqHint' : 'cp.qqKeep')}>
        <input type="checkbox" data-testid="chat-qq-view" checked={qq} onChange={e => setQq((e.target as HTMLInputElement).checked)} />{t('cp.qqView')}</label>}>
        {qq && <small class="help" data-testid="chat-qq-hint">{t(qqMarkdown === 'plain' ? 'cp.qqHint' : 'cp.qqKeep')}</small>}
        {error && <ErrorBox error={error} />}
        {msgs.length === 0 ? (defaults && !defaults.channel
          ? <EmptyState text={t('cp.noChannel')} action={<PageButton page="channels" testid="chat-to-channels">{t('cp.toChannels')}</PageButton>} />
          : <p class="muted" data-testid="chat-empty">{t('cp.empty')}</p>)
          : <div class="chat-scroll">
            <ol class="chat-list" data-testid="chat-messages" ref={el => { follow.list.current = el }} onScroll={follow.onScroll}>
              {msgs.map(m => <MessageRow key={m.key} m={m} open={open === m.key} lang={lang.get()} view={view} onWhy={toggleWhy} {...(m.live ? { liveRef: (el: HTMLElement | null) => { live.current = el } } : {})} />)}
            </ol>
            {follow.away && <button type="button" class="chat-below" data-testid="chat-new-below" onClick={follow.jump}>{t(follow.unseen ? 'cp.newBelow' : 'cp.toNewest')}</button>}
          </div>}
        <form class="chat-input" onSubmit={e => { e.preventDefault(); void send() }}>
          <label for="chat-input" class="sr-only">{t('cp.input')}</label>
          <textarea id="chat-input" data-testid="chat-input" rows={3} value={input} placeholder={t('cp.placeholder')}
            onInput={e => setInput((e.target as HTMLTextAreaElement).value)}
            onKeyDown={e => { if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) { e.preventDefault(); void send() } }} />
          <div class="row">
            <button type="submit" class="primary" data-testid="chat-send" disabled={busy || !input.trim()} aria-busy={busy || undefined}>{busy ? t('cp.sending') : t('cp.send')}</button>
            {busy && <button type="button" data-testid="chat-stop" onClick={() => abort.current?.abort()}>{t('cp.stop')}</button>}
          </div>
        </form>
      </Card>
    </div>
  </div>
}
