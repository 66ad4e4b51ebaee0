import { useState } from 'preact/hooks'
import { api, BASE, errText, session } from '../api'
import { t } from '../i18n'
import { ObjectForm } from '../form'
import { Act, Card, ErrorBox, View, toast, useLoad } from '../ui'

/** Allowed values of the enum settings (the server's schema refuses anything else). */
const CHOICES: Record<string, Record<string, readonly string[]>> = {
  trigger: { private: ['always', 'prefix', 'off'], group: ['at', 'prefix', 'both', 'off'] },
  context: { cleaningStrategy: ['sliding', 'truncate', 'summarize'], compressionStrategy: ['summarize', 'truncate', 'sliding-window'] }
}

function Section ({ name }: { name: string }) {
  const load = useLoad<Record<string, any>>(`/api/config/${name}`)
  return <Card title={t(name)}>
    <View load={load} isEmpty={() => false}>{d => <ObjectForm key={JSON.stringify(d)} testid={`section-${name}`} value={d} choices={CHOICES[name]}
      onSave={async v => { await api('/api/config', { method: 'PUT', json: { [name]: v } }); load.reload() }} />}</View>
  </Card>
}

function Group () {
  const [gid, setGid] = useState('')
  const [loaded, setLoaded] = useState<Record<string, any> | null>(null)
  const [error, setError] = useState<string | null>(null)
  const open = async (): Promise<void> => {
    setError(null); setLoaded(null)
    try { setLoaded(await api(`/api/config/groups/${encodeURIComponent(gid)}`)) } catch (e) { setError(errText(e)) }
  }
  return <Card title={t('group')}>
    <div class="row"><input data-testid="group-id" placeholder={t('groupId')} value={gid} onInput={e => setGid((e.target as HTMLInputElement).value)} />
      <button data-testid="group-open" onClick={open} disabled={!gid}>{t('view')}</button></div>
    {error && <ErrorBox error={error} />}
    {loaded && <ObjectForm key={gid} testid="group-form" value={{ preset: loaded.preset ?? '', enabled: loaded.enabled ?? true, trigger: loaded.trigger ?? {} }}
      onSave={v => api(`/api/config/groups/${encodeURIComponent(gid)}`, { method: 'PUT', json: v })} />}
  </Card>
}

function Yaml () {
  const [text, setText] = useState('')
  const [error, setError] = useState<string | null>(null)
  const exportYaml = async (): Promise<void> => {
    const res = await fetch(`${BASE}/api/config/export`, { headers: { Authorization: `Bearer ${session.token() ?? ''}` } })
    const body = await res.text()
    if (!res.ok) { let m = body; try { m = JSON.parse(body).message } catch { /* text */ } throw new Error(m) }
    setText(body)
  }
  const importYaml = async (): Promise<void> => {
    setError(null)
    try {
      const r = await api('/api/config/import', { body: text, headers: { 'Content-Type': 'text/yaml' } })
      toast(`${t('saved')} (${r?.changes ?? 0})`)
    } catch (e) { setError(errText(e)) }
  }
  return <Card title="YAML" extra={<><Act run={exportYaml} testid="yaml-export">{t('export')}</Act><button data-testid="yaml-import" onClick={importYaml}>{t('import')}</button>
    <Act run={async () => { await api('/api/config/reload', { method: 'POST' }) }} done={t('saved')}>{t('reload')}</Act></>}>
    <textarea data-testid="yaml-text" rows={14} value={text} onInput={e => setText((e.target as HTMLTextAreaElement).value)} />
    {error && <ErrorBox error={error} />}
  </Card>
}

export default function Config () {
  return <div><Section name="trigger" /><Section name="context" /><Group /><Yaml /></div>
}
