// Texts of the voice replies page (pages/voice.tsx), zh-CN and en; the settings' labels and help are the
// configuration schema's (form-engine.tsx), `bv.tts.*` names a value. Merged into i18n.ts's dictionaries.
type Dict = Record<string, string>

export const voiceZh: Dict = {
  voice: '语音回复',
  'tts.hint': '把回答用语音（QQ 语音消息）发出：通过兼容 OpenAI 的 /audio/speech 接口合成。合成失败时照常发文字。',
  'tts.card.settings': '语音合成', 'tts.card.group': '单个群的语音设置', 'tts.card.presets': '预设的声音',
  'tts.presetsHint': '启用“声音”的预设用自己的音色和语速说话（音色留空 = 上面的默认音色）；内置预设不能修改，请先复制。',
  'tts.voiceOn': '使用预设的声音', 'tts.voiceId': '音色', 'tts.speed': '语速', 'tts.builtin': '内置',
  'bv.tts.mode.off': '关闭', 'bv.tts.mode.request': '按需', 'bv.tts.mode.always': '总是（短回答）'
}

export const voiceEn: Dict = {
  voice: 'Voice replies',
  'tts.hint': 'Answers spoken as QQ voice messages, synthesized through an OpenAI-compatible /audio/speech endpoint. When speech fails the text is sent as usual.',
  'tts.card.settings': 'Speech', 'tts.card.group': 'Voice settings of one group', 'tts.card.presets': 'Preset voices',
  'tts.presetsHint': 'A preset with its voice on speaks with its own voice and speed (empty voice = the default above); built-in presets cannot be changed, copy one first.',
  'tts.voiceOn': 'Use the preset\'s voice', 'tts.voiceId': 'Voice', 'tts.speed': 'Speed', 'tts.builtin': 'built-in',
  'bv.tts.mode.off': 'off', 'bv.tts.mode.request': 'on request', 'bv.tts.mode.always': 'always (short answers)'
}
