// Web tools (issue 19): the search providers of web_search (type, address, keys, order, on/off) and the
// limits of web_search and fetch_url, in the `webTools` configuration section (GET/PUT /api/config). Keys
// come masked; a masked key sent back keeps the stored one (matched by provider name and position).
import { useState } from 'preact/hooks'
import { api, errText } from '../api'
import type { Config } from '../contracts'
import { t } from '../i18n'
import { getAt, SettingsForm, type SettingsField as Field } from '../form-engine'
import { Card, ErrorBox, toast, View, useLoad } from '../ui'

type Provider = Config['webTools']['search']['providers'][number]
type ProviderType = Provider['type']
const TYPES: ProviderType[] = ['searxng', 'tavily', 'bing', 'brave']

const SEARCH: Field[] = [
  { path: 'webTools.search.maxResults' },
  { path: 'webTools.search.snippetChars' },
  { path: 'webTools.search.timeoutMs' },
  { path: 'webTools.search.keyCooldownMs' }
]
const FETCH: Field[] = [
  { path: 'webTools.fetch.allowPrivate' },
  { path: 'webTools.fetch.maxBytes' },
  { path: 'webTools.fetch.maxChars' },
  { path: 'webTools.fetch.timeoutMs' },
  { path: 'webTools.fetch.maxRedirects' },
  { path: 'webTools.fetch.userAgent' }
]

const blank = (n: number): Provider => ({ name: `search-${n}`, type: 'searxng', baseUrl: '', apiKeys: [], enabled: true, order: 0 })

function Providers ({ initial, onSaved }: { initial: Provider[], onSaved: () => void }) {
  const [list, setList] = useState<Provider[]>(initial)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const patch = (i: number, p: Partial<Provider>): void => setList(l => l.map((x, j) => j === i ? { ...x, ...p } : x))
  const setKey = (i: number, k: number, key: string): void => patch(i, { apiKeys: list[i]!.apiKeys.map((x, j) => j === k ? { ...x, key } : x) })
  const save = async (): Promise<void> => {
    setBusy(true); setError(null)
    try {
      // empty key rows are dropped rather than refused
      const providers = list.map(p => ({ ...p, apiKeys: p.apiKeys.filter(k => k.key.trim()) }))
      await api('/api/config/webTools', { method: 'PUT', json: { search: { providers } } })
      toast(t('saved'))
      onSaved()
    } catch (e) { setError(errText(e)) } finally { setBusy(false) }
  }
  return <div data-testid="wt-providers">
    <p class="muted">{t('wt.providersHint')}</p>
    {list.length === 0 && <p class="muted" data-testid="wt-none">{t('wt.none')}</p>}
    {list.map((p, i) => {
      const id = `wt-p${i}`
      return <div key={i} data-testid={`wt-provider-${i}`}>
        <h4>{`${i + 1}. ${p.name}`}{p.enabled ? '' : ` (${t('st_disabled')})`}</h4>
        <div class="form">
        <div class="field"><label for={`${id}-name`}>{t('name')}</label>
          <input id={`${id}-name`} name="name" value={p.name} onInput={e => patch(i, { name: (e.target as HTMLInputElement).value })} />
          <small class="help">{t('wt.nameHelp')}</small></div>
        <div class="field"><label for={`${id}-type`}>{t('type')}</label>
          <select id={`${id}-type`} name="type" value={p.type} onChange={e => patch(i, { type: (e.target as HTMLSelectElement).value as ProviderType })}>
            {TYPES.map(ty => <option key={ty} value={ty}>{t(`wt.type.${ty}`)}</option>)}
          </select>
          <small class="help">{t(`wt.typeHelp.${p.type}`)}</small></div>
        <div class="field"><label for={`${id}-url`}>{t('wt.baseUrl')}</label>
          <input id={`${id}-url`} name="baseUrl" type="url" value={p.baseUrl} placeholder={p.type === 'searxng' ? 'http://127.0.0.1:8888' : t('wt.defaultUrl')}
            onInput={e => patch(i, { baseUrl: (e.target as HTMLInputElement).value.trim() })} />
          <small class="help">{t('wt.baseUrlHelp')}</small></div>
        {p.apiKeys.map((k, j) => <div class="field" key={`k${j}`}><label for={`${id}-key${j}`}>{`${t('wt.key')} ${j + 1}`}</label>
          <div class="row">
            <input id={`${id}-key${j}`} name={`key${j}`} type="password" autocomplete="off" value={k.key} onInput={e => setKey(i, j, (e.target as HTMLInputElement).value)} />
            <button class="link" aria-label={`${t('delete')} ${t('wt.key')} ${j + 1}`} onClick={() => patch(i, { apiKeys: p.apiKeys.filter((_, x) => x !== j) })}>✕</button>
          </div>
          <small class="help">{t('keepKey')}</small></div>)}
        <div class="field"><label for={`${id}-order`}>{t('wt.order')}</label>
          <input id={`${id}-order`} name="order" type="text" inputmode="numeric" value={String(p.order)}
            onInput={e => { const n = Number((e.target as HTMLInputElement).value); if (Number.isInteger(n)) patch(i, { order: n }) }} />
          <small class="help">{t('wt.orderHelp')}</small></div>
        <div class="field"><label for={`${id}-on`}>{t('enabled')}</label>
          <input id={`${id}-on`} name="enabled" type="checkbox" checked={p.enabled} onChange={e => patch(i, { enabled: (e.target as HTMLInputElement).checked })} />
          <small class="help">{t('wt.enabledHelp')}</small></div>
        <div class="row">
          <button data-testid={`wt-addkey-${i}`} onClick={() => patch(i, { apiKeys: [...p.apiKeys, { key: '', enabled: true }] })}>{t('addKey')}</button>
          <button class="danger" data-testid={`wt-remove-${i}`} onClick={() => setList(l => l.filter((_, j) => j !== i))}>{t('delete')}</button>
        </div>
        </div>
      </div>
    })}
    {error && <ErrorBox error={error} />}
    <div class="row">
      <button data-testid="wt-add" onClick={() => setList(l => [...l, blank(l.length + 1)])}>{t('wt.add')}</button>
      <button class="primary" data-testid="wt-save" disabled={busy} aria-busy={busy || undefined} onClick={save}>{t('save')}</button>
    </div>
  </div>
}

export default function WebTools () {
  const load = useLoad<Config>('/api/config')
  return <View load={load} isEmpty={() => false}>{cfg => <div>
    <p class="muted">{t('wt.hint')}</p>
    <Card title={t('wt.card.providers')} testid="card-wt-providers">
      <Providers key={JSON.stringify(cfg.webTools.search.providers)} initial={cfg.webTools.search.providers} onSaved={load.reload} />
    </Card>
    {([['search', SEARCH], ['fetch', FETCH]] as const).map(([name, fields]) => <Card key={name} title={t(`wt.card.${name}`)} testid={`card-wt-${name}`}>
      <SettingsForm key={JSON.stringify(fields.map(f => getAt(cfg, f.path)))} testid={`wt-${name}`} sections={[{ fields }]}
        read={f => getAt(cfg, f.path)}
        onSave={async patch => { await api('/api/config', { method: 'PUT', json: patch }); load.reload() }} />
    </Card>)}
  </div>}</View>
}
