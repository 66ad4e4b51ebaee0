// Active contexts and the quick test (issue 21): the conversations the chat pipeline holds in memory
// (GET /api/context/list, clear with POST /api/context/clear after a confirmation naming it) and one
// test message through a channel (POST /api/test-panel/quick-test, SSE frames start, result | error).
import { useState } from 'preact/hooks'
import { api, errText, sse } from '../api'
import type { ChannelView } from '../contracts'
import { lang, t, tv } from '../i18n'
import { Card, ErrorBox, Table, View, confirmDanger, toast, useLoad } from '../ui'

interface ActiveContext { conversationId: string, userId: string, groupId: string, turns: number, processing: boolean, lastActiveAt: number }
interface QuickResult { success: boolean, model: string, elapsed: number, response?: string, error?: string }

function Active () {
  const list = useLoad<ActiveContext[]>('/api/context/list')
  const clear = async (c: ActiveContext): Promise<void> => {
    if (!await confirmDanger(tv('ct.confirmClear', { name: c.conversationId }))) return
    try {
      await api('/api/context/clear', { json: { conversationId: c.conversationId } })
      toast(tv('ct.cleared', { name: c.conversationId }))
    } catch (e) { toast(errText(e), true) }
    list.reload()
  }
  return <Card title={t('ct.active')} testid="ct-active" extra={<button data-testid="ct-refresh" onClick={list.reload}>{t('refresh')}</button>}>
    <p class="muted">{t('ct.hint')}</p>
    <View load={list} empty={<p class="muted" data-testid="ct-empty">{t('ct.none')}</p>}>{rows => <Table
      cols={[t('ct.conversation'), t('ct.user'), t('ct.group'), t('ct.messages'), t('ct.lastActive'), t('actions')]}
      rows={rows.map(c => [<code data-testid={`ct-row-${c.conversationId}`}>{c.conversationId}</code>, c.userId, c.groupId || '-', c.turns,
        new Date(c.lastActiveAt).toLocaleString(lang.get() === 'zh' ? 'zh-CN' : 'en'),
        <button class="danger" data-testid={`ct-clear-${c.conversationId}`} aria-label={`${t('ct.clear')} ${c.conversationId}`} onClick={() => clear(c)}>{t('ct.clear')}</button>])} />}</View>
  </Card>
}

function QuickTest () {
  const channels = useLoad<ChannelView[]>('/api/config/channels')
  const [channel, setChannel] = useState('')
  const [model, setModel] = useState('')
  const [message, setMessage] = useState('Say hello')
  const [busy, setBusy] = useState(false)
  const [result, setResult] = useState<QuickResult | null>(null)
  const [error, setError] = useState<string | null>(null)
  const run = async (list: ChannelView[]): Promise<void> => {
    const ch = list.find(c => c.name === channel) ?? list[0]
    if (!ch) return
    setBusy(true); setError(null); setResult(null)
    try {
      await sse('/api/test-panel/quick-test', { json: { channelId: ch.id, ...(model.trim() ? { model: model.trim() } : {}), message } }, ({ event, data }) => {
        if (event === 'result' || event === 'error') setResult(data as QuickResult)
      })
    } catch (e) { setError(errText(e)) } finally { setBusy(false) }
  }
  return <Card title={t('ct.quick')} testid="ct-quick">
    <p class="muted">{t('ct.quickHint')}</p>
    <View load={channels} empty={<p class="muted">{t('ct.noChannel')}</p>}>{list => <>
      <div class="form">
        <div class="field"><label for="ct-channel">{t('ct.channel')}</label>
          <select id="ct-channel" data-testid="ct-channel" value={channel || list[0]?.name} onChange={e => setChannel((e.target as HTMLSelectElement).value)}>
            {list.map(c => <option key={c.name} value={c.name}>{c.name}{c.model ? ` (${c.model})` : ''}</option>)}</select></div>
        <div class="field"><label for="ct-model">{t('ct.model')}</label>
          <input id="ct-model" data-testid="ct-model" value={model} onInput={e => setModel((e.target as HTMLInputElement).value)} /></div>
        <div class="field" style={{ gridColumn: '1 / -1' }}><label for="ct-message">{t('ct.message')}</label>
          <input id="ct-message" data-testid="ct-message" value={message} maxLength={4000} onInput={e => setMessage((e.target as HTMLInputElement).value)} /></div>
      </div>
      <button class="primary" data-testid="ct-send" disabled={busy || !message.trim()} aria-busy={busy} onClick={() => run(list)}>{t('ct.send')}</button>
    </>}</View>
    {error && <ErrorBox error={error} />}
    {result && <div data-testid="ct-result" data-success={String(result.success)} role="status">
      <p><b class={result.success ? 'ok' : 'bad'}>{result.success ? t('success') : t('failed')}</b> · {result.model} · {result.elapsed} ms</p>
      {result.success ? <pre data-testid="ct-answer" tabIndex={0} role="region" aria-label={t('ct.answer')}>{result.response}</pre> : <ErrorBox error={result.error ?? ''} />}
    </div>}
  </Card>
}

export default function Contexts () {
  return <div>
    <Active />
    <QuickTest />
  </div>
}
