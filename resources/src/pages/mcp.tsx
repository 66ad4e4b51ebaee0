import { useState } from 'preact/hooks'
import { api, errText } from '../api'
import { t } from '../i18n'
import type { McpImportResult, McpToolInfo, ServerView } from '../contracts'
import { Act, Card, ErrorBox, Table, View, toast, useLoad, word } from '../ui'

const TYPES = ['stdio', 'npx', 'npm', 'sse', 'http', 'streamable-http']

function AddServer ({ onDone }: { onDone: () => void }) {
  const [f, setF] = useState({ name: '', type: 'stdio', command: '', args: '', env: '{}', package: '', url: '', headers: '{}' })
  const [trusted, setTrusted] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const set = (k: string) => (e: Event) => setF({ ...f, [k]: (e.target as HTMLInputElement).value })
  const add = async (): Promise<void> => {
    setError(null)
    try {
      const config: Record<string, unknown> = { type: f.type }
      if (f.type === 'stdio') Object.assign(config, { command: f.command, args: f.args.split(' ').filter(Boolean), env: JSON.parse(f.env) })
      else if (f.type === 'npm' || f.type === 'npx') Object.assign(config, { package: f.package, args: f.args.split(' ').filter(Boolean) })
      else Object.assign(config, { url: f.url, headers: JSON.parse(f.headers) })
      await api('/api/mcp/servers', { json: { name: f.name, config, trust: trusted } })
      toast(t('saved')); onDone()
    } catch (e) { setError(errText(e)) }
  }
  return <Card title={t('add')}>
    <div class="form" data-testid="mcp-form">
      <label>{t('name')}<input name="name" value={f.name} onInput={set('name')} /></label>
      <label>{t('type')}<select name="type" value={f.type} onChange={set('type')}>{TYPES.map(x => <option key={x}>{x}</option>)}</select></label>
      {f.type === 'stdio' && <><label>{t('command')}<input name="command" value={f.command} onInput={set('command')} /></label>
        <label>{t('argsList')}<input name="args" value={f.args} onInput={set('args')} /></label><label>env (JSON)<input name="env" value={f.env} onInput={set('env')} /></label></>}
      {(f.type === 'npm' || f.type === 'npx') && <><label>{t('package')}<input name="package" value={f.package} onInput={set('package')} /></label>
        <label>{t('argsList')}<input name="args" value={f.args} onInput={set('args')} /></label></>}
      {['sse', 'http', 'streamable-http'].includes(f.type) && <><label>URL<input name="url" value={f.url} onInput={set('url')} /></label>
        <label>headers (JSON)<input name="headers" value={f.headers} onInput={set('headers')} /></label></>}
      <label title={t('trustHint')}><input type="checkbox" name="trust" data-testid="mcp-form-trust" checked={trusted} onChange={e => setTrusted((e.target as HTMLInputElement).checked)} /> {t('trusted')}</label>
    </div>
    <div class="muted">{t('trustHint')}</div>
    {error && <ErrorBox error={error} />}
    <button class="primary" data-testid="mcp-save" onClick={add}>{t('add')}</button>
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
    <textarea data-testid="mcp-import-text" rows={6} value={text} onInput={e => setText((e.target as HTMLTextAreaElement).value)} />
    {error && <ErrorBox error={error} />}{result && <div class="muted" data-testid="mcp-import-result">{result}</div>}
    <button data-testid="mcp-import" onClick={async () => {
      setError(null)
      try { setResult(importSummary(await api<McpImportResult>('/api/mcp/import', { json: JSON.parse(text) }))); onDone() } catch (e) { setError(errText(e)) }
    }}>{t('importDesktop')}</button>
  </Card>
}

export default function Mcp () {
  const list = useLoad<ServerView[]>('/api/mcp/servers')
  const [tools, setTools] = useState<{ name: string, tools: McpToolInfo[] } | null>(null)
  return <div>
    <Card title={t('mcp')} extra={<button data-testid="mcp-refresh" onClick={list.reload}>{t('refresh')}</button>}>
      <View load={list} isEmpty={d => d.length === 0}>{d => <Table cols={[t('name'), t('type'), t('status'), t('toolsShort'), t('trusted'), t('actions')]}
        rows={d.map(s => [<b>{s.name}</b>, s.type,
          <span data-testid={`mcp-status-${s.name}`} data-status={s.status} class={s.status === 'connected' ? 'ok' : s.status === 'connecting' ? 'muted' : 'bad'} title={s.error}>{word(s.status)}{s.error ? ` · ${s.error}` : ''}</span>, s.toolCount,
          <label title={t('trustHint')}><input type="checkbox" data-testid={`mcp-trust-${s.name}`} aria-label={`${t('trusted')}: ${s.name}`} checked={s.trusted} disabled={s.isBuiltin}
            onChange={async e => {
              try { await api(`/api/mcp/servers/${encodeURIComponent(s.name)}`, { method: 'PUT', json: { trust: (e.target as HTMLInputElement).checked } }); toast(t('saved')) } catch (err) { toast(errText(err), true) }
              list.reload()
            }} /> {t('trusted')}</label>,
          <div class="row">
            <Act testid={`mcp-tools-${s.name}`} run={async () => setTools({ name: s.name, tools: await api<McpToolInfo[]>(`/api/mcp/servers/${encodeURIComponent(s.name)}/tools`) })}>{t('toolsShort')}</Act>
            <Act testid={`mcp-reconnect-${s.name}`} run={async () => { await api(`/api/mcp/servers/${encodeURIComponent(s.name)}/reconnect`, { method: 'POST' }); list.reload() }}>{t('reconnect')}</Act>
            {!s.isBuiltin && <Act kind="danger" run={async () => { if (confirm(t('confirmDelete'))) { await api(`/api/mcp/servers/${encodeURIComponent(s.name)}`, { method: 'DELETE' }); list.reload() } }}>{t('delete')}</Act>}
          </div>])} />}</View>
      <div class="muted">{t('trustHint')}</div>
    </Card>
    {tools && <Card testid="mcp-tool-list" title={`${t('toolsShort')}: ${tools.name}`} extra={<button onClick={() => setTools(null)}>×</button>}>
      <Table cols={[t('name'), t('description')]} rows={tools.tools.map(x => [<b>{x.name}</b>, x.description])} /></Card>}
    <AddServer onDone={list.reload} />
    <ImportDesktop onDone={list.reload} />
  </div>
}
