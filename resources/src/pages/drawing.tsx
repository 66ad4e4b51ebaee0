import { useState } from 'preact/hooks'
import { api } from '../api'
import { t } from '../i18n'
import { ObjectForm } from '../form'
import { Act, Card, Table, View, asArray, fmt, useLoad } from '../ui'

export default function Drawing () {
  const config = useLoad('/api/image/config')
  const presets = useLoad('/api/image/presets')
  const apis = useLoad('/api/image/apis')
  const [p, setP] = useState({ keywords: '', prompt: '', needImage: false })
  const [apiText, setApiText] = useState('{}')
  return <div>
    <Card title={t('config')}>
      <View load={config} isEmpty={() => false}>{d => <ObjectForm key={JSON.stringify(d)} testid="image-config" value={d}
        onSave={async v => { await api('/api/image/config', { method: 'PUT', json: v }); config.reload() }} />}</View>
    </Card>
    <Card title={t('presets')} extra={<Act run={async () => { await api('/api/image/presets/refresh', { method: 'POST' }); presets.reload() }}>{t('refresh')}</Act>}>
      <div class="row">
        <input data-testid="draw-keywords" placeholder={t('keywordsHint')} value={p.keywords} onInput={e => setP({ ...p, keywords: (e.target as HTMLInputElement).value })} />
        <input data-testid="draw-prompt" placeholder={t('promptField')} value={p.prompt} onInput={e => setP({ ...p, prompt: (e.target as HTMLInputElement).value })} />
        <label>{t('needImage')}<input type="checkbox" checked={p.needImage} onChange={e => setP({ ...p, needImage: (e.target as HTMLInputElement).checked })} /></label>
        <Act kind="primary" testid="draw-add" run={async () => { await api('/api/image/presets/custom', { json: { ...p, keywords: p.keywords.split(',').map(s => s.trim()).filter(Boolean) } }); presets.reload() }}>{t('add')}</Act>
      </div>
      <View load={presets} isEmpty={() => false}>{d => <Table cols={['uid', t('keywords'), t('promptField'), '']}
        rows={[...asArray(d?.custom).map((x: any) => [x.uid, (x.keywords ?? []).join(', '), x.prompt,
          <Act kind="danger" testid={`draw-delete-${(x.keywords ?? [])[0] ?? x.uid}`} run={async () => { await api(`/api/image/presets/custom/${encodeURIComponent(x.uid)}`, { method: 'DELETE' }); presets.reload() }}>{t('delete')}</Act>]),
        ...asArray(d?.builtin).map((x: any) => [x.uid, (x.keywords ?? []).join(', '), x.prompt, 'builtin'])]} />}</View>
    </Card>
    <Card title={t('apis')}>
      <View load={apis}>{d => <Table cols={['#', t('apis'), '']} rows={asArray(d, 'apis').map((a: any, i) => [i, <pre>{fmt(a)}</pre>,
        <Act kind="danger" run={async () => { await api(`/api/image/apis/${i}`, { method: 'DELETE' }); apis.reload() }}>{t('delete')}</Act>])} />}</View>
      <textarea rows={4} value={apiText} onInput={e => setApiText((e.target as HTMLTextAreaElement).value)} />
      <Act run={async () => { await api('/api/image/apis', { json: JSON.parse(apiText) }); apis.reload() }}>{t('add')}</Act>
    </Card>
  </div>
}
