// Voice replies (issue 19, text to speech): the `tts` settings (GET/PUT /api/config/tts; the key comes
// masked and a masked key sent back keeps the stored one), one group's override (groups.<id>.tts through
// /api/config/groups/:groupId) and the presets' voice fields (PUT /api/presets/:id { voice }).
import { useState } from 'preact/hooks'
import { api, errText } from '../api'
import type { Config, PresetList, PresetView } from '../contracts'
import { useGroupEditor } from '../group-editor'
import { t } from '../i18n'
import { getAt, SettingsForm, type SettingsField as Field } from '../form-engine'
import { Act, Card, ErrorBox, toast, View, useLoad } from '../ui'

const FIELDS: Field[] = [
  { path: 'tts.mode', group: 'tts.mode' },
  { path: 'tts.baseUrl' },
  { path: 'tts.apiKey' },
  { path: 'tts.model' },
  { path: 'tts.voice', group: 'tts.voice' },
  { path: 'tts.speed', group: 'tts.speed' },
  { path: 'tts.format' },
  { path: 'tts.maxChars', group: 'tts.maxChars' },
  { path: 'tts.timeoutMs' }
]

function GroupVoice ({ cfg }: { cfg: Config }) {
  const { gid, setGid, view, error, open, save } = useGroupEditor()
  return <Card title={t('tts.card.group')} testid="tts-group">
    <p class="muted">{t('bs.groupHint')}</p>
    <div class="row">
      <input data-testid="tts-gid" aria-label={t('groupId')} placeholder={t('groupId')} inputmode="numeric" value={gid}
        onInput={e => setGid((e.target as HTMLInputElement).value)} onKeyDown={e => { if (e.key === 'Enter' && gid.trim()) void open() }} />
      <button data-testid="tts-gopen" onClick={open} disabled={!gid.trim()}>{t('bs.groupOpen')}</button>
    </div>
    {error && <ErrorBox error={error} />}
    {view && <SettingsForm key={`${view.groupId}:${JSON.stringify(view.overrides)}`} testid="tts-gform" sections={[{ fields: FIELDS.filter(f => f.group) }]}
      read={f => getAt(view.overrides, f.group!)} inherited={f => getAt(cfg, f.path)}
      onSave={save} />}
  </Card>
}

function PresetVoice ({ p, onSaved }: { p: PresetView, onSaved: () => void }) {
  const [voice, setVoice] = useState(p.voice)
  const [error, setError] = useState<string | null>(null)
  const id = `pv-${p.id}`
  const save = async (): Promise<void> => {
    setError(null)
    try {
      await api(`/api/presets/${encodeURIComponent(p.id)}`, { method: 'PUT', json: { voice } })
      toast(t('saved')); onSaved()
    } catch (e) { setError(errText(e)) }
  }
  return <div class="form" data-testid={id}>
    <h4>{p.name} <code>{p.id}</code>{p.isBuiltin && <span class="muted"> · {t('tts.builtin')}</span>}</h4>
    <div class="field"><label for={`${id}-on`}>{t('tts.voiceOn')}</label>
      <input id={`${id}-on`} name="enabled" type="checkbox" disabled={p.isBuiltin} checked={voice.enabled} onChange={e => setVoice(v => ({ ...v, enabled: (e.target as HTMLInputElement).checked }))} /></div>
    <div class="field"><label for={`${id}-voice`}>{t('tts.voiceId')}</label>
      <input id={`${id}-voice`} name="voiceId" disabled={p.isBuiltin} value={voice.voiceId} onInput={e => setVoice(v => ({ ...v, voiceId: (e.target as HTMLInputElement).value.trim() }))} /></div>
    <div class="field"><label for={`${id}-speed`}>{t('tts.speed')}</label>
      <input id={`${id}-speed`} name="speed" type="text" inputmode="decimal" disabled={p.isBuiltin} value={String(voice.speed)}
        onInput={e => { const n = Number((e.target as HTMLInputElement).value); if (Number.isFinite(n) && n > 0) setVoice(v => ({ ...v, speed: n })) }} /></div>
    {error && <ErrorBox error={error} />}
    {!p.isBuiltin && <Act testid={`${id}-save`} run={save}>{t('save')}</Act>}
  </div>
}

export default function Voice () {
  const load = useLoad<Config>('/api/config')
  const presets = useLoad<PresetList>('/api/presets?type=all')
  return <View load={load} isEmpty={() => false}>{cfg => <div>
    <p class="muted">{t('tts.hint')}</p>
    <Card title={t('tts.card.settings')} testid="tts-card">
      <SettingsForm key={JSON.stringify(cfg.tts)} testid="tts-form" sections={[{ fields: FIELDS }]} read={f => getAt(cfg, f.path)}
        onSave={async patch => { await api('/api/config/tts', { method: 'PUT', json: (patch as { tts: unknown }).tts }); load.reload() }} />
    </Card>
    <GroupVoice cfg={cfg} />
    <Card title={t('tts.card.presets')} testid="tts-presets">
      <p class="muted">{t('tts.presetsHint')}</p>
      <View load={presets} isEmpty={d => d.presets.length === 0}>{d => <div>
        {d.presets.map(p => <PresetVoice key={`${p.id}:${JSON.stringify(p.voice)}`} p={p} onSaved={presets.reload} />)}
      </div>}</View>
    </Card>
  </div>}</View>
}
