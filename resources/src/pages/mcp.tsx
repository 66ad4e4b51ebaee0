// MCP servers: the list (status, trust, reconnect, delete after a confirmation naming the server), add
// and edit (PUT /api/mcp/servers/:name; masked env and header values sent back keep the stored ones),
// each server's tools with their input schema, and browsers for the connected servers' resources
// (GET /api/mcp/resources, POST /api/mcp/resources/read) and prompts (GET /api/mcp/prompts, POST
// /api/mcp/prompts/get); the desktop-client import.
import { useState } from 'preact/hooks'
import { api, errText } from '../api'
import { t, tv } from '../i18n'
import type { McpImportResult, McpToolInfo, ServerView } from '../contracts'
import { Act, Card, ErrorBox, Table, View, confirmDanger, toast, useLoad, word } from '../ui'

const TYPES = ['stdio', 'npx', 'npm', 'sse', 'http', 'streamable-http']
const REMOTE = ['sse', 'http', 'streamable-http']
const enc = encodeURIComponent

interface Resource { uri: string, name?: string, mimeType?: string, description?: string, serverName: string }
interface PromptArg { name: string, description?: string, required?: boolean }
interface Prompt { name: string, description?: string, arguments?: PromptArg[], serverName: string }
interface ResourceContent { uri?: string, mimeType?: string, text?: string, blob?: string }
interface PromptMessage { role: string, content: { type: string, text?: string } | Array<{ type: string, text?: string }> }

/** The form's fields of a server config (lists and maps as typed text). */
function draftOf (s?: ServerView): Record<string, string> {
  const c = (s?.config ?? {}) as Record<string, unknown>
  const str = (k: string): string => typeof c[k] === 'string' ? c[k] as string : ''
  const map = (k: string): string => c[k] && typeof c[k] === 'object' ? JSON.stringify(c[k]) : '{}'
  return { name: s?.name ?? '', type: s?.type ?? 'stdio', command: str('command'), args: Array.isArray(c.args) ? (c.args as string[]).join(' ') : '', env: map('env'), package: str('package'), url: str('url'), headers: map('headers') }
}

/** A JSON object typed in a field, or an error naming the field. */
function objectOf (text: string, field: string): Record<string, unknown> {
  let v: unknown
  try { v = JSON.parse(text.trim() || '{}') } catch (e) { throw new Error(tv('cx.jsonBad', { field, error: (e as Error).message })) }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error(tv('cx.jsonObject', { field }))
  return v as Record<string, unknown>
}

function ServerForm ({ initial, onDone }: { initial?: ServerView, onDone: () => void }) {
  const [f, setF] = useState(() => draftOf(initial))
  const [trusted, setTrusted] = useState(initial?.trusted ?? false)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const set = (k: string) => (e: Event) => setF({ ...f, [k]: (e.target as HTMLInputElement).value })
  const id = initial ? 'mcp-edit' : 'mcp-add'
  const save = async (): Promise<void> => {
    setError(null)
    let config: Record<string, unknown>
    try {
      // fields this form does not show (timeoutMs, cwd, description...) are kept while the type stays
      const { trust: _trust, ...kept } = (initial && initial.type === f.type ? initial.config : {}) as Record<string, unknown>
      config = { ...kept, type: f.type }
      const args = f.args.split(' ').filter(Boolean)
      if (f.type === 'stdio') Object.assign(config, { command: f.command, args, env: objectOf(f.env, 'env') })
      else if (f.type === 'npm' || f.type === 'npx') Object.assign(config, { package: f.package, args })
      else Object.assign(config, { url: f.url, headers: objectOf(f.headers, 'headers') })
    } catch (e) { setError((e as Error).message); return }
    setBusy(true)
    try {
      if (initial) {
        await api(`/api/mcp/servers/${enc(initial.name)}`, { method: 'PUT', json: { config, trust: trusted } })
        toast(t('mx.saved'))
      } else {
        await api('/api/mcp/servers', { json: { name: f.name, config, trust: trusted } })
        toast(t('saved'))
      }
      onDone()
    } catch (e) { setError(errText(e)) } finally { setBusy(false) }
  }
  const field = (k: string, label: string, help?: string) => <div class="field">
    <label for={`${id}-${k}`}>{label}</label>
    <input id={`${id}-${k}`} name={k} value={f[k]} onInput={set(k)} aria-describedby={help ? `${id}-${k}-help` : undefined} />
    {help && <small class="help" id={`${id}-${k}-help`}>{help}</small>}
  </div>
  return <Card title={initial ? tv('mx.editing', { name: initial.name }) : t('add')} testid={initial ? 'mcp-edit-card' : undefined}>
    <div class="form" data-testid={initial ? 'mcp-edit-form' : 'mcp-form'}>
      <div class="field"><label for={`${id}-name`}>{t('name')}</label><input id={`${id}-name`} name="name" value={f.name} onInput={set('name')} disabled={!!initial} /></div>
      <div class="field"><label for={`${id}-type`}>{t('type')}</label>
        <select id={`${id}-type`} name="type" value={f.type} onChange={set('type')}>{TYPES.map(x => <option key={x}>{x}</option>)}</select></div>
      {f.type === 'stdio' && <>{field('command', t('command'))}{field('args', t('argsList'), t('mx.argsHelp'))}{field('env', 'env (JSON)', t('mx.envHelp'))}</>}
      {(f.type === 'npm' || f.type === 'npx') && <>{field('package', t('package'))}{field('args', t('argsList'), t('mx.argsHelp'))}</>}
      {REMOTE.includes(f.type) && <>{field('url', 'URL')}{field('headers', 'headers (JSON)', t('mx.headersHelp'))}</>}
      <label class="check" title={t('trustHint')}><input type="checkbox" name="trust" data-testid={`${id}-trust`} checked={trusted} onChange={e => setTrusted((e.target as HTMLInputElement).checked)} /> {t('trusted')}</label>
    </div>
    <div class="muted">{t('trustHint')}</div>
    {error && <ErrorBox error={error} />}
    <div class="row">
      <button class="primary" data-testid={initial ? 'mcp-edit-save' : 'mcp-save'} disabled={busy} aria-busy={busy} onClick={save}>{initial ? t('save') : t('add')}</button>
      {initial && <button onClick={onDone}>{t('cancel')}</button>}
    </div>
  </Card>
}

/** `{success, failed, errors}` of an import in words, with each failure's message. */
function importSummary (r: McpImportResult): string {
  const errors = r.errors.map(e => `${e.name}: ${e.error}`)
  return [`${t('success')} ${r.success} · ${t('failed')} ${r.failed}`, ...errors].join('\n')
}

function ImportDesktop ({ onDone }: { onDone: () => void }) {
  const [text, setText] = useState('{\n  "mcpServers": {}\n}')
  const [result, setResult] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  return <Card title={t('importDesktop')}>
    <textarea data-testid="mcp-import-text" aria-label={t('importDesktop')} rows={6} value={text} onInput={e => setText((e.target as HTMLTextAreaElement).value)} />
    {error && <ErrorBox error={error} />}{result && <div class="muted" data-testid="mcp-import-result">{result}</div>}
    <button data-testid="mcp-import" onClick={async () => {
      setError(null)
      try { setResult(importSummary(await api<McpImportResult>('/api/mcp/import', { json: JSON.parse(text) }))); onDone() } catch (e) { setError(errText(e)) }
    }}>{t('importDesktop')}</button>
  </Card>
}

function Tools ({ name, tools, onClose }: { name: string, tools: McpToolInfo[], onClose: () => void }) {
  return <Card testid="mcp-tool-list" title={`${t('toolsShort')}: ${name}`} extra={<button aria-label={t('cancel')} onClick={onClose}>×</button>}>
    <Table cols={[t('name'), t('description'), t('mx.details')]} rows={tools.map(x => [<b>{x.name}</b>, x.description,
      <details data-testid={`mcp-tool-${x.name}`}><summary>{t('mx.inputSchema')}</summary><pre tabIndex={0} role="region" aria-label={`${t('mx.inputSchema')}: ${x.name}`}>{JSON.stringify(x.inputSchema, null, 2)}</pre></details>])} />
  </Card>
}

/** The text parts of a resource's contents or a prompt's messages. */
const textOf = (c: PromptMessage['content']): string => (Array.isArray(c) ? c : [c]).map(p => p.text ?? `[${p.type}]`).join('\n')

function Resources () {
  const list = useLoad<Resource[]>('/api/mcp/resources')
  const [q, setQ] = useState('')
  const [open, setOpen] = useState<{ r: Resource, contents: ResourceContent[] } | null>(null)
  return <Card title={t('mx.resources')} testid="mcp-resources" extra={<>
    <input aria-label={t('search')} placeholder={t('search')} data-testid="mcp-resources-filter" value={q} onInput={e => setQ((e.target as HTMLInputElement).value)} />
    <button onClick={list.reload}>{t('refresh')}</button></>}>
    <View load={list} empty={<p class="muted">{t('mx.noResources')}</p>}>{rows => {
      const shown = rows.filter(r => !q || `${r.uri} ${r.name ?? ''}`.toLowerCase().includes(q.toLowerCase()))
      return <Table cols={[t('mx.server'), t('name'), t('mx.uri'), t('mx.mime'), '']} rows={shown.slice(0, 50).map(r => [r.serverName, r.name ?? '-', <code>{r.uri}</code>, r.mimeType ?? '-',
        <Act testid={`mcp-read-${r.uri}`} run={async () => {
          const res = await api<{ contents?: ResourceContent[] }>('/api/mcp/resources/read', { json: { serverName: r.serverName, uri: r.uri } })
          setOpen({ r, contents: res.contents ?? [] })
        }}>{t('mx.read')}</Act>])} />
    }}</View>
    {open && <div data-testid="mcp-resource-content" role="region" aria-label={`${t('mx.content')}: ${open.r.uri}`}>
      <h3>{open.r.name ?? open.r.uri}</h3>
      {/* long contents scroll: focusable so the keyboard can scroll them too */}
      {open.contents.map((c, i) => <pre key={i} tabIndex={0} role="region" aria-label={`${t('mx.content')} ${i + 1}`}>{c.text ?? (c.blob ? `[${c.mimeType ?? 'binary'} · ${c.blob.length} base64]` : '')}</pre>)}
    </div>}
  </Card>
}

function PromptForm ({ p }: { p: Prompt }) {
  const [args, setArgs] = useState<Record<string, string>>({})
  const [out, setOut] = useState<{ description?: string, messages?: PromptMessage[] } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const base = `mcp-prompt-${p.serverName}-${p.name}`.replace(/[^\w-]/g, '_')
  return <div data-testid="mcp-prompt-form">
    <h3>{p.name} <span class="muted">({p.serverName})</span></h3>
    {p.description && <p class="muted">{p.description}</p>}
    <div class="form">{(p.arguments ?? []).map(a => <div class="field" key={a.name}>
      <label for={`${base}-${a.name}`}>{a.name}{a.required ? ` (${t('mx.required')})` : ''}</label>
      <input id={`${base}-${a.name}`} name={a.name} data-testid={`mcp-prompt-arg-${a.name}`} value={args[a.name] ?? ''} required={a.required}
        onInput={e => setArgs({ ...args, [a.name]: (e.target as HTMLInputElement).value })} aria-describedby={a.description ? `${base}-${a.name}-help` : undefined} />
      {a.description && <small class="help" id={`${base}-${a.name}-help`}>{a.description}</small>}
    </div>)}</div>
    <Act testid="mcp-prompt-get" run={async () => {
      setError(null)
      try { setOut(await api('/api/mcp/prompts/get', { json: { serverName: p.serverName, name: p.name, args } })) } catch (e) { setError(errText(e)) }
    }}>{t('mx.get')}</Act>
    {error && <ErrorBox error={error} />}
    {out && <div data-testid="mcp-prompt-result">
      {out.description && <p>{out.description}</p>}
      <Table cols={[t('mx.role'), t('mx.content')]} rows={(out.messages ?? []).map((m, i) => [m.role, <pre tabIndex={0} role="region" aria-label={`${t('mx.messages')} ${i + 1}`}>{textOf(m.content)}</pre>])} />
    </div>}
  </div>
}

function Prompts () {
  const list = useLoad<Prompt[]>('/api/mcp/prompts')
  const [open, setOpen] = useState<Prompt | null>(null)
  return <Card title={t('mx.prompts')} testid="mcp-prompts" extra={<button onClick={list.reload}>{t('refresh')}</button>}>
    <View load={list} empty={<p class="muted">{t('mx.noPrompts')}</p>}>{rows => <Table cols={[t('mx.server'), t('name'), t('description'), t('mx.arguments'), '']}
      rows={rows.map(p => [p.serverName, <b>{p.name}</b>, p.description ?? '', (p.arguments ?? []).map(a => a.required ? `${a.name}*` : a.name).join(', ') || '-',
        <button data-testid={`mcp-prompt-${p.name}`} aria-label={`${t('view')} ${p.name}`} onClick={() => setOpen(p)}>{t('view')}</button>])} />}</View>
    {open && <PromptForm key={`${open.serverName}/${open.name}`} p={open} />}
  </Card>
}

export default function Mcp () {
  const list = useLoad<ServerView[]>('/api/mcp/servers')
  const [tools, setTools] = useState<{ name: string, tools: McpToolInfo[] } | null>(null)
  const [editing, setEditing] = useState<ServerView | null>(null)
  const [browse, setBrowse] = useState(0)
  const remove = async (s: ServerView): Promise<void> => {
    if (!await confirmDanger(tv('mx.confirmDelete', { name: s.name }))) return
    await api(`/api/mcp/servers/${enc(s.name)}`, { method: 'DELETE' })
    toast(tv('cx.deleted', { name: s.name }))
    list.reload()
  }
  return <div>
    {editing && <ServerForm key={editing.name} initial={editing} onDone={() => { setEditing(null); list.reload(); setBrowse(n => n + 1) }} />}
    <Card title={t('mcp')} extra={<button data-testid="mcp-refresh" onClick={() => { list.reload(); setBrowse(n => n + 1) }}>{t('refresh')}</button>}>
      <View load={list} isEmpty={d => d.length === 0}>{d => <Table cols={[t('name'), t('type'), t('status'), t('toolsShort'), t('trusted'), t('actions')]}
        rows={d.map(s => [<b>{s.name}</b>, s.type,
          <span data-testid={`mcp-status-${s.name}`} data-status={s.status} class={s.status === 'connected' ? 'ok' : s.status === 'connecting' ? 'muted' : 'bad'} title={s.error}>{word(s.status)}{s.error ? ` · ${s.error}` : ''}</span>, s.toolCount,
          <label class="check" title={t('trustHint')}><input type="checkbox" data-testid={`mcp-trust-${s.name}`} aria-label={`${t('trusted')}: ${s.name}`} checked={s.trusted} disabled={s.isBuiltin}
            onChange={async e => {
              try { await api(`/api/mcp/servers/${enc(s.name)}`, { method: 'PUT', json: { trust: (e.target as HTMLInputElement).checked } }); toast(t('saved')) } catch (err) { toast(errText(err), true) }
              list.reload()
            }} /> {t('trusted')}</label>,
          <div class="row">
            <Act testid={`mcp-tools-${s.name}`} run={async () => setTools({ name: s.name, tools: await api<McpToolInfo[]>(`/api/mcp/servers/${enc(s.name)}/tools`) })}>{t('toolsShort')}</Act>
            {!s.isBuiltin && <button data-testid={`mcp-edit-${s.name}`} aria-label={`${t('edit')} ${s.name}`} onClick={() => setEditing(s)}>{t('edit')}</button>}
            <Act testid={`mcp-reconnect-${s.name}`} run={async () => { await api(`/api/mcp/servers/${enc(s.name)}/reconnect`, { method: 'POST' }); list.reload(); setBrowse(n => n + 1) }}>{t('reconnect')}</Act>
            {!s.isBuiltin && <Act kind="danger" testid={`mcp-delete-${s.name}`} run={() => remove(s)}>{t('delete')}</Act>}
          </div>])} />}</View>
      <div class="muted">{t('trustHint')}</div>
    </Card>
    {tools && <Tools name={tools.name} tools={tools.tools} onClose={() => setTools(null)} />}
    <div key={browse}>
      <Resources />
      <Prompts />
    </div>
    <ServerForm onDone={() => { list.reload(); setBrowse(n => n + 1) }} />
    <ImportDesktop onDone={list.reload} />
  </div>
}
