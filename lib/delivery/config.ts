// The `delivery` section (how an answer goes out in QQ, README "The bot in a QQ chat") and its
// per-group overrides groups.<id>.delivery: one shape without zod defaults, filled from the defaults
// below globally, every field optional per group (lib/config/README.md, "A domain's section").
import { z } from 'zod'
import { doc, sectionDefaults } from '../config/field-doc.js'

export const deliveryShape = {
  markdown: doc(z.enum(['plain', 'keep']), ['Markdown', 'Markdown 处理', 'Plain text: headings, lists, tables, code and links become readable text. Reasoning (<think>) is never sent.', '转为纯文本：标题、列表、表格、代码和链接变成易读的文字。思考过程（<think>）总是不发送。'], {
    default: 'plain',
    note: 'plain: markdown (headings, lists, tables, code, links) turned into readable text; keep: as written. Reasoning (<think> and the like) never reaches the chat either way.'
  }),
  longAnswer: doc(z.enum(['forward', 'image', 'off']), ['Long answers', '长回答的发送方式', 'Answers over the length below: one merged forward message, a rendered image (forward when the host has no renderer), or sent as they are.', '超过下面字数的回答：合并转发，渲染成图片（宿主没有渲染器时改为合并转发），或直接发送。'], {
    default: 'forward',
    note: 'Answers longer than longAnswerChars characters: forward = one merged forward message (keeps the group readable), image = a picture drawn by the host\'s renderer (forward when there is none), off = sent as they are.'
  }),
  longAnswerChars: doc(z.number().int().min(50).max(100000), ['Long answer length', '长回答字数', 'Characters from which an answer counts as long (50-100000).', '超过这么多字算长回答（50-100000）。'], { default: 500 }),
  splitSentences: doc(z.boolean(), ['Sentence by sentence', '逐句发送', 'Send shorter answers one sentence at a time, pausing like a person typing.', '较短的回答一句一句发出，每句前像真人打字一样停顿。'], {
    default: false,
    note: 'Send a shorter answer sentence by sentence, pausing like a person typing (about sentenceDelayMs before each, longer for longer sentences).'
  }),
  sentenceDelayMs: doc(z.number().int().min(0).max(10000), ['Pause per sentence (ms)', '逐句停顿（毫秒）', 'About this long before each sentence, longer for long ones (0-10000).', '每句前大约停顿这么久，长句更久（0-10000）。'], { default: 800 }),
  quote: doc(z.boolean(), ['Quote the question', '引用提问消息', 'In groups, quote the message being answered.', '群聊中回复时引用所回答的那条消息。'], { default: true }),
  atSender: doc(z.boolean(), ['@ the asker', '@提问的人', 'In groups, @-mention whoever asked.', '群聊中回复时 @ 提问的人。'], { default: false }),
  thinkingNoticeMs: doc(z.number().int().min(0).max(600000), ['"Thinking" notice after (ms)', '“思考中”提示（毫秒）', 'When the model has not answered after this long, a short notice goes out; 0 = never.', '模型过了这么久还没回答时，先发一句提示；0 = 不发。'], { default: 0 }),
  thinkingNoticeText: doc(z.string().max(200), ['"Thinking" notice text', '“思考中”提示文字', 'Empty: the default text ("Let me think…").', '留空使用默认文字“让我想想……”。'], {
    default: '',
    note: 'The notice\'s text ("" = "让我想想……").'
  }),
  stream: doc(z.enum(['off', 'private', 'on']), ['Streamed answers', '流式发送', 'Send the answer in pieces while the model still writes: off, in private chats only, or in groups too.', '模型还在写时就分段发出回答：关闭、仅私聊、或群聊也分段。'], {
    default: 'private',
    note: 'Streamed answers (README "Streamed answers"): pieces (sentences, paragraphs) go out while the model still writes. off, private (private chats only: several messages in a row are what QQ\'s risk control watches in groups) or on (groups too; groups.<id>.delivery.stream: on for one group).'
  }),
  streamMinChars: doc(z.number().int().min(0).max(2000), ['Shortest piece', '最短分段', 'A piece shorter than this many characters waits for the next one (0-2000).', '短于这么多字的分段会等下一段一起发（0-2000）。'], { default: 30 }),
  streamMaxPieces: doc(z.number().int().min(1).max(20), ['Most pieces', '最多分段', 'Pieces sent at most; the rest of a longer answer goes out as one message (1-20).', '最多发这么多段；更长回答的其余部分作为一条消息发出（1-20）。'], { default: 4 })
}

const delivery = doc(z.strictObject(deliveryShape), ['Answer delivery', '回复方式', 'How answers go out in QQ.', '回答如何发送到 QQ。'], {
  note: 'How answers go out in QQ. groups.<id>.delivery overrides any of these per group.'
})
export const deliverySection = delivery.prefault(sectionDefaults(delivery))
