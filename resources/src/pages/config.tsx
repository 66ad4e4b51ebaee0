import { useState } from 'preact/hooks'
import { api, BASE, errText, session } from '../api'
import { t } from '../i18n'
import type { Config, ConfigSection, GroupView, ImportResult } from '../contracts'
import { ObjectForm } from '../form'
import { Act, Card, ErrorBox, View, toast, useLoad } from '../ui'

/** Allowed values of the enum settings (the server's schema refuses anything else). */
const CHOICES: Record<string, Record<string, readonly string[]>> = {
  trigger: { private: ['always', 'prefix', 'off'], group: ['at', 'prefix', 'both', 'off'] },
  context: { cleaningStrategy: ['sliding', 'truncate', 'summarize'], compressionStrategy: ['summarize', 'truncate', 'sliding-window'] }
}

function Section ({ name }: { name: 'trigger' | 'context' }) {
  const load = useLoad<Config[typeof name]>(`/api/config/${name}`)
  return <Card title={t(name)}>
    <View load={load} isEmpty={() => false}>{d => <ObjectForm key={JSON.stringify(d)} testid={`section-${name}`} value={d} choices={CHOICES[name]}
      onSave={async v => { await api('/api/config', { method: 'PUT', json: { [name]: v } }); load.reload() }} />}</View>
  </Card>
}

function Group () {
  const [gid, setGid] = useState('')
  const [loaded, setLoaded] = useState<GroupView | null>(null)
  const [error, setError] = useState<string | null>(null)
  const open = async (): Promise<void> => {
    setError(null); setLoaded(null)
    try { setLoaded(await api<GroupView>(`/api/config/groups/${encodeURIComponent(gid)}`)) } catch (e) { setError(errText(e)) }
  }
  return <Card title={t('group')}>
    <div class="row"><input data-testid="group-id" placeholder={t('groupId')} value={gid} onInput={e => setGid((e.target as HTMLInputElement).value)} />
      <button data-testid="group-open" onClick={open} disabled={!gid}>{t('view')}</button></div>
    {error && <ErrorBox error={error} />}
    {loaded && <ObjectForm key={gid} testid="group-form" value={{ preset: loaded.preset, enabled: loaded.enabled, trigger: loaded.trigger }}
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
      const r = await api<ImportResult>('/api/config/import', { body: text, headers: { 'Content-Type': 'text/yaml' } })
      toast(`${t('saved')} (${r.changes})`)
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
