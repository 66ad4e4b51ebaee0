// Seeding and checking the stores a backup holds, through the running plugin (HTTP and services), and
// uploading a backup file as the dashboard does (multipart/form-data).
import { readFile } from 'node:fs/promises'
import { expect } from 'chai'
import type { TestServer } from '../support/server.js'

/** A conversation, a memory, a knowledge document, a preset, a task and a reminder. */
export async function seed (s: TestServer): Promise<void> {
  await s.lx.rt.need('conversations').store.append({ id: 'private:b1', userId: 'b1' }, [{ role: 'user', content: 'remember the backup', timestamp: 1 }])
  const mem = await s.api('/api/memory', { method: 'POST', json: { userId: 'b1', content: 'likes oolong tea' } })
  expect(mem.status, mem.text).to.be.oneOf([200, 201])
  const kb = await s.api('/api/knowledge', { method: 'POST', json: { title: 'backup handbook', content: 'Backups are gzip JSON lines.' } })
  expect(kb.status, kb.text).to.equal(201)
  const preset = await s.api('/api/presets', { method: 'POST', json: { id: 'backup-persona', name: 'Backup persona', systemPrompt: 'You keep copies' } })
  expect(preset.status, preset.text).to.equal(201)
  const task = await s.api('/api/tasks', { method: 'POST', json: { name: 'weekly report', prompt: 'summarise the week', schedule: '每周一9点', target: { groupId: '555' } } })
  expect(task.status, task.text).to.equal(201)
  await s.lx.rt.need('reminders').create({ userId: 'b1', groupId: '555', isMaster: false, isGroupAdmin: false }, { when: '2小时后', message: '喝水' })
}

/** What of the seed the plugin answers with (each true when there). */
export async function seen (s: TestServer): Promise<Record<string, boolean>> {
  const convs = (await s.api('/api/conversations/list?limit=100')).body.data as Array<{ id: string }>
  const mems = JSON.stringify((await s.api('/api/memory/user/b1')).body)
  const docs = (await s.api('/api/knowledge?limit=100')).body.data as Array<{ title: string }>
  const presets = JSON.stringify((await s.api('/api/presets?type=user')).body)
  const tasks = (await s.api('/api/tasks')).body.data as Array<{ name: string }>
  const reminders = s.lx.rt.need('reminders').list({ userId: 'b1' })
  return {
    conversation: convs.some((c) => c.id === 'private:b1'),
    memory: mems.includes('likes oolong tea'),
    knowledge: docs.some((d) => d.title === 'backup handbook'),
    preset: presets.includes('backup-persona'),
    task: tasks.some((t) => t.name === 'weekly report'),
    reminder: JSON.stringify(reminders).includes('喝水')
  }
}

export const ALL_SEEN = { conversation: true, memory: true, knowledge: true, preset: true, task: true, reminder: true }

/** Uploads `file` (a path or bytes) to a backup route with the text fields given. */
export async function upload (s: TestServer, path: string, file: string | Buffer, fields: Record<string, string> = {}): Promise<{ status: number; body: any; text: string }> {
  const form = new FormData()
  const bytes = typeof file === 'string' ? await readFile(file) : file
  form.set('file', new Blob([new Uint8Array(bytes)]), 'backup.jsonl.gz')
  for (const [k, v] of Object.entries(fields)) form.set(k, v)
  return s.api(path, { method: 'POST', body: form })
}

/** POST /api/backup: the downloaded bytes (fails the test when it is not a download). */
export async function download (s: TestServer, json: Record<string, unknown> = {}): Promise<Buffer> {
  const res = await fetch(`${s.base}/api/backup`, { method: 'POST', headers: { Authorization: `Bearer ${s.token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(json) })
  if (res.status !== 200) throw new Error(`POST /api/backup answered ${res.status}: ${await res.text()}`)
  expect(res.headers.get('content-disposition')).to.match(/^attachment; filename="lingxi-manual-\d{8}-\d{6}(-\d+)?\.jsonl\.gz"$/)
  return Buffer.from(await res.arrayBuffer())
}
