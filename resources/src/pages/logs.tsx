import { useEffect, useRef, useState } from 'preact/hooks'
import { api, errText } from '../api'
import { locale, t } from '../i18n'
import type { LogList, ToolLogList } from '../contracts'
import { Card, EmptyState, ErrorBox, Table, View, useLoad, word } from '../ui'

type Entry = LogList['logs'][number]

export default function Logs () {
  const [level, setLevel] = useState('')
  const [entries, setEntries] = useState<Entry[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [paused, setPaused] = useState(false)
  const pausedRef = useRef(paused)
  pausedRef.current = paused
  // Live tail: poll the newest entries every 2 s (the log API has no stream of its own).
  useEffect(() => {
    let live = true
    const tick = async (): Promise<void> => {
      if (pausedRef.current) return
      try {
        const d = await api<LogList>(`/api/logs?limit=200${level ? `&level=${level}` : ''}`)
        if (live) { setEntries(d.logs); setError(null) }
      } catch (e) { if (live) setError(errText(e)) }
    }
    void tick()
    const timer = setInterval(tick, 2000)
    return () => { live = false; clearInterval(timer) }
  }, [level])
  const tools = useLoad<ToolLogList>('/api/logs/tools?limit=50')
  return <div>
    <Card title={t('logs')} extra={<>
      <select data-testid="log-level" aria-label={t('level')} value={level} onChange={e => setLevel((e.target as HTMLSelectElement).value)}>
        <option value="">{t('all')}</option>{['error', 'warn', 'info', 'debug'].map(l => <option key={l} value={l}>{t(`lv.${l}`)}</option>)}</select>
      <button data-testid="log-pause" aria-pressed={paused} onClick={() => setPaused(!paused)}>{paused ? t('resume') : t('pause')}</button></>}>
      {error && <ErrorBox error={error} />}
      {entries === null ? <p class="muted">{t('loading')}</p> : <div data-testid="log-lines"><Table cols={[t('time'), t('level'), t('message')]}
        rows={entries.map(e => [new Date(e.timestamp).toLocaleTimeString(locale()), <span class={`log-${e.level}`}>{t(`lv.${e.level}`)}</span>,
          <span>{e.message}{e.meta && Object.keys(e.meta).length ? <code class="muted"> {JSON.stringify(e.meta).slice(0, 200)}</code> : null}</span>])} /></div>}
    </Card>
    <Card title={t('toolLogs')}>
      <View load={tools} isEmpty={d => d.logs.length === 0} empty={<EmptyState text={t('es.toolLogs')} />}>{d => <Table cols={[t('time'), t('toolsShort'), t('status'), t('elapsed') + ' (ms)']}
        rows={d.logs.map(l => [new Date(l.timestamp).toLocaleTimeString(locale()), l.toolName, <span class={l.status === 'success' ? 'ok' : 'bad'}>{word(l.status)}</span>, l.duration])} />}</View>
    </Card>
  </div>
}
