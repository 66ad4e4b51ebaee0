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
      expect(Object.keys(onDisk).sort()).to.deep.equal(['g', 'meta', 'records'])
    } finally { await s.close() }
  })

  it('keeps a conversation appended just before an unclean stop (journal replay)', async () => {
    const s = await startTestServer({ dataDir: dir, keepData: true })
    await s.lx.rt.need('conversations').store.append({ id: 'private:7', userId: '7' }, [{ role: 'user', content: 'kept?', timestamp: 5 }])
    // no s.close(): a second plugin opens the same folder as after a crash
    const again = await startTestServer({ dataDir: dir, keepData: true })
    try {
      expect(again.lx.rt.need('conversations').store.history('private:7').map((m) => m.content)).to.deep.equal(['kept?'])
    } finally {
      await again.close()
      await s.close()
    }
  })

  it('replays a journal written before deltas (whole conversations per line), then journals only new messages', async () => {
    const msg = (content: string, timestamp: number): object => ({ role: timestamp % 2 ? 'user' : 'assistant', content, timestamp })
    const a = { id: 'private:1', userId: '1', createdAt: 1, updatedAt: 2, messages: [msg('a1', 1), msg('a2', 2)] }
    writeFileSync(join(dir, 'conversations.json'), JSON.stringify({ meta: {}, records: [a] }))
    // the layout before deltas: every turn wrote its whole conversation as a put line (no generation line)
    writeFileSync(join(dir, 'conversations.journal.jsonl'),
      JSON.stringify({ p: { ...a, updatedAt: 4, messages: [...a.messages, msg('a3', 3), msg('a4', 4)] } }) + '\n' +
      JSON.stringify({ p: { id: 'private:2', userId: '2', createdAt: 5, updatedAt: 5, messages: [msg('b1', 5)] } }) + '\n')
    const s = await startTestServer({ dataDir: dir, keepData: true })
    const store = s.lx.rt.need('conversations').store
    expect(store.history('private:1').map((m) => m.content)).to.deep.equal(['a1', 'a2', 'a3', 'a4'])
    expect(store.history('private:2').map((m) => m.content)).to.deep.equal(['b1'])
    await store.append({ id: 'private:1', userId: '1' }, [{ role: 'user', content: 'a5', timestamp: 7 }])
    const lines = readFileSync(join(dir, 'conversations.journal.jsonl'), 'utf8').trim().split('\n')
    const last = JSON.parse(lines.at(-1)!) as { a?: { k: string; i: Array<{ content: string }> } }
    expect(last.a?.k).to.equal('private:1')
    expect(last.a?.i.map((m) => m.content)).to.deep.equal(['a5']) // only the new message, not the conversation
    const again = await startTestServer({ dataDir: dir, keepData: true }) // unclean: s not closed yet
    try {
      expect(again.lx.rt.need('conversations').store.history('private:1').map((m) => m.content)).to.deep.equal(['a1', 'a2', 'a3', 'a4', 'a5'])
      expect(again.lx.rt.need('conversations').store.history('private:2').map((m) => m.content)).to.deep.equal(['b1'])
    } finally {
      await again.close()
      await s.close()
    }
  })

  it('keeps the stored-message bound across a replay of delta lines; a summary is a small patch line', async () => {
    const s = await startTestServer({ dataDir: dir, keepData: true })
    await s.lx.rt.config.update({ chat: { maxStoredMessages: 3 } })
    const store = s.lx.rt.need('conversations').store
    const owner = { id: 'group:9:8', userId: '8', groupId: '9' }
    for (let i = 1; i <= 5; i++) await store.append(owner, [{ role: 'user', content: `m${i}`, timestamp: i }])
    await store.setSummary(owner.id, { text: 'sum', through: 2 })
    expect(store.history(owner.id).map((m) => m.content)).to.deep.equal(['m3', 'm4', 'm5'])
    const last = readFileSync(join(dir, 'conversations.journal.jsonl'), 'utf8').trim().split('\n').at(-1)!
    expect(JSON.parse(last)).to.deep.equal({ a: { k: owner.id, s: { summary: { text: 'sum', through: 2 } } } })
    const again = await startTestServer({ dataDir: dir, keepData: true })
    try {
      const c = again.lx.rt.need('conversations').store.get(owner.id)
      expect(c?.messages.map((m) => m.content)).to.deep.equal(['m3', 'm4', 'm5'])
      expect(c?.summary).to.deep.equal({ text: 'sum', through: 2 })
      expect(c?.groupId).to.equal('9')
    } finally {
      await again.close()
      await s.close()
    }
  })

  it('keeps both turns when two race on a new conversation', async () => {
    const s = await startTestServer({ dataDir: dir, keepData: true })
    try {
      const store = s.lx.rt.need('conversations').store
      const owner = { id: 'private:race', userId: 'race' }
      await Promise.all([store.append(owner, [{ role: 'user', content: 'one', timestamp: 1 }]), store.append(owner, [{ role: 'user', content: 'two', timestamp: 2 }])])
      expect(store.history(owner.id).map((m) => m.content)).to.deep.equal(['one', 'two'])
    } finally { await s.close() }
  })
})
