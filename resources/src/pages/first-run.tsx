// The overview's first-run guide, from "no channel" to "the bot answered": add a channel, test it, send a
// message on the chat page. Each step is checked from the API's state (the channels' list and health, the
// recorded replies), not from clicks. Shown while a step is open; once every step is done, a bot that was
// set up through the guide says so until the owner hides it; an already running bot never sees it.
import type { ComponentChildren } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { api, errText } from '../api'
import type { ChannelView, StatsSummary } from '../contracts'
import { t, tv } from '../i18n'
import { Act, Card, PageButton, toast } from '../ui'

const KEY = 'lingxi.firstRun'
interface Steps { channel: ChannelView | undefined, tested: boolean, answered: boolean }

async function check (): Promise<Steps> {
  const [channels, stats] = await Promise.all([api<ChannelView[]>('/api/config/channels'), api<StatsSummary>('/api/stats?period=all')])
  const answered = (stats.summary?.aiResponses ?? 0) > 0
  const tested = channels.some(c => c.status === 'active' && !!c.lastUsed)
  // the channel to test: an enabled one with a model first
  const channel = channels.find(c => c.enabled !== false && !!c.model) ?? channels[0]
  // a bot that answered has a working channel, whether or not this process has tested one
  return { channel, tested: tested || answered, answered }
}

export function FirstRun () {
  const [steps, setSteps] = useState<Steps | null>(null)
  const [n, setN] = useState(0)
  const [seen, setSeen] = useState(() => localStorage.getItem(KEY))
  useEffect(() => { check().then(setSteps, () => setSteps(null)) }, [n])
  const done = !!steps?.channel && !!steps?.tested && !!steps?.answered
  // a step is open: the guide stays until it is hidden, so that its "done" is seen
  useEffect(() => { if (steps && !done && !seen) { localStorage.setItem(KEY, 'open'); setSeen('open') } }, [steps, done, seen])
  if (!steps || seen === 'hidden' || (done && seen !== 'open')) return null
  const hide = (): void => { localStorage.setItem(KEY, 'hidden'); setSeen('hidden') }
  const list: Array<{ id: string, ok: boolean, text: string, action: ComponentChildren }> = [
    { id: 'channel', ok: !!steps.channel, text: t('fr.channel'), action: <PageButton page="channels" testid="fr-add-channel">{t('fr.addChannel')}</PageButton> },
    {
      id: 'test', ok: steps.tested, text: steps.channel ? tv('fr.testNamed', { name: steps.channel.name }) : t('fr.test'),
      action: steps.channel && <Act kind="primary" testid="fr-test" run={async () => {
        try {
          await api(`/api/config/channels/${encodeURIComponent(steps.channel!.name)}/test`, { json: {} })
          toast(t('fr.testOk'))
        } catch (e) { toast(`${t('fr.testFailed')}${t('bs.colon')}${errText(e)}`, true) }
        setN(x => x + 1)
      }}>{t('fr.testNow')}</Act>
    },
    { id: 'chat', ok: steps.answered, text: t('fr.chat'), action: <PageButton page="chat" testid="fr-open-chat">{t('fr.openChat')}</PageButton> }
  ]
  const next = list.find(s => !s.ok)
  return <Card title={t('fr.title')} testid="first-run" extra={done && <button data-testid="fr-hide" onClick={hide}>{t('fr.hide')}</button>}>
    <ol class="steps">{list.map((s, i) => <li key={s.id} data-testid={`fr-step-${s.id}`} data-done={String(s.ok)} class={s.ok ? 'done' : s === next ? 'next' : ''}>
      <span class="step-mark" aria-hidden="true">{s.ok ? '✓' : i + 1}</span>
      <span class="step-text">{s.text}<span class="sr-only">{t(s.ok ? 'fr.stepDone' : 'fr.stepOpen')}</span></span>
      {s === next && s.action}
    </li>)}</ol>
    {done
      ? <p class="ok" data-testid="fr-done" role="status">{t('fr.done')}</p>
      : <button class="link" data-testid="fr-recheck" onClick={() => setN(x => x + 1)}>{t('fr.recheck')}</button>}
  </Card>
}
