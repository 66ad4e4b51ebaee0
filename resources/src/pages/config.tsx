// Configuration: every section of the configuration as a form generated from the server's schema
// (GET /api/config/schema; form-engine.tsx), checked in the browser with the schema's rules before it is
// sent and with the server's answer shown at the fields; one group's settings; YAML import and export as
// the advanced path.
import { useMemo, useState } from 'preact/hooks'
import { api, ApiError, BASE, errText, fieldMessage, session } from '../api'
import { t, tv } from '../i18n'
import type { Config, GroupView, ImportResult } from '../contracts'
import { helpOf, problemsOf, SchemaForm, titleOf } from '../form-engine'
import { diff, nodeAt, validate, type SchemaNode } from '../form-rules'
import { Act, Card, ErrorBox, View, toast, useLoad } from '../ui'

/** Sections first in the list (the rest follow in the schema's order). */
const FIRST = ['memory', 'tools', 'mcp', 'web', 'llm', 'chat', 'knowledge', 'skills', 'language', 'commandPrefix', 'debug', 'presets']
/** Sections with a page of their own: [page name in the menu, its path]. */
const PAGES: Record<string, [string, string]> = {
  trigger: ['chatSettings', 'chat-settings'], context: ['chatSettings', 'chat-settings'], chat: ['chatSettings', 'chat-settings'],
  delivery: ['chatSettings', 'chat-settings'], input: ['chatSettings', 'chat-settings'], groupLog: ['chatSettings', 'chat-settings'],
  proactive: ['chatSettings', 'chat-settings'], qqActions: ['chatSettings', 'chat-settings'], reminders: ['chatSettings', 'chat-settings'],
  guard: ['chatSettings', 'chat-settings'], tts: ['voice', 'voice'], webTools: ['webTools', 'web-tools'], access: ['governance', 'governance'],
  quotas: ['governance', 'governance'], moderation: ['governance', 'governance'], pricing: ['cost', 'cost'], mcp: ['mcp', 'mcp-servers'],
  image: ['drawing', 'drawing'], game: ['game', 'game'], presets: ['presets', 'presets'], channels: ['channels', 'channels']
}

/** A link to another page of the dashboard (the shell follows history changes). */
function PageLink ({ page, path }: { page: string, path: string }) {
  const href = `${BASE}/${path}`
  return <a href={href} data-testid={`open-${path}`} onClick={e => { e.preventDefault(); history.pushState(null, '', href); dispatchEvent(new PopStateEvent('popstate')) }}>{tv('sf.open', { page: t(page) })}</a>
}

/** A server's word about a field in the page language (a preset that does not exist named as such). */
function serverMessage (message: string): string {
  const missing = message.match(/^preset "(.+)" does not exist$/)
  if (missing) return tv('pe.unknownPreset', { id: missing[1]! })
  return fieldMessage(message) || t('sf.serverSaid')
}

/** One section's form. Its draft lives in the page (kept while other sections are open); undefined = unchanged. */
function SectionEditor ({ name, node, value, draft: kept, setDraft, onSaved }: {
  name: string, node: SchemaNode, value: unknown, draft: unknown, setDraft: (v: unknown) => void, onSaved: () => void
}) {
  const draft = kept === undefined ? value : kept
  const [server, setServer] = useState<Array<{ path: string, message: string }>>([])
  const [general, setGeneral] = useState<string | null>(null)
  const [tried, setTried] = useState(false)
  const [busy, setBusy] = useState(false)
  const issues = useMemo(() => validate(node, draft, name), [node, draft, name])

  // the browser's findings and the server's, by path, in the page language (recomputed on a language change)
  const problems = problemsOf(issues, server, serverMessage)

  const save = async (): Promise<void> => {
    setTried(true); setGeneral(null)
    if (issues.length) {
      document.querySelector<HTMLElement>(`[data-testid="section-form-${name}"] [aria-invalid="true"]`)?.focus()
      return
    }
    const patch = diff(value, draft)
    if (patch === undefined) { toast(t('sf.noChanges')); return }
    setBusy(true)
    try {
      const r = await api<{ updated: string[] }>(`/api/config/${name}`, { method: 'PUT', json: patch })
      setServer([])
      toast(tv('sf.savedN', { n: r.updated.length }))
      setDraft(undefined)
      onSaved()
    } catch (e) {
      const errors = e instanceof ApiError ? e.errors ?? [] : []
      const atFields = errors.filter(x => x.path && nodeAt(node, x.path.split('.').slice(1)) !== undefined && x.path.split('.')[0] === name)
      setServer(atFields)
      if (atFields.length < errors.length || !errors.length) setGeneral(errText(e))
    } finally { setBusy(false) }
  }

  return <div data-testid={`section-form-${name}`}>
    <SchemaForm node={node} name={name} value={draft} onChange={setDraft} problems={problems} testid="cfg"
      edited={p => setServer(list => list.filter(x => x.path !== p && !x.path.startsWith(`${p}.`)))} />
    {general && <ErrorBox error={general} />}
    <div class="sf-actions">
      <button class="primary" type="button" disabled={busy} aria-busy={busy} data-testid={`section-save-${name}`} onClick={save}>{t('sf.save')}</button>
      <button type="button" data-testid={`section-reset-${name}`} onClick={() => { setDraft(undefined); setServer([]); setTried(false); setGeneral(null) }}>{t('sf.reset')}</button>
      {tried && issues.length > 0 && <span class="sf-error" role="alert" data-testid={`section-invalid-${name}`}>{tv('sf.fix', { n: issues.length })}</span>}
    </div>
  </div>
}

/** A group's own preset, switch and trigger (GET/PUT /api/config/groups/:groupId): the schema's `groups.<id>` node, those keys only. */
function GroupForm ({ gid, node, initial }: { gid: string, node: SchemaNode, initial: Record<string, unknown> }) {
  const [draft, setDraft] = useState<unknown>(initial)
  const [server, setServer] = useState<Array<{ path: string, message: string }>>([])
  const [general, setGeneral] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const issues = useMemo(() => validate(node, draft), [node, draft])
  const save = async (): Promise<void> => {
    setGeneral(null)
    if (issues.length) return
    const patch = diff(initial, draft)
    if (patch === undefined) { toast(t('sf.noChanges')); return }
    setBusy(true)
    try {
      await api(`/api/config/groups/${encodeURIComponent(gid)}`, { method: 'PUT', json: patch })
      setServer([]); toast(t('saved'))
    } catch (e) {
      const prefix = `groups.${gid}.`
      const errors = (e instanceof ApiError ? e.errors ?? [] : []).map(x => ({ ...x, path: x.path.startsWith(prefix) ? x.path.slice(prefix.length) : x.path }))
      setServer(errors)
      if (!errors.length) setGeneral(errText(e))
    } finally { setBusy(false) }
  }
  return <div data-testid="group-form">
    <SchemaForm node={node} name="" value={draft} onChange={setDraft} problems={problemsOf(issues, server, serverMessage)} testid="group-form"
      edited={p => setServer(list => list.filter(x => x.path !== p))} />
    {general && <ErrorBox error={general} />}
    <button class="primary" type="button" disabled={busy} aria-busy={busy} data-testid="group-form-save" onClick={save}>{t('save')}</button>
  </div>
}

function Group ({ schema }: { schema: SchemaNode }) {
  const [gid, setGid] = useState('')
  const [loaded, setLoaded] = useState<GroupView | null>(null)
  const [error, setError] = useState<string | null>(null)
  const open = async (): Promise<void> => {
    setError(null); setLoaded(null)
    try { setLoaded(await api<GroupView>(`/api/config/groups/${encodeURIComponent(gid)}`)) } catch (e) { setError(errText(e)) }
  }
  const entry = nodeAt(schema, ['groups', gid || '_'])
  const props = entry?.properties ?? {}
  const node: SchemaNode = { type: 'object', properties: { preset: props.preset ?? {}, enabled: props.enabled ?? {}, trigger: props.trigger ?? {} } }
  return <Card title={t('group')} testid="group-card">
    <div class="row"><input data-testid="group-id" aria-label={t('groupId')} placeholder={t('groupId')} value={gid} onInput={e => setGid((e.target as HTMLInputElement).value)} />
      <button data-testid="group-open" onClick={open} disabled={!gid}>{t('view')}</button></div>
    {error && <ErrorBox error={error} />}
    {loaded && <GroupForm key={loaded.groupId} gid={loaded.groupId} node={node} initial={{ preset: loaded.preset, enabled: loaded.enabled, trigger: loaded.trigger }} />}
  </Card>
}

function Yaml ({ onImported }: { onImported: () => void }) {
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
    if (!text.trim()) { setError(t('sf.importEmpty')); return }
    try {
      const r = await api<ImportResult>('/api/config/import', { body: text, headers: { 'Content-Type': 'text/yaml' } })
      if (r.changes === 0) toast(t('sf.importedNothing'))
      else { toast(tv('sf.importedN', { n: r.changes })); onImported() }
    } catch (e) { setError(errText(e)) }
  }
  return <Card title={t('sf.advanced')} testid="yaml-card" extra={<><Act run={exportYaml} testid="yaml-export">{t('export')}</Act>
    <button data-testid="yaml-import" onClick={importYaml}>{t('import')}</button>
    <Act run={async () => { await api('/api/config/reload', { method: 'POST' }); onImported() }} done={t('sf.reloaded')}>{t('reload')}</Act></>}>
    <p class="muted">{t('sf.advancedHint')}</p>
    <textarea data-testid="yaml-text" aria-label="YAML" rows={14} value={text} onInput={e => setText((e.target as HTMLTextAreaElement).value)} />
    {error && <ErrorBox error={error} />}
  </Card>
}

export default function ConfigPage () {
  const schema = useLoad<SchemaNode>('/api/config/schema')
  const config = useLoad<Config>('/api/config')
  const [current, setCurrent] = useState(() => decodeURIComponent(location.hash.slice(1)) || 'memory')
  // the sections' unsaved drafts, by section
  const [drafts, setDrafts] = useState<Record<string, unknown>>({})
  const putDraft = (name: string, v: unknown): void => setDrafts(d => { const next = { ...d }; if (v === undefined) delete next[name]; else next[name] = v; return next })
  const choose = (name: string): void => { setCurrent(name); history.replaceState(null, '', `#${encodeURIComponent(name)}`) }
  return <div>
    <View load={schema}>{s => <View load={config}>{cfg => {
      const props = s.properties ?? {}
      const names = [...FIRST.filter(n => n in props), ...Object.keys(props).filter(n => !FIRST.includes(n))]
      const name = names.includes(current) ? current : names[0]!
      const node = props[name]!
      const page = PAGES[name]
      return <div class="sf-layout">
        <nav class="sf-sections card" aria-label={t('sf.sections')} data-testid="section-list">
          {names.map(n => {
            const dirty = n in drafts && diff(cfg[n as keyof Config], drafts[n]) !== undefined
            return <button key={n} type="button" data-testid={`section-link-${n}`} aria-current={n === name ? 'true' : undefined}
              onClick={() => choose(n)}>{titleOf(props[n]!, n)}{dirty && <span class="sf-dirty" data-testid={`section-dirty-${n}`}> · {t('sf.unsaved')}</span>}</button>
          })}
        </nav>
        <div>
          <Card title={titleOf(node, name)} testid={`section-${name}`} extra={page && name !== 'channels' ? <PageLink page={page[0]} path={page[1]} /> : undefined}>
            {helpOf(node) && <p class="help">{helpOf(node)}</p>}
            {name === 'channels'
              ? <p data-testid="channels-elsewhere">{t('sf.channelsOn')} <PageLink page="channels" path="channels" /></p>
              : name === 'groups'
                ? <p data-testid="groups-elsewhere">{t('sf.groupsOn')}</p>
                : <SectionEditor key={`${name}:${JSON.stringify(cfg[name as keyof Config])}`} name={name} node={node}
                  value={cfg[name as keyof Config]} draft={drafts[name]} setDraft={v => putDraft(name, v)} onSaved={config.reload} />}
          </Card>
          {name === 'groups' && <Group schema={s} />}
          <Yaml onImported={config.reload} />
        </div>
      </div>
    }}</View>}</View>
  </div>
}
