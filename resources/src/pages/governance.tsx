// Who may use the bot, how much and what it may say (issue 20; lib/governance): the access, quotas and
// moderation settings for every chat (PUT /api/config) and for one group (its overrides in
// groups.<id>, where an unset field inherits), the regular expressions (one a line: they hold commas),
// and the moderation hit log (GET /api/governance/hits, filtered, paged).
import { useState } from 'preact/hooks'
import { api, ApiError, errText } from '../api'
import type { Config, GroupView } from '../contracts'
import { locale, t } from '../i18n'
import { Pager, usePage } from '../paging'
import { getAt, SettingsForm, type FieldSection, type SettingsField as Field } from '../form-engine'
import { Act, Card, ErrorBox, Table, View, toast, useLoad } from '../ui'

const ACCESS: Field[] = [
  { path: 'access.userBlacklist' },
  { path: 'access.groupBlacklist' },
  { path: 'access.userWhitelistOnly' },
  { path: 'access.userWhitelist' },
  { path: 'access.groupWhitelistOnly' },
  { path: 'access.groupWhitelist' },
  { path: 'access.features.chat', group: 'access.features.chat' },
  { path: 'access.features.drawing', group: 'access.features.drawing' },
  { path: 'access.features.game', group: 'access.features.game' },
  { path: 'access.features.tools', group: 'access.features.tools' },
  { path: 'access.features.toolsMedium', group: 'access.features.toolsMedium' },
  { path: 'access.features.toolsHigh', group: 'access.features.toolsHigh' },
  { path: 'access.refusal' },
  { path: 'access.refusalText' }
]
const LIMITS = ['messagesPerMinute', 'messagesPerDay', 'tokensPerMinute', 'tokensPerDay'] as const
const QUOTAS: Field[] = [
  ...LIMITS.map((l): Field => ({ path: `quotas.user.${l}`, group: `quotas.user.${l}` })),
  ...LIMITS.map((l): Field => ({ path: `quotas.group.${l}`, group: `quotas.group.${l}` })),
  { path: 'quotas.message' },
  { path: 'quotas.resetTime' },
  { path: 'quotas.timezone' }
]
const MODERATION: Field[] = [
  { path: 'moderation.strictness', group: 'moderation.strictness' },
  { path: 'moderation.checkInput' },
  { path: 'moderation.checkOutput' },
  { path: 'moderation.useDefaultList' },
  { path: 'moderation.keywords' },
  { path: 'moderation.notice' },
  { path: 'moderation.endpoint.baseUrl' },
  { path: 'moderation.endpoint.apiKey' },
  { path: 'moderation.endpoint.model' },
  { path: 'moderation.endpoint.timeoutMs' },
  { path: 'moderation.logMax' }
]
const CARDS: Array<[string, Field[]]> = [['access', ACCESS], ['quotas', QUOTAS], ['moderation', MODERATION]]

interface Hit { id: number, at: number, userId: string, groupId?: string, direction: 'input' | 'output', rules: string[], action: 'mask' | 'refuse' }

function Regexes ({ cfg, saved }: { cfg: Config, saved: () => void }) {
  const [text, setText] = useState(cfg.moderation.regexes.join('\n'))
  const [error, setError] = useState<string | null>(null)
  const save = async (): Promise<void> => {
    setError(null)
    const regexes = text.split('\n').map(s => s.trim()).filter(Boolean)
    try {
      await api('/api/config', { method: 'PUT', json: { moderation: { regexes } } })
      toast(t('saved'))
      saved()
    } catch (e) {
      setError(e instanceof ApiError && e.errors?.length ? e.errors.map(x => x.message).join('\n') : errText(e))
    }
  }
  return <Card title={t('gv.regexes')} testid="gv-regexes">
    <p class="muted">{t('gv.regexesHint')}</p>
    <textarea data-testid="gv-regex-text" aria-label={t('gv.regexes')} rows={5} value={text} onInput={e => setText((e.target as HTMLTextAreaElement).value)} />
    {error && <ErrorBox error={error} />}
    <Act kind="primary" testid="gv-regex-save" run={save}>{t('save')}</Act>
  </Card>
}

function GroupGovernance ({ cfg }: { cfg: Config }) {
  const [gid, setGid] = useState('')
  const [view, setView] = useState<GroupView | null>(null)
  const [error, setError] = useState<string | null>(null)
  const open = async (id = gid.trim()): Promise<void> => {
    setError(null); setView(null)
    try { setView(await api<GroupView>(`/api/config/groups/${encodeURIComponent(id)}`)) } catch (e) { setError(errText(e)) }
  }
  const sections: FieldSection[] = CARDS.map(([name, fields]) => ({ title: t(`gv.card.${name}`), fields: fields.filter(f => f.group) }))
  return <Card title={t('gv.card.group')} testid="gv-group">
    <p class="muted">{t('gv.groupHint')}</p>
    <div class="row">
      <input data-testid="gv-group-id" aria-label={t('groupId')} placeholder={t('groupId')} inputmode="numeric" value={gid}
        onInput={e => setGid((e.target as HTMLInputElement).value)} onKeyDown={e => { if (e.key === 'Enter' && gid.trim()) void open() }} />
      <button data-testid="gv-group-open" onClick={() => open()} disabled={!gid.trim()}>{t('bs.groupOpen')}</button>
    </div>
    {error && <ErrorBox error={error} />}
    {view && <SettingsForm key={`${view.groupId}:${JSON.stringify(view.overrides)}`} testid="gv-group-form" sections={sections}
      errorPrefix={`groups.${view.groupId}.`} read={f => getAt(view.overrides, f.group!)} inherited={f => getAt(cfg, f.path)}
      onSave={async patch => { await api('/api/config', { method: 'PUT', json: { groups: { [view.groupId]: patch } } }); await open(view.groupId) }} />}
  </Card>
}

/** One user's own limits (quotas.users.<id>): each inherits the global user limit until set. */
function UserQuota ({ cfg }: { cfg: Config }) {
  const [uid, setUid] = useState('')
  const [open, setOpen] = useState<string | null>(null)
  const own = (id: string): Record<string, unknown> => (Object.hasOwn(cfg.quotas.users, id) ? cfg.quotas.users[id] : undefined) ?? {}
  const fields = (id: string): Field[] => LIMITS.map((l): Field => ({ path: `quotas.user.${l}`, group: `quotas.users.${id}.${l}` as Field['group'] }))
  return <Card title={t('gv.card.user')} testid="gv-user">
    <p class="muted">{t('gv.userHint')}</p>
    <div class="row">
      <input data-testid="gv-user-id" aria-label={t('gv.who')} placeholder={t('gv.who')} inputmode="numeric" value={uid}
        onInput={e => setUid((e.target as HTMLInputElement).value)} onKeyDown={e => { if (e.key === 'Enter' && uid.trim()) setOpen(uid.trim()) }} />
      <button data-testid="gv-user-open" onClick={() => setOpen(uid.trim())} disabled={!uid.trim()}>{t('bs.groupOpen')}</button>
    </div>
    {open && <SettingsForm key={`${open}:${JSON.stringify(own(open))}`} testid="gv-user-form" sections={[{ fields: fields(open) }]}
      read={f => getAt(own(open), f.path.split('.').pop()!)} inherited={f => getAt(cfg, f.path)}
      onSave={async patch => { await api('/api/config', { method: 'PUT', json: patch }) }} />}
  </Card>
}

function HitLog () {
  const [user, setUser] = useState('')
  const [group, setGroup] = useState('')
  const [direction, setDirection] = useState('')
  const [filter, setFilter] = useState('')
  const list = usePage<Hit>(`/api/governance/hits${filter}`)
  const apply = (): void => {
    const q = new URLSearchParams()
    if (user.trim()) q.set('userId', user.trim())
    if (group.trim()) q.set('groupId', group.trim())
    if (direction) q.set('direction', direction)
    setFilter(q.size ? `?${q.toString()}` : '')
  }
  return <Card title={t('gv.hits')} testid="gv-hits" extra={<button data-testid="gv-hits-refresh" onClick={list.reload}>{t('refresh')}</button>}>
    <div class="row">
      <input data-testid="gv-hits-user" placeholder={t('rm.filterUser')} value={user} onInput={e => setUser((e.target as HTMLInputElement).value)} onKeyDown={e => { if (e.key === 'Enter') apply() }} />
      <input data-testid="gv-hits-group" placeholder={t('rm.filterGroup')} value={group} onInput={e => setGroup((e.target as HTMLInputElement).value)} onKeyDown={e => { if (e.key === 'Enter') apply() }} />
      <select data-testid="gv-hits-direction" aria-label={t('gv.direction')} value={direction} onChange={e => setDirection((e.target as HTMLSelectElement).value)}>
        <option value="">{t('gv.anyDirection')}</option>
        <option value="input">{t('gv.dir.input')}</option>
        <option value="output">{t('gv.dir.output')}</option>
      </select>
      <button data-testid="gv-hits-filter" onClick={apply}>{t('rm.filter')}</button>
    </div>
    <View load={list} isEmpty={d => d.items.length === 0}>{d => <Table cols={[t('gv.when'), t('gv.who'), t('gv.where'), t('gv.direction'), t('gv.rules'), t('gv.action')]}
      rows={d.items.map(h => [
        new Date(h.at).toLocaleString(locale()),
        h.userId,
        h.groupId ? `${t('gv.group')} ${h.groupId}` : t('rm.private'),
        t(`gv.dir.${h.direction}`),
        <span data-testid={`gv-hit-rules-${h.id}`}>{h.rules.join(', ')}</span>,
        t(`gv.act.${h.action}`)])} />}</View>
    <Pager page={list} testid="gv-hits-pager" />
  </Card>
}

export default function Governance () {
  const load = useLoad<Config>('/api/config')
  return <View load={load} isEmpty={() => false}>{cfg => <div>
    <p class="muted">{t('gv.hint')}</p>
    {CARDS.map(([name, fields]) => <Card key={name} title={t(`gv.card.${name}`)} testid={`gv-card-${name}`}>
      <SettingsForm key={JSON.stringify(fields.map(f => getAt(cfg, f.path)))} testid={`gv-${name}`} sections={[{ fields }]}
        read={f => getAt(cfg, f.path)} errorPrefix=""
        onSave={async patch => { await api('/api/config', { method: 'PUT', json: patch }); load.reload() }} />
    </Card>)}
    <Regexes key={cfg.moderation.regexes.join('\n')} cfg={cfg} saved={load.reload} />
    <GroupGovernance cfg={cfg} />
    <UserQuota key={JSON.stringify(cfg.quotas.users)} cfg={cfg} />
    <HitLog />
  </div>}</View>
}
