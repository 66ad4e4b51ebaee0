// lib/host/actions.ts against the shapes of the real hosts' objects, without a host: icqq's (Miao-Yunzai:
// the client is the global Bot, members renew(), notices are announce(), false means refused, music is
// shareMusic), TRSS's OneBot accounts (Bot[id], getInfo(), recallMsg collecting errors, a `music` segment
// through sendMsg), a host that never answers (fake timers) and no host at all.
import { expect } from 'chai'
import sinon from 'sinon'
import * as act from '../../lib/host/actions.js'

type Loose = Record<string, unknown>
const g = globalThis as unknown as { Bot?: Loose; segment?: unknown }

describe('QQ actions: the host mapping (lib/host/actions.ts) on each host\'s shapes', () => {
  const saved = { Bot: g.Bot, segment: g.segment }
  afterEach(() => { g.Bot = saved.Bot; g.segment = saved.segment; sinon.restore() })

  it('icqq (Miao): renew() for roles, announce for notices, shareMusic and sendFile; false is a refusal', async () => {
    const calls: unknown[][] = []
    const group = {
      announce: async (content: string) => { calls.push(['announce', content]); return true },
      muteMember: async (uid: number, secs: number) => { calls.push(['mute', uid, secs]); return false },
      shareMusic: async (platform: string, id: string) => { calls.push(['music', platform, id]); return true },
      sendFile: async (file: string, _pid: unknown, name?: string) => { calls.push(['file', file, name]); return { fid: 'x' } },
      recallMsg: async (id: unknown) => { calls.push(['recall', id]); return true }
    }
    g.Bot = {
      uin: 42,
      pickGroup: (gid: number) => { calls.push(['pickGroup', gid]); return group },
      pickMember: (_gid: number, uid: number) => ({ info: undefined, renew: async () => ({ role: uid === 7 ? 'owner' : 'admin' }) }),
      setEssenceMessage: async (id: string) => { calls.push(['essence', id]); return true }
    }
    g.segment = undefined
    expect(await act.memberRole('100', '7')).to.equal('owner')
    expect(await act.memberRole('100', '8')).to.equal('admin')
    expect(await act.sendNotice('100', '开会')).to.deep.equal({ ok: true })
    expect(await act.muteMember('100', '8', 60)).to.deep.equal({ ok: false, error: 'the host refused' })
    expect(await act.sendMedia('100', 'music', '123', undefined, { platform: '163' })).to.deep.equal({ ok: true })
    expect(await act.sendMedia('100', 'file', 'https://x/a.pdf', undefined, { name: 'a.pdf' })).to.deep.equal({ ok: true })
    // icqq message ids are base64 strings: passed as they are
    expect(await act.recallMessage('100', 'AbC+/x==')).to.deep.equal({ ok: true })
    expect(await act.setEssence('100', 'AbC+/x==')).to.deep.equal({ ok: true })
    expect(calls.filter((c) => c[0] !== 'pickGroup')).to.deep.equal([
      ['announce', '开会'], ['mute', 8, 60], ['music', '163', '123'], ['file', 'https://x/a.pdf', 'a.pdf'], ['recall', 'AbC+/x=='], ['essence', 'AbC+/x==']
    ])
    expect(calls.find((c) => c[0] === 'pickGroup')?.[1], 'numeric ids go as numbers').to.equal(100)
  })

  it('TRSS (OneBot): Bot[id], getInfo() with the cache behind it, recall errors collected, music as a OneBot segment', async () => {
    const sent: unknown[] = []
    const account = {
      sendApi: async () => ({}),
      pickGroup: () => ({
        sendMsg: async (msg: unknown) => { sent.push(msg); return { message_id: 9 } },
        recallMsg: async () => [new Error('消息不存在')],
        sendNotice: async () => ({ status: 'failed', retcode: 100, wording: '权限不足' })
      }),
      pickMember: (_gid: number, uid: number) => ({ role: 'member', getInfo: async () => { if (uid === 5) throw new Error('timeout'); return { role: 'admin' } } })
    }
    g.Bot = { uin: ['3000'], 3000: account }
    g.segment = undefined
    expect(await act.memberRole('100', '4', '3000')).to.equal('admin')
    expect(await act.memberRole('100', '5', '3000'), 'the cache when the host cannot be asked').to.equal('member')
    expect(await act.recallMessage('100', '1234', '3000')).to.deep.equal({ ok: false, error: '消息不存在' })
    expect(await act.sendNotice('100', 'x', '3000')).to.deep.equal({ ok: false, error: '权限不足' })
    expect(await act.sendMedia('100', 'music', '001', '3000')).to.deep.equal({ ok: true, messageId: '9' })
    expect(await act.sendMedia('100', 'face', '14', '3000')).to.deep.equal({ ok: true, messageId: '9' })
    expect(sent).to.deep.equal([{ type: 'music', data: { type: 'qq', id: '001' } }, { type: 'face', id: 14 }])
    // no kickMember on this group object: the host does not have it
    expect(await act.kickMember('100', '4', '3000')).to.deep.equal({ ok: false, unsupported: true })
  })

  it('a host that never answers fails after 15 s (fake timers); no host at all is unsupported', async () => {
    const clock = sinon.useFakeTimers()
    g.Bot = { pickGroup: () => ({ muteAll: () => new Promise(() => {}) }), pickMember: () => ({ getInfo: () => new Promise(() => {}) }) }
    const pending = act.muteAll('100', true)
    const role = act.memberRole('100', '1')
    await clock.tickAsync(15_000)
    expect(await pending).to.deep.equal({ ok: false, error: 'the host did not answer in time' })
    expect(await role).to.equal(undefined)
    clock.restore()
    g.Bot = undefined
    expect(await act.muteAll('100', true)).to.deep.equal({ ok: false, unsupported: true })
    expect(await act.memberRole('100', '1')).to.equal(undefined)
  })
})
