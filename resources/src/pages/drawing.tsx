import { useState } from 'preact/hooks'
import { api } from '../api'
import { t, tv } from '../i18n'
import { SettingsForm, type SettingsField } from '../form-engine'
import type { ImageApi, ImageConfig, ImagePresets } from '../contracts'
import { Act, Card, EmptyState, Table, View, confirmDanger, useLoad } from '../ui'

/** The drawing settings GET/PUT /api/image/config take (the image section but its APIs, listed below). */
const FIELDS: SettingsField[] = (['enabled', 'model', 'videoModel', 'timeout', 'maxImages', 'sendMode', 'remotePresetsUrl'] as const).map(k => ({ path: `image.${k}` }))

export default function Drawing () {
  const config = useLoad<ImageConfig>('/api/image/config')
  const presets = useLoad<ImagePresets>('/api/image/presets')
  const apis = useLoad<ImageApi[]>('/api/image/apis')
  const [p, setP] = useState({ keywords: '', prompt: '', needImage: false })
  const [a, setA] = useState({ name: '', baseUrl: '', apiKey: '', models: '' })
  return <div>
    <Card title={t('config')}>
      <View load={config} isEmpty={() => false}>{d => <SettingsForm key={JSON.stringify(d)} testid="image-config" sections={[{ fields: FIELDS }]} root="image" resets={false}
        read={f => d[f.path.slice('image.'.length) as keyof typeof d]} onSave={async v => { await api('/api/image/config', { method: 'PUT', json: v }); config.reload() }} />}</View>
    </Card>
    <Card title={t('presets')} extra={<Act run={async () => { await api('/api/image/presets/refresh', { method: 'POST' }); presets.reload() }}>{t('refresh')}</Act>}>
      <div class="row">
        <input data-testid="draw-keywords" aria-label={t('keywords')} placeholder={t('keywordsHint')} value={p.keywords} onInput={e => setP({ ...p, keywords: (e.target as HTMLInputElement).value })} />
        <input data-testid="draw-prompt" aria-label={t('promptField')} placeholder={t('promptField')} value={p.prompt} onInput={e => setP({ ...p, prompt: (e.target as HTMLInputElement).value })} />
        <label>{t('needImage')}<input type="checkbox" checked={p.needImage} onChange={e => setP({ ...p, needImage: (e.target as HTMLInputElement).checked })} /></label>
        <Act kind="primary" testid="draw-add" run={async () => { await api('/api/image/presets/custom', { json: { ...p, keywords: p.keywords.split(',').map(s => s.trim()).filter(Boolean) } }); presets.reload() }}>{t('add')}</Act>
      </div>
      <View load={presets} isEmpty={() => false}>{d => <Table cols={['ID', t('keywords'), t('promptField'), '']}
        rows={[...d.custom.map(x => [x.uid, x.keywords.join(', '), x.prompt,
          <Act kind="danger" testid={`draw-delete-${x.keywords[0] ?? x.uid}`} run={async () => {
            if (!await confirmDanger(tv('cf.delDrawPreset', { name: x.keywords.join(', ') || x.uid }))) return
            await api(`/api/image/presets/custom/${encodeURIComponent(x.uid)}`, { method: 'DELETE' }); presets.reload()
          }}>{t('delete')}</Act>]),
        ...d.builtin.map(x => [x.uid, x.keywords.join(', '), x.prompt, <span class="muted">{t('builtin')}</span>])]} />}</View>
    </Card>
    <Card title={t('apis')}>
      <p class="muted">{t('apisHint')}</p>
      <View load={apis} empty={<EmptyState text={t('es.imageApis')} />}>{d => <Table cols={['#', t('name'), 'Base URL', 'API key', t('models'), t('enabled'), '']} rows={d.map((a, i) => [i + 1,
        a.name ?? '', <code>{a.baseUrl}</code>, <code>{a.apiKey ?? ''}</code>, (a.models ?? []).join(', '),
        <input type="checkbox" aria-label={tv('dr.enableApi', { name: a.name || a.baseUrl })} checked={a.enabled !== false} onChange={async e => { await api(`/api/image/apis/${i}`, { method: 'PUT', json: { ...a, enabled: (e.target as HTMLInputElement).checked } }); apis.reload() }} />,
        <Act kind="danger" testid={`image-api-delete-${i}`} run={async () => {
          if (!await confirmDanger(tv('cf.delImageApi', { name: a.name || a.baseUrl }))) return
          await api(`/api/image/apis/${i}`, { method: 'DELETE' }); apis.reload()
        }}>{t('delete')}</Act>])} />}</View>
      <div class="form" data-testid="image-api-form">
        <label>{t('name')}<input name="name" value={a.name} onInput={e => setA({ ...a, name: (e.target as HTMLInputElement).value })} /></label>
        <label>Base URL<input name="baseUrl" placeholder="https://api.openai.com/v1" value={a.baseUrl} onInput={e => setA({ ...a, baseUrl: (e.target as HTMLInputElement).value })} /></label>
        <label>API key<input name="apiKey" type="password" autocomplete="off" value={a.apiKey} onInput={e => setA({ ...a, apiKey: (e.target as HTMLInputElement).value })} /></label>
        <label>{t('models')}<input name="models" placeholder="gpt-image-1" value={a.models} onInput={e => setA({ ...a, models: (e.target as HTMLInputElement).value })} /></label>
      </div>
      <Act kind="primary" testid="image-api-add" run={async () => {
        await api('/api/image/apis', { json: { ...(a.name ? { name: a.name } : {}), baseUrl: a.baseUrl, ...(a.apiKey ? { apiKey: a.apiKey } : {}), models: a.models.split(',').map(m => m.trim()).filter(Boolean), enabled: true } })
        setA({ name: '', baseUrl: '', apiKey: '', models: '' }); apis.reload()
      }}>{t('add')}</Act>
    </Card>
  </div>
}
