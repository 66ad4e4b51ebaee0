// conversations.json on the journal store: a file of the layout before the journal is read and
// rewritten once; turns survive a restart without a clean stop.
import { expect } from 'chai'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTestServer } from '../support/server.js'

describe('chat: conversations file', function () {
  this.timeout(20_000)
  let dir: string
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'lingxi-conv-file-')) })
  afterEach(() => { rmSync(dir, { recursive: true, force: true }) })

  it('reads a conversations.json of the earlier layout and rewrites it in the journal layout', async () => {
    const old = { conversations: { 'private:42': { id: 'private:42', userId: '42', createdAt: 1, updatedAt: 2, messages: [{ role: 'user', content: 'old hello', timestamp: 1 }] } } }
    writeFileSync(join(dir, 'conversations.json'), JSON.stringify(old))
    const s = await startTestServer({ dataDir: dir, keepData: true })
    try {
      const list = await s.api('/api/conversations/list')
      expect(list.body.data.map((c: { id: string }) => c.id)).to.deep.equal(['private:42'])
      expect((await s.api('/api/conversations/private%3A42/messages')).body.data[0].content).to.equal('old hello')
      const onDisk = JSON.parse(readFileSync(join(dir, 'conversations.json'), 'utf8')) as Record<string, unknown>
      expect(Object.keys(onDisk).sort()).to.deep.equal(['meta', 'records'])
    } finally { await s.close() }
  })

  it('keeps a conversation appended just before an unclean stop (journal replay)', async () => {
    const s = await startTestServer({ dataDir: dir, keepData: true })
    await s.lx.rt.conversations.store.append({ id: 'private:7', userId: '7' }, [{ role: 'user', content: 'kept?', timestamp: 5 }])
    // no s.close(): a second plugin opens the same folder as after a crash
    const again = await startTestServer({ dataDir: dir, keepData: true })
    try {
      expect(again.lx.rt.conversations.store.history('private:7').map((m) => m.content)).to.deep.equal(['kept?'])
    } finally {
      await again.close()
      await s.close()
    }
  })
})
