// Texts of the voice replies page (pages/voice.tsx), zh-CN and en; `bs.tts.*` are the settings form's
// labels and help texts (settings.tsx). Merged into i18n.ts's dictionaries.
type Dict = Record<string, string>

export const voiceZh: Dict = {
  voice: '语音回复',
  'tts.hint': '把回答用语音（QQ 语音消息）发出：通过兼容 OpenAI 的 /audio/speech 接口合成。合成失败时照常发文字。',
  'tts.card.settings': '语音合成', 'tts.card.group': '单个群的语音设置', 'tts.card.presets': '预设的声音',
  'tts.presetsHint': '启用“声音”的预设用自己的音色和语速说话（音色留空 = 上面的默认音色）；内置预设不能修改，请先复制。',
  'tts.voiceOn': '使用预设的声音', 'tts.voiceId': '音色', 'tts.speed': '语速', 'tts.builtin': '内置',
  'bs.tts.mode': '何时说话', 'bs.tts.mode.help': '关闭；按需：模型的 speak 工具或命令“#lx语音 <文字>”；总是：另外每个不超过“最多字数”的回答都用语音发出。',
  'bv.tts.mode.off': '关闭', 'bv.tts.mode.request': '按需', 'bv.tts.mode.always': '总是（短回答）',
  'bs.tts.baseUrl': '接口地址', 'bs.tts.baseUrl.help': '兼容 OpenAI 的地址，如 https://api.openai.com/v1（请求 <地址>/audio/speech）；留空 = 不合成。',
  'bs.tts.apiKey': '密钥', 'bs.tts.apiKey.help': '只显示掩码；保持掩码不变即保留原密钥。',
  'bs.tts.model': '模型', 'bs.tts.model.help': '例如 tts-1、gpt-4o-mini-tts。',
  'bs.tts.voice': '默认音色', 'bs.tts.voice.help': '例如 alloy、nova、shimmer（以接口支持的为准）。',
  'bs.tts.speed': '语速', 'bs.tts.speed.help': '0.25-4，1 为正常。',
  'bs.tts.format': '音频格式', 'bs.tts.format.help': '接口返回的格式；QQ 一侧会转换。',
  'bs.tts.maxChars': '最多字数', 'bs.tts.maxChars.help': '“总是”模式下，不超过这么多字的回答才用语音。',
  'bs.tts.timeoutMs': '超时（毫秒）', 'bs.tts.timeoutMs.help': '合成超过这个时间就改发文字。'
}

export const voiceEn: Dict = {
  voice: 'Voice replies',
  'tts.hint': 'Answers spoken as QQ voice messages, synthesized through an OpenAI-compatible /audio/speech endpoint. When speech fails the text is sent as usual.',
  'tts.card.settings': 'Speech', 'tts.card.group': 'Voice settings of one group', 'tts.card.presets': 'Preset voices',
  'tts.presetsHint': 'A preset with its voice on speaks with its own voice and speed (empty voice = the default above); built-in presets cannot be changed, copy one first.',
  'tts.voiceOn': 'Use the preset\'s voice', 'tts.voiceId': 'Voice', 'tts.speed': 'Speed', 'tts.builtin': 'built-in',
  'bs.tts.mode': 'When to speak', 'bs.tts.mode.help': 'Off; on request: the model\'s speak tool or the command "#lx say <text>"; always: also every answer up to the length below.',
  'bv.tts.mode.off': 'off', 'bv.tts.mode.request': 'on request', 'bv.tts.mode.always': 'always (short answers)',
  'bs.tts.baseUrl': 'Endpoint', 'bs.tts.baseUrl.help': 'An OpenAI-compatible address such as https://api.openai.com/v1 (asks <address>/audio/speech); empty = no speech.',
  'bs.tts.apiKey': 'Key', 'bs.tts.apiKey.help': 'Shown masked; leave the mask to keep the stored key.',
  'bs.tts.model': 'Model', 'bs.tts.model.help': 'e.g. tts-1 or gpt-4o-mini-tts (whatever the endpoint offers).',
  'bs.tts.voice': 'Default voice', 'bs.tts.voice.help': 'e.g. alloy, nova, shimmer (whatever the endpoint offers).',
  'bs.tts.speed': 'Speed', 'bs.tts.speed.help': '0.25-4; 1 is normal.',
  'bs.tts.format': 'Audio format', 'bs.tts.format.help': 'What the endpoint answers; the QQ side converts it.',
  'bs.tts.maxChars': 'Longest spoken answer', 'bs.tts.maxChars.help': 'In "always" mode only answers up to this many characters are spoken.',
  'bs.tts.timeoutMs': 'Timeout (ms)', 'bs.tts.timeoutMs.help': 'Speech taking longer is given up and the text sent.'
}
