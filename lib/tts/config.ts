// The `tts` section (spoken replies: when an answer is spoken and with which voice, the speech
// endpoint) and its per-group overrides groups.<id>.tts (mode, voice, speed, maxChars): one shape
// without zod defaults, filled from the defaults below globally, every field optional per group
// (lib/config/README.md, "A domain's section").
import { z } from 'zod'
import { doc, sectionDefaults } from '../config/field-doc.js'

export const ttsShape = {
  /** off; request: only when asked (the speak tool, the voice command); always: also every answer of
   * at most maxChars characters */
  mode: doc(z.enum(['off', 'request', 'always']), ['When to speak', '何时说话', 'Off; on request: the model\'s speak tool or the command "#lx say <text>"; always: also every answer up to the length below.', '关闭；按需：模型的 speak 工具或命令“#lx语音 <文字>”；总是：另外每个不超过“最多字数”的回答都用语音发出。'], {
    default: 'off',
    note: 'off; request = only when asked (the model\'s speak tool, the command "#lx语音 <text>"); always = also every answer of at most maxChars characters.'
  }),
  /** default voice of the speech endpoint (a preset's voice.voiceId wins when its voice is enabled) */
  voice: doc(z.string().max(200), ['Default voice', '默认音色', 'e.g. alloy, nova, shimmer (whatever the endpoint offers).', '例如 alloy、nova、shimmer（以接口支持的为准）。'], {
    default: 'alloy',
    note: 'Voice and speed of the endpoint; a preset whose voice is enabled speaks with its own voiceId and speed.'
  }),
  speed: doc(z.number().min(0.25).max(4), ['Speed', '语速', '0.25-4; 1 is normal.', '0.25-4，1 为正常。'], { default: 1 }),
  maxChars: doc(z.number().int().min(1).max(4096), ['Longest spoken answer', '最多字数', 'In "always" mode only answers up to this many characters are spoken.', '“总是”模式下，不超过这么多字的回答才用语音。'], { default: 100 })
}

const tts = doc(z.strictObject({
  ...ttsShape,
  /** an OpenAI-compatible speech API: <baseUrl>/audio/speech ('' = no speech) */
  baseUrl: doc(z.union([z.literal(''), z.url({ protocol: /^https?$/ })]), ['Endpoint', '接口地址', 'An OpenAI-compatible address such as https://api.openai.com/v1 (asks <address>/audio/speech); empty = no speech.', '兼容 OpenAI 的地址，如 https://api.openai.com/v1（请求 <地址>/audio/speech）；留空 = 不合成。'], { default: '' }),
  apiKey: doc(z.string(), ['Key', '密钥', 'Shown masked; leave the mask to keep the stored key.', '只显示掩码；保持掩码不变即保留原密钥。'], { default: '' }),
  model: doc(z.string(), ['Model', '模型', 'e.g. tts-1 or gpt-4o-mini-tts (whatever the endpoint offers).', '例如 tts-1、gpt-4o-mini-tts。'], { default: 'tts-1' }),
  format: doc(z.enum(['mp3', 'wav', 'opus', 'aac', 'flac']), ['Audio format', '音频格式', 'What the endpoint answers; the QQ side converts it.', '接口返回的格式；QQ 一侧会转换。'], {
    default: 'mp3',
    note: 'Audio format asked for: mp3, wav, opus, aac or flac (the QQ side converts it).'
  }),
  timeoutMs: doc(z.number().int().min(1000).max(300000), ['Timeout (ms)', '超时（毫秒）', 'Speech taking longer is given up and the text sent.', '合成超过这个时间就改发文字。'], { default: 30000 })
}), ['Voice replies', '语音回复', 'Text-to-speech: when an answer is spoken and with which voice.', '文字转语音：什么时候用语音回答、用哪个声音。'], {
  note: 'Spoken replies (text to speech) through an OpenAI-compatible speech API (<baseUrl>/audio/speech, e.g. https://api.openai.com/v1), sent as QQ voice messages; when the speech fails the text is sent. groups.<id>.tts overrides mode, voice, speed and maxChars per group.'
})
export const ttsSection = tts.prefault(sectionDefaults(tts))
