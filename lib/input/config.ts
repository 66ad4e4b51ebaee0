// The `input` section: what the model gets of a QQ message besides its text (quotes, forwards, images,
// voice). Defaults written to config/default.yaml (lib/config/README.md, "A domain's section").
import { z } from 'zod'
import { doc, sectionDefaults } from '../config/field-doc.js'

const input = doc(z.strictObject({
  /** fetch the replied-to message through the host and give its text and images to the model */
  quoted: doc(z.boolean(), ['Read quoted messages', '读取引用的消息', 'When a user replies to a message, its text and images go to the model too.', '用户回复某条消息时，把被引用消息的文字和图片一起交给模型。'], {
    default: true,
    note: 'A reply to an earlier message: the quoted message (text and images) is fetched and given to the model.'
  }),
  /** messages of a forwarded bundle given to the model (0: bundles are not expanded) */
  forwardMaxMessages: doc(z.number().int().min(0).max(200), ['Forwarded bundles: read at most', '合并转发最多读取', 'Messages of a forwarded chat bundle given to the model; 0 = not read (0-200).', '合并转发的聊天记录最多读取这么多条；0 = 不读取（0-200）。'], { default: 30 }),
  /** images for a channel whose model cannot see (channels[].vision false) are captioned first by this
   * channel ('' = the first enabled channel with vision) and model ('' = that channel's default) */
  captionChannel: doc(z.string(), ['Captioning channel', '看图渠道', 'For a channel whose model cannot see, images are first described by this channel; automatic = the first enabled channel that can see.', '渠道的模型不能看图时，先由这个渠道把图片描述成文字；自动 = 第一个能看图的已启用渠道。'], {
    default: '',
    note: 'Channels marked "vision: false" cannot see images: the images are first described by this channel ("" = the first enabled channel that can see) and model (captionModel; "" = its default model).'
  }),
  captionModel: doc(z.string(), ['Captioning model', '看图模型', 'Empty: the captioning channel\'s default model.', '留空 = 看图渠道的默认模型。'], { default: '' }),
  /** voice messages: an OpenAI-compatible /audio/transcriptions endpoint ('' baseUrl = not transcribed) */
  transcription: doc(z.strictObject({
    baseUrl: doc(z.union([z.literal(''), z.url({ protocol: /^https?$/ })]), ['Speech-to-text URL', '语音识别地址', 'An OpenAI-compatible /audio/transcriptions endpoint, e.g. https://api.openai.com/v1; empty = voice messages are not read.', 'OpenAI 兼容的 /audio/transcriptions 接口，例如 https://api.openai.com/v1；留空 = 不识别语音。'], { default: '' }),
    apiKey: doc(z.string(), ['Speech-to-text key', '语音识别密钥', 'Shown masked; leave the mask to keep the stored key.', '只显示掩码；保持掩码则不修改已保存的密钥。'], { default: '' }),
    model: doc(z.string(), ['Speech-to-text model', '语音识别模型', 'For example whisper-1.', '例如 whisper-1。'], { default: 'whisper-1' })
  }), ['Voice transcription', '语音转写', 'An OpenAI-compatible /audio/transcriptions endpoint for voice messages.', '用于语音消息的 OpenAI 兼容 /audio/transcriptions 接口。'], {
    note: 'Voice messages are transcribed through an OpenAI-compatible /audio/transcriptions endpoint (baseUrl such as https://api.openai.com/v1; empty = voice messages are not read).'
  })
}), ['Reading messages', '读取消息', 'What the model gets of a message besides its text: quotes, forwards, images, voice.', '除文字外模型能读到的内容：引用、转发、图片、语音。'], {
  note: 'What the bot reads of a message besides its text.'
})
export const inputSection = input.prefault(sectionDefaults(input))
