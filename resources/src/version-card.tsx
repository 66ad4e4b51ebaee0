// The overview's version card: the plugin's version, commit, date and branch (GET /api/system/version), a
// "locally changed" badge, the remote check on demand (POST /api/system/version/check: a git fetch, never run
// by itself) with the new commits, and, at the top, the packages the loader found missing with the features
// they turn off and the command that installs them. Updating itself is `#lx更新` in QQ (apps/update.ts).
import { useRef, useState } from 'preact/hooks'
import { api, ApiError, errText } from './api'
import type { RemoteCheck, SystemVersion } from './contracts'
import { locale, t, tv } from './i18n'
import { Card, Table, View, toast, useLoad } from './ui'
import './version-card.css'

/** Commits the server lists at most in a check (lib/update/version.ts MAX_LISTED). */
const MAX_LISTED = 20

const when = (iso: string | undefined): string => {
  if (!iso) return '-'
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(locale(), { dateStyle: 'medium', timeStyle: 'short' })
}

/** Why the server refused a check (lib/update/version.ts RefusalReason), answered as `details.reason` (docs/api.md, Version and updates). */
const REFUSALS: Record<string, 'vc.err.noGit' | 'vc.err.noUpstream' | 'vc.err.busy'> = { noGit: 'vc.err.noGit', noUpstream: 'vc.err.noUpstream', busy: 'vc.err.busy' }

/** A failed check in the owner's words, chosen by the refusal's reason (never its English message), with git's own line where it helps (the fetch's error). */
function checkFailure (e: unknown): { text: string, detail?: string } {
  if (e instanceof ApiError) {
    const reason = typeof e.details?.reason === 'string' ? e.details.reason : undefined
    const refusal = reason !== undefined && Object.hasOwn(REFUSALS, reason) ? REFUSALS[reason] : undefined
    if (refusal) return { text: t(refusal) }
    if (reason === 'fetchFailed') return { text: t('vc.err.fetch'), detail: e.message.replace(/^git fetch failed:\s*/, '') }
  }
  return { text: errText(e) }
}

/** The clipboard where the page may use it (https, localhost); else the text is selected for Ctrl+C. */
async function copyText (text: string, el: HTMLElement | null): Promise<void> {
  try {
    await navigator.clipboard.writeText(text)
    toast(t('vc.copied'))
    return
  } catch { /* no clipboard over plain http: select it instead */ }
  const sel = window.getSelection()
  if (el && sel) {
    const range = document.createRange()
    range.selectNodeContents(el)
    sel.removeAllRanges()
    sel.addRange(range)
  }
  let copied = false
  try { copied = document.execCommand('copy') } catch { copied = false }
  toast(t(copied ? 'vc.copied' : 'vc.copyManual'))
}

function MissingPackages ({ deps }: { deps: SystemVersion['dependencies'] }) {
  const cmd = useRef<HTMLPreElement>(null)
  return <div class="vc-warn" data-testid="vc-deps">
    <h3>⚠ {t('vc.deps.title')}</h3>
    <div class="vc-deps-row"><span class="vc-label">{t('vc.deps.missing')}</span>
      <span data-testid="vc-deps-missing">{deps.missing.map((m, i) => <span key={m.name}>{i > 0 && t('vc.sep')}
        <code>{m.name}</code>{m.installed && <span class="muted"> ({tv('vc.deps.installed', { v: m.installed, range: m.range })})</span>}</span>)}</span>
    </div>
    {deps.featuresOff.length > 0 && <div class="vc-deps-row"><span class="vc-label">{t('vc.deps.off')}</span>
      <ul data-testid="vc-deps-off">{deps.featuresOff.map(f => <li key={f.feature}>{f.text} <span class="muted">({f.packages.join(', ')})</span></li>)}</ul>
    </div>}
    {deps.install?.attempted && !deps.install.ok && <p class="bad" data-testid="vc-deps-install">
      {tv('vc.deps.failed', { s: Math.round(deps.install.seconds) })}{deps.install.error ?? '?'}</p>}
    <p>{t('vc.deps.run')}</p>
    <div class="vc-cmd">
      <pre ref={cmd} data-testid="vc-deps-command" tabIndex={0} role="region" aria-label={t('command')}>{deps.command}</pre>
      <button type="button" data-testid="vc-deps-copy" onClick={() => { void copyText(deps.command, cmd.current) }}>{t('vc.copy')}</button>
    </div>
    <p class="muted">{t('vc.deps.orUpdate')}</p>
  </div>
}

function CheckResult ({ c }: { c: RemoteCheck }) {
  return <div data-testid="vc-result">
    <p role="status" class="vc-result-line">
      <b class={c.behind > 0 ? 'vc-new' : 'ok'} data-testid="vc-behind" data-behind={c.behind}>
        {c.behind === 0 ? t('vc.upToDate') : c.behind === 1 ? t('vc.behindOne') : tv('vc.behind', { n: c.behind })}</b>
      {c.ahead > 0 && <span class="muted"> · {tv('vc.ahead', { n: c.ahead })}</span>}
      <span class="muted"> · {tv('vc.checkedAt', { time: when(c.checkedAt), upstream: c.upstream })}</span>
    </p>
    {c.commits.length > 0 && <Table cols={[t('vc.hash'), t('vc.date'), t('vc.subject')]}
      rows={c.commits.map(m => [<code data-testid="vc-commit-hash">{m.hash}</code>, when(m.date), <span data-testid="vc-commit-subject">{m.subject}</span>])} />}
    {c.behind > c.commits.length && c.commits.length >= MAX_LISTED && <p class="muted">{tv('vc.more', { n: c.commits.length })}</p>}
  </div>
}

function Checker ({ git, last }: { git: boolean, last: RemoteCheck | undefined }) {
  const [result, setResult] = useState<RemoteCheck | undefined>(last)
  const [failure, setFailure] = useState<{ text: string, detail?: string } | null>(null)
  const [busy, setBusy] = useState(false)
  const run = async (): Promise<void> => {
    setBusy(true)
    setFailure(null)
    try {
      setResult(await api<RemoteCheck>('/api/system/version/check', { method: 'POST' }))
    } catch (e) {
      setFailure(checkFailure(e))
    } finally { setBusy(false) }
  }
  return <div class="vc-check">
    {git && <button type="button" class="primary" data-testid="vc-check" disabled={busy} aria-busy={busy || undefined} onClick={() => { void run() }}>
      {busy ? t('vc.checking') : t('vc.check')}</button>}
    {failure && <div class="error" role="alert" data-testid="vc-error">{failure.text}
      {failure.detail && <div class="vc-detail">{t('vc.err.detail')}<code>{failure.detail}</code></div>}</div>}
    {result && !failure && <CheckResult c={result} />}
  </div>
}

export function VersionCard () {
  const load = useLoad<SystemVersion>('/api/system/version')
  return <Card title={t('vc.title')} testid="version-card">
    <View load={load} isEmpty={() => false}>{v => <div>
      {v.dependencies.missing.length > 0 && <MissingPackages deps={v.dependencies} />}
      <div class="grid" data-testid="vc-info">
        <div class="stat">{t('vc.version')}<b data-testid="vc-version">{v.version || '-'}</b></div>
        {v.git && <div class="stat">{t('vc.commit')}<b><code data-testid="vc-commit" title={v.commit}>{v.shortCommit ?? '-'}</code></b>
          {v.dirty && <span class="vc-badge" data-testid="vc-dirty">{t('vc.dirty')}</span>}</div>}
        {v.git && <div class="stat">{t('vc.date')}<b class="vc-small" data-testid="vc-date">{when(v.date)}</b></div>}
        {v.git && <div class="stat">{t('vc.branch')}<b class="vc-small" data-testid="vc-branch">{v.branch ?? '-'}</b>
          {v.upstream && <span class="muted">→ {v.upstream}</span>}</div>}
      </div>
      {v.dirty && <p class="muted">{t('vc.dirtyHint')}</p>}
      {!v.git && <p class="muted" data-testid="vc-nogit">{t('vc.noGit')}</p>}
      <Checker git={v.git} last={v.lastCheck} />
      <p class="muted vc-howto">{t('vc.howTo')}</p>
    </div>}</View>
  </Card>
}
