// The knowledge page's upload card: files dropped or chosen (several at once) go up one at a time
// through XMLHttpRequest (fetch has no upload progress), each with its own progress bar; then each
// document is polled (GET /api/knowledge/:id) until it is ready or failed (with the server's reason).
// A URL import joins the same list.
import { useEffect, useRef, useState } from 'preact/hooks'
import { ApiError, api, BASE, errText, session } from '../api'
import type { KnowledgeDoc } from '../contracts'
import { Act, Card } from '../ui'
import { kt, ktv } from './knowledge-words'

type State = 'uploading' | 'processing' | 'ready' | 'failed'
interface Item { key: number, name: string, progress: number, state: State, error?: string }
interface Made { id: string, title: string, status: 'processing' | 'ready' | 'failed', error?: string }

/** How often a processing document is asked about (the server processes one at a time). */
const POLL_MS = 600

/** POST /api/knowledge/files with one file, telling the upload's progress (0-100). */
function uploadFile (file: File, baseId: string, onProgress: (p: number) => void): Promise<Made> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', `${BASE}/api/knowledge/files`)
    const token = session.token()
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`)
    xhr.upload.onprogress = e => { if (e.lengthComputable) onProgress(Math.round(e.loaded / e.total * 100)) }
    xhr.onload = () => {
      let body: { code?: number, data?: Made[], message?: string } = {}
      try { body = JSON.parse(xhr.responseText) } catch { /* not JSON: the status says it */ }
      const made = body.data?.[0]
      if (xhr.status === 201 && body.code === 0 && made) resolve(made)
      else reject(new ApiError(body.message || `HTTP ${xhr.status}`, xhr.status))
    }
    xhr.onerror = () => reject(new TypeError('Failed to fetch'))
    const form = new FormData()
    form.append('file', file, file.name)
    form.append('baseId', baseId)
    xhr.send(form)
  })
}

export function UploadCard ({ baseId, baseName, onChanged }: { baseId: string, baseName: string, onChanged: () => void }) {
  const [items, setItems] = useState<Item[]>([])
  const [over, setOver] = useState(false)
  const [url, setUrl] = useState('')
  const keyRef = useRef(0)
  const live = useRef(true)
  const input = useRef<HTMLInputElement>(null)
  useEffect(() => () => { live.current = false }, [])
  const patch = (key: number, p: Partial<Item>): void => { if (live.current) setItems(list => list.map(i => i.key === key ? { ...i, ...p } : i)) }
  const add = (name: string, state: State): number => {
    const key = ++keyRef.current
    setItems(list => [...list, { key, name, progress: 0, state }])
    return key
  }

  /** Polls the document until it is no longer processing. */
  const follow = async (key: number, made: Made): Promise<void> => {
    let d: Pick<KnowledgeDoc, 'status' | 'error'> = made
    while (d.status === 'processing' && live.current) {
      await new Promise(resolve => setTimeout(resolve, POLL_MS))
      try { d = await api<KnowledgeDoc>(`/api/knowledge/${encodeURIComponent(made.id)}`) } catch (e) { patch(key, { state: 'failed', error: errText(e) }); return }
    }
    patch(key, d.status === 'failed' ? { state: 'failed', error: d.error ?? '' } : { state: d.status ?? 'ready' })
    if (live.current) onChanged()
  }

  const send = async (files: File[]): Promise<void> => {
    const keys = files.map(f => add(f.name, 'uploading'))
    const waiting: Array<Promise<void>> = []
    for (const [i, f] of files.entries()) {
      const key = keys[i]!
      try {
        const made = await uploadFile(f, baseId, p => patch(key, { progress: p }))
        patch(key, { progress: 100, state: 'processing' })
        onChanged()
        waiting.push(follow(key, made))
      } catch (e) { patch(key, { state: 'failed', error: errText(e) }) }
    }
    await Promise.all(waiting)
  }

  const importUrl = async (): Promise<void> => {
    const made = await api<Made>('/api/knowledge/url', { json: { url: url.trim(), baseId } })
    const key = add(url.trim(), 'processing')
    setUrl('')
    onChanged()
    void follow(key, made)
  }

  return <Card title={kt('kb.upload')} testid="kb-upload" extra={<span class="muted">{ktv('kb.into', { name: baseName })}</span>}>
    <label class={over ? 'kb-drop over' : 'kb-drop'} data-testid="kb-drop"
      onDragOver={e => { e.preventDefault(); setOver(true) }} onDragLeave={() => setOver(false)}
      onDrop={e => { e.preventDefault(); setOver(false); const files = [...(e.dataTransfer?.files ?? [])]; if (files.length) void send(files) }}>
      <input ref={input} type="file" multiple class="kb-file" data-testid="kb-file" accept=".txt,.md,.html,.htm,.pdf,.docx,.csv,.xlsx"
        onChange={e => { const el = e.target as HTMLInputElement; const files = [...(el.files ?? [])]; el.value = ''; if (files.length) void send(files) }} />
      <span>{kt('kb.drop')}</span>
      <small class="muted">{kt('kb.types')}</small>
    </label>
    {items.length > 0 && <ul class="kb-uploads" data-testid="kb-uploads">{items.map(i => <li key={i.key} data-testid={`kb-up-${i.name}`} data-state={i.state}>
      <div class="row"><b class="kb-name">{i.name}</b>
        <span class={i.state === 'failed' ? 'bad' : i.state === 'ready' ? 'ok' : 'muted'} role={i.state === 'failed' ? 'alert' : undefined}>
          {i.state === 'uploading' ? ktv('kb.uploading', { p: i.progress }) : i.state === 'processing' ? kt('kb.processing') : i.state === 'ready' ? kt('kb.ready') : ktv('kb.failedAs', { e: i.error ?? '' })}
        </span></div>
      {i.state === 'uploading' && <div class="bar" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={i.progress} aria-label={i.name}><div style={{ width: `${i.progress}%` }} /></div>}
    </li>)}</ul>}
    <div class="row kb-url">
      <input type="url" data-testid="kb-url" aria-label={kt('kb.urlField')} placeholder="https://…" value={url} onInput={e => setUrl((e.target as HTMLInputElement).value)} />
      <Act testid="kb-url-import" run={importUrl}>{kt('kb.import')}</Act>
    </div>
  </Card>
}
