// The host port's message lookups (lib/host/port.ts quotedMessage, forwardMessages) and the segment
// reader (lib/input/segments.ts) on the shapes the hosts give that the standalone host does not make:
// an account with only OneBot's sendApi, icqq's e.source without a chat history, go-cqhttp forward
// nodes in the protocol's own `{type, data}` form under `content`, CQ-code strings, and a protocol
// implementation that never answers (bounded, on fake timers).
import { expect } from 'chai'
import sinon from 'sinon'
import { forwardMessages, quotedMessage } from '../../lib/host/port.js'
import type { HostEvent } from '../../lib/host/types.js'
import { flat, messageSegments, render, senderOf } from '../../lib/input/segments.js'

const labels = { image: '[图片]', voice: '[语音]', forward: '[聊天记录]' }

function event (extra: Partial<HostEvent>): HostEvent {
  return { post_type: 'message', self_id: 1, user_id: 2, message: [], sender: {}, reply: async () => undefined, ...extra }
}

describe('input: host message shapes', () => {
  it('a quoted message through OneBot get_msg when the account has only sendApi', async () => {
    const calls: Array<[string, Record<string, unknown>]> = []
    const bot = {
      uin: 1,
      pickFriend: () => ({ sendMsg: async () => ({}) }),
      pickGroup: () => ({ sendMsg: async () => ({}) }),
      sendApi: async (action: string, params: Record<string, unknown>) => {
        calls.push([action, params])
        return { status: 'ok', retcode: 0, data: { sender: { user_id: 3, nickname: '小李' }, message: [{ type: 'text', data: { text: '原话' } }] } }
      }
    }
    const msg = await quotedMessage(event({ message: [{ type: 'reply', id: '77' }], bot }))
    expect(calls).to.deep.equal([['get_msg', { message_id: '77' }]])
    expect(senderOf(msg)).to.deep.equal({ id: '3', name: '小李' })
    expect(render(messageSegments(msg), labels, [], 6)).to.equal('原话')
  })

  it("icqq's e.source without a chat history gives its brief text and author", async () => {
    const msg = await quotedMessage(event({ source: { user_id: 5, time: 1, seq: 9, message: '你好[图片]' } }))
    expect(senderOf(msg).id).to.equal('5')
    expect(render(messageSegments(msg), labels, [], 6)).to.equal('你好[图片]')
  })

  it('no reply: nothing is looked up', async () => {
    const getMsg = sinon.spy(async () => ({}))
    const group = { sendMsg: async () => ({}), getMsg }
    expect(await quotedMessage(event({ group, message: [{ type: 'text', text: 'hi' }] }))).to.equal(undefined)
    expect(getMsg.called).to.equal(false)
  })

  it('a host that never answers is given up after the bound', async () => {
    const clock = sinon.useFakeTimers()
    try {
      const group = { sendMsg: async () => ({}), getMsg: () => new Promise<unknown>(() => {}), getForwardMsg: () => new Promise<unknown>(() => {}) }
      const quoted = quotedMessage(event({ group, reply_id: 8 }), 5000)
      const forward = forwardMessages(event({ group }), 'f', 5000)
      await clock.tickAsync(4999)
      let done = false
      void quoted.then(() => { done = true })
      await clock.tickAsync(0)
      expect(done).to.equal(false)
      await clock.tickAsync(1)
      expect(await quoted).to.equal(undefined)
      expect(await forward).to.deep.equal([])
    } finally { clock.restore() }
  })

  it('go-cqhttp forward nodes (`content` in the protocol form) through get_forward_msg', async () => {
    const bot = {
      uin: 1,
      pickFriend: () => ({ sendMsg: async () => ({}) }),
      pickGroup: () => ({ sendMsg: async () => ({}) }),
      sendApi: async () => ({ retcode: 0, data: { messages: [{ sender: { nickname: '甲', user_id: 4 }, content: [{ type: 'text', data: { text: '一' } }, { type: 'image', data: { file: 'a.png', url: 'https://img.example/a.png' } }] }] } })
    }
    const nodes = await forwardMessages(event({ bot }), 'res1')
    expect(nodes).to.have.length(1)
    const images: string[] = []
    expect(render(messageSegments(nodes[0]), labels, images, 6)).to.equal('一')
    expect(images).to.deep.equal(['https://img.example/a.png'])
    expect(senderOf(nodes[0]).name).to.equal('甲')
  })

  it('segments: OneBot form flattened, base64 images as data URLs, images past the bound stay labels', () => {
    expect(flat({ type: 'at', data: { qq: '9', name: 'x' } })).to.deep.equal({ qq: '9', name: 'x', type: 'at' })
    expect(flat('plain')).to.deep.equal({ type: 'text', text: 'plain' })
    expect(flat({ nope: 1 })).to.equal(undefined)
    const images: string[] = []
    const text = render([{ type: 'image', file: 'base64://QUJD' }, { type: 'image', url: 'https://img.example/2.png' }, { type: 'image', file: '/tmp/local.png' }, { type: 'record', file: 'x' }, { type: 'at', qq: 7 }], labels, images, 1)
    expect(images).to.deep.equal(['data:image/png;base64,QUJD'])
    expect(text).to.equal('[图片][图片][语音]@7')
  })
})
