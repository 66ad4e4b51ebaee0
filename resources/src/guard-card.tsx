// The overview's account-risk card: the chats the guard (GET /api/guard) does not see as normal, with
// their figure against the threshold, state and main signals; refreshed every 30 s.
import { useEffect } from 'preact/hooks'
import { t } from './i18n'
import { Card, Table, View, useLoad } from './ui'

type Signal = 'perMinute' | 'perHour' | 'long' | 'repeats' | 'links' | 'failures'
interface ChatRisk {
  chat: string, kind: 'group' | 'private', state: 'normal' | 'guarded' | 'cooling', risk: number, riskAt: number,
  signals: Record<Signal, number>, reasons: Signal[], since?: number
}

const fill = (text: string, vars: Record<string, string | number>): string => text.replace(/\{(\w+)\}/g, (m, k: string) => (vars[k] !== undefined ? String(vars[k]) : m))
const chatName = (c: ChatRisk): string => (c.kind === 'private' ? t('gd.private') : fill(t('gd.group'), { id: c.chat }))

function Figure ({ c }: { c: ChatRisk }) {
  const cls = c.risk >= c.riskAt ? 'bad' : c.state !== 'normal' ? '' : 'ok'
  return <div style={{ minWidth: '8rem' }}>
    <b class={cls} data-testid="guard-risk">{c.risk}</b><span class="muted">/100 ({fill(t('gd.threshold'), { n: c.riskAt })})</span>
    <div class="bar"><div style={{ width: `${c.risk}%`, background: c.risk >= c.riskAt ? 'var(--err)' : undefined }} /></div>
  </div>
}

export function GuardCard () {
  const load = useLoad<ChatRisk[]>('/api/guard')
  const { reload } = load
  useEffect(() => {
    const timer = setInterval(reload, 30_000)
    return () => clearInterval(timer)
  }, [reload])
  return <Card title={t('gd.title')} testid="guard-card" extra={<button onClick={reload}>{t('refresh')}</button>}>
    <p class="muted">{t('gd.hint')}</p>
    <View load={load} isEmpty={() => false}>{list => {
      const atRisk = list.filter(c => c.state !== 'normal')
      if (!atRisk.length) return <div class="ok" data-testid="guard-clear">{fill(t('gd.allClear'), { n: list.length })}</div>
      return <Table cols={[t('gd.chat'), t('gd.risk'), t('gd.state'), t('gd.signals'), t('gd.since')]} rows={atRisk.map(c => [
        <span data-testid="guard-chat">{chatName(c)}</span>,
        <Figure c={c} />,
        <b class={c.state === 'guarded' ? 'bad' : ''} data-testid="guard-state">{t(`gd.${c.state}`)}</b>,
        c.reasons.map(r => fill(t(`gd.${r}`), { n: c.signals[r] })).join(' · ') || '-',
        c.since ? new Date(c.since).toLocaleTimeString() : '-'
      ])} />
    }}</View>
  </Card>
}
