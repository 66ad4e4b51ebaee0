import { useEffect, useState } from 'preact/hooks'
import { ApiError, BASE, api, errText, sse } from '../api'
import { locale, t, tv } from '../i18n'
import type { ExecuteResult, LoadedSkills, McpOffer, ScriptFile, ScriptSource, SkillDocuments, ToolCategory, ToolsList } from '../contracts'
import { Act, Card, EmptyState, ErrorBox, Table, View, confirmDanger, fmt, toast, useLoad } from '../ui'

/** A tool category in the page language (the server names them in Chinese; an unknown key as it is). */
const catName = (key: string): string => { const k = `cat.${key}`; const l = t(k); return l === k ? key : l }

function ToolList ({ onTest }: { onTest: (name: string) => void }) {
  const cats = useLoad<ToolCategory[]>('/api/skills/categories')
  // Every tool, disabled ones too (so they can be switched back on), each with its "offered on /mcp" switch (variant A).
  const tools = useLoad<ToolsList>('/api/tools')
  const [q, setQ] = useState('')
  const reload = (): void => { cats.reload(); tools.reload() }
  /** The tool's switch for our own /mcp endpoint (PUT /api/tools/:name/mcp; config mcp.server.offeredTools / withheldTools). */
  const offer = async (name: string, offered: boolean): Promise<void> => {
    try {
      const r = await api<McpOffer>(`/api/tools/${encodeURIComponent(name)}/mcp`, { method: 'PUT', json: { offered } })
      toast(tv(r.offeredOnMcp ? 'tl.offerOn' : 'tl.offerOff', { name }))
    } catch (err) { toast(errText(err), true) }
    tools.reload()
  }
  return <>
    <Card title={t('categories')} extra={<>
      <Act run={async () => { await api('/api/skills/enable-all', { method: 'POST' }); reload() }}>{t('enableAll')}</Act>
      <Act run={async () => { await api('/api/skills/disable-all', { method: 'POST' }); reload() }}>{t('disableAll')}</Act></>}>
      <View load={cats}>{d => <div class="grid">{d.map(c => <label class="stat" key={c.key}>
        <span>{catName(c.key)} <span class="muted">({c.toolCount})</span></span>
        <input type="checkbox" data-testid={`cat-${c.key}`} checked={c.enabled} onChange={async e => {
          try { await api(`/api/skills/categories/${encodeURIComponent(c.key)}/toggle`, { json: { enabled: (e.target as HTMLInputElement).checked } }); reload() } catch (err) { toast(errText(err), true); reload() }
        }} /></label>)}</div>}</View>
    </Card>
    <Card title={t('tools')} extra={<input type="search" aria-label={t('search')} placeholder={t('search')} value={q} onInput={e => setQ((e.target as HTMLInputElement).value)} />}>
      <p class="muted" id="tl-mcp-hint" data-testid="tl-mcp-hint">{t('tl.mcpHint')}</p>
      <View load={tools} isEmpty={d => d.tools.length === 0}>{d => <Table cols={[t('name'), t('categories'), t('enabled'), t('tl.mcpOffered'), '']}
        rows={d.tools.filter(x => !q || `${x.name} ${x.description}`.toLowerCase().includes(q.toLowerCase())).map(x => [
          <div><b>{x.name}</b><div class="muted">{x.description.slice(0, 120)}</div></div>, catName(x.category),
          <input type="checkbox" data-testid={`tool-${x.name}`} aria-label={tv('tl.enableTool', { name: x.name })} checked={x.enabled} onChange={async e => {
            try { await api(`/api/skills/tools/${encodeURIComponent(x.name)}/toggle`, { json: { enabled: (e.target as HTMLInputElement).checked } }); tools.reload() } catch (err) { toast(errText(err), true); tools.reload() }
          }} />,
          <input type="checkbox" data-testid={`mcp-offer-${x.name}`} aria-label={tv('tl.offerTool', { name: x.name })} aria-describedby="tl-mcp-hint"
            checked={x.offeredOnMcp} onChange={e => offer(x.name, (e.target as HTMLInputElement).checked)} />,
          <button data-testid={`tool-test-${x.name}`} aria-label={tv('tl.testTool', { name: x.name })} onClick={() => onTest(x.name)}>{t('test')}</button>])} />}</View>
    </Card>
  </>
}

function ToolTest ({ initial }: { initial: string }) {
  const [name, setName] = useState(initial)
  const [args, setArgs] = useState('{}')
  const [out, setOut] = useState<string[]>([])
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const run = async (): Promise<void> => {
    setOut([]); setError(null); setBusy(true)
    try {
      const parsed = JSON.parse(args)
      try {
        await sse('/api/tools/test', { json: { toolName: name, arguments: parsed } }, f => setOut(o => [...o, `${f.event}: ${fmt(f.data)}`]))
      } catch (e) {
        // Fallback while /api/tools/test is not served: the skills executor.
        if (!(e instanceof ApiError) || e.status !== 404) throw e
        const r = await api<ExecuteResult>('/api/skills/execute', { json: { toolName: name, args: parsed } })
        setOut([`result: ${fmt(r)}`])
      }
    } catch (e) { setError(errText(e)) } finally { setBusy(false) }
  }
  return <Card title={`${t('test')}`}>
    <div class="form"><label>{t('name')}<input data-testid="test-tool" value={name} onInput={e => setName((e.target as HTMLInputElement).value)} /></label></div>
    <label>{t('args')}<textarea data-testid="test-args" rows={4} value={args} onInput={e => setArgs((e.target as HTMLTextAreaElement).value)} /></label>
    <button class="primary" data-testid="test-run" disabled={busy || !name} aria-busy={busy || undefined} onClick={run}>{t('run')}</button>
    {error && <ErrorBox error={error} />}
    {out.length > 0 && <pre data-testid="test-output">{out.join('\n')}</pre>}
  </Card>
}

// A new script tool starts from this (the shape lib/tools/scripts.ts loads: one default object with execute).
const SCRIPT_TEMPLATE = `export default {
  description: 'Example: greets someone',
  inputSchema: { type: 'object', properties: { who: { type: 'string' } } },
  async execute (args) {
    return 'hello ' + (args.who ?? 'world')
  }
}
`

type Risk = 'low' | 'medium' | 'high'
interface ScriptSel { name: string, source: string, isNew: boolean, enabled: boolean, risk: Risk, dangerous: boolean, declared?: { risk?: string, dangerous?: boolean } }

// The master's settings of a script (lib/tools/scripts.ts): off until enabled, risk high by default;
// what the script declares about itself is only shown as a hint.
function Scripts () {
  const list = useLoad<ScriptFile[]>('/api/tools/js')
  const [sel, setSel] = useState<ScriptSel | null>(null)
  const open = async (name: string): Promise<void> => {
    const f = await api<ScriptSource>(`/api/tools/js/${encodeURIComponent(name)}`)
    setSel({ name, source: f.source, isNew: false, enabled: f.enabled, risk: f.risk, dangerous: f.dangerous, ...(f.declared ? { declared: f.declared } : {}) })
  }
  const [loadError, setLoadError] = useState<string | null>(null)
  /** Saves; a script that does not load (syntax error...) is saved but reported as not loaded, with the error. */
  const save = async (): Promise<void> => {
    if (!sel) return
    setLoadError(null)
    let state: { loaded?: boolean, error?: string }
    const settings = { risk: sel.risk, dangerous: sel.dangerous }
    const path = `/api/tools/js/${encodeURIComponent(sel.name.replace(/\.(js|ts)$/, ''))}`
    if (sel.isNew) {
      // Saved off by the server; switched on in a second step when the master ticked the switch.
      const r = await api<ScriptFile>('/api/tools/js', { json: { name: sel.name, source: sel.source, ...settings } })
      state = r
      if (sel.enabled && r.loaded) await api(path, { method: 'PUT', json: { enabled: true } })
      setSel({ ...sel, name: r.name, isNew: false })
    } else {
      state = await api<{ loaded?: boolean, error?: string }>(path, { method: 'PUT', json: { source: sel.source, enabled: sel.enabled, ...settings } })
      setSel({ ...sel, isNew: false })
    }
    list.reload()
    if (state.loaded === false) {
      setLoadError(state.error ?? '')
      toast(t('tl.notLoaded'), true)
    } else toast(t('saved'))
  }
  return <Card title={t('scripts')} extra={<>
    <button data-testid="script-new" onClick={() => setSel({ name: 'my_tool', source: SCRIPT_TEMPLATE, isNew: true, enabled: false, risk: 'high', dangerous: false })}>{t('add')}</button>
    <Act run={async () => { await api('/api/tools/js/reload', { method: 'POST' }); list.reload() }} done={t('saved')}>{t('reload')}</Act></>}>
    <View load={list} empty={!sel && <EmptyState text={t('es.scripts')} />}>{d => <div class="row">{d.map(f => <button key={f.name} data-testid={`script-open-${f.name}`} onClick={() => open(f.name).catch(e => toast(errText(e), true))}>{f.name}{f.enabled ? '' : ` (${t('st_off_script')})`}</button>)}</div>}</View>
    {sel && <div>
      <label>{t('name')}<input data-testid="script-name" value={sel.name} disabled={!sel.isNew} onInput={e => setSel({ ...sel, name: (e.target as HTMLInputElement).value })} /></label>
      <textarea data-testid="script-source" aria-label={t('source')} rows={16} value={sel.source} onInput={e => setSel({ ...sel, source: (e.target as HTMLTextAreaElement).value })} />
      <div class="form">
        <label><input type="checkbox" data-testid="script-enabled" checked={sel.enabled} onChange={e => setSel({ ...sel, enabled: (e.target as HTMLInputElement).checked })} /> {t('scriptEnabled')}</label>
        <label>{t('risk')}<select data-testid="script-risk" value={sel.risk} onChange={e => setSel({ ...sel, risk: (e.target as HTMLSelectElement).value as Risk })}>
          {(['low', 'medium', 'high'] as const).map(r => <option key={r} value={r}>{t(`risk_${r}`)}</option>)}</select></label>
        <label><input type="checkbox" data-testid="script-dangerous" checked={sel.dangerous} onChange={e => setSel({ ...sel, dangerous: (e.target as HTMLInputElement).checked })} /> {t('dangerousTool')}</label>
      </div>
      {sel.declared && Object.keys(sel.declared).length > 0 && <div class="muted" data-testid="script-declared">{t('declared')}: {fmt(sel.declared)}</div>}
      <div class="muted">{t('scriptOffHint')}</div>
      {loadError !== null && <div class="error" role="alert" data-testid="script-load-error"><b>{t('tl.notLoaded')}</b>{loadError && <pre>{loadError}</pre>}</div>}
      <div class="row"><Act kind="primary" testid="script-save" run={save}>{t('save')}</Act>
        {!sel.isNew && <Act kind="danger" testid="script-delete" run={async () => { if (await confirmDanger(tv('cf.delScript', { name: sel.name }))) { await api(`/api/tools/js/${encodeURIComponent(sel.name)}`, { method: 'DELETE' }); setSel(null); list.reload() } }}>{t('delete')}</Act>}</div>
    </div>}
  </Card>
}

function Skills () {
  const docs = useLoad<SkillDocuments>('/api/skills/documents')
  const loaded = useLoad<LoadedSkills>('/api/skills/loaded')
  const names = loaded.data?.loaded ?? []
  return <Card title={t('skills')} extra={<Act run={async () => { await api('/api/skills/reload', { method: 'POST' }); docs.reload() }}>{t('reload')}</Act>}>
    <View load={docs} isEmpty={d => d.documents.length === 0}
      empty={<EmptyState text={t('es.skills')} action={<Act run={async () => { await api('/api/skills/reload', { method: 'POST' }); docs.reload() }}>{t('reload')}</Act>} />}>{d => <Table cols={[t('name'), t('description'), t('triggers'), '']}
      rows={d.documents.map(s => [<b>{s.name}</b>, s.description, s.triggers.join(', '),
        names.includes(s.name)
          ? <Act testid={`skill-unload-${s.name}`} run={async () => { await api(`/api/skills/unload/${encodeURIComponent(s.name)}`, { method: 'POST' }); loaded.reload() }}>{t('unload')}</Act>
          : <Act testid={`skill-load-${s.name}`} run={async () => { await api(`/api/skills/load/${encodeURIComponent(s.name)}`, { method: 'POST' }); loaded.reload() }}>{t('load')}</Act>])} />}</View>
  </Card>
}

function Events () {
  const [events, setEvents] = useState<string[]>([])
  useEffect(() => {
    const es = new EventSource(`${BASE}/api/skills/sse`, { withCredentials: true })
    const names = ['connected', 'tool-executed', 'batch-executed', 'category-toggled', 'tool-toggled', 'tools-reloaded', 'tools-enabled-all', 'tools-disabled-all',
      'server-connecting', 'server-connected', 'server-error', 'server-removed', 'server-reconnecting', 'server-reconnected', 'skill-loaded', 'skill-unloaded']
    for (const n of names) es.addEventListener(n, (e: Event) => setEvents(l => [`${new Date().toLocaleTimeString(locale())} ${n} ${(e as MessageEvent).data}`, ...l].slice(0, 50)))
    return () => es.close()
  }, [])
  return <Card title={t('events')}><pre data-testid="skill-events">{events.join('\n') || t('empty')}</pre></Card>
}

export default function Tools () {
  const [tab, setTab] = useState('tools')
  const [testName, setTestName] = useState('')
  const tabs = ['tools', 'test', 'scripts', 'skills', 'events']
  return <div>
    <div class="tabs">{tabs.map(x => <button key={x} data-testid={`tab-${x}`} class={tab === x ? 'on' : ''} aria-pressed={tab === x} onClick={() => setTab(x)}>{x === 'tools' ? t('tools') : t(x)}</button>)}</div>
    {tab === 'tools' && <ToolList onTest={n => { setTestName(n); setTab('test') }} />}
    {tab === 'test' && <ToolTest key={testName} initial={testName} />}
    {tab === 'scripts' && <Scripts />}
    {tab === 'skills' && <Skills />}
    {tab === 'events' && <Events />}
  </div>
}
