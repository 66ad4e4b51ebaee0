// Bot reply texts in zh-CN (default) and en, chosen by the `language` setting.
const TEXTS = {
  'panel.links': { 'zh-CN': '灵犀管理面板登录链接（5 分钟内有效，仅可使用一次）：', en: 'Lingxi dashboard login link (valid 5 minutes, single use):' },
  'panel.sentPrivately': { 'zh-CN': '登录链接已私聊发送给你，请查看私聊。', en: 'I sent you the login link in a private message.' },
  'panel.privateFailed': { 'zh-CN': '无法私聊发送登录链接，请先加我为好友后在私聊中发送此命令。', en: 'I could not message you privately; add me as a friend and send this command in a private chat.' },
  'panel.notReady': { 'zh-CN': '灵犀尚未启动完成，请稍后再试。', en: 'Lingxi is still starting, try again in a moment.' },
  'chat.rateLimited': { 'zh-CN': '你发消息太快了，请稍后再试。', en: 'You are sending messages too fast, please wait a moment.' },
  'chat.noChannel': { 'zh-CN': '还没有可用的模型渠道，请在管理面板中添加渠道。', en: 'No model channel is available; add one in the dashboard.' },
  'chat.timeout': { 'zh-CN': '模型响应超时了，请稍后再试。', en: 'The model took too long to answer, please try again later.' },
  'chat.modelError': { 'zh-CN': '模型暂时无法回答，请稍后再试。', en: 'The model could not answer right now, please try again later.' },
  'chat.empty': { 'zh-CN': '（模型没有返回内容）', en: '(the model returned nothing)' },
  'poke.input': { 'zh-CN': '（{name}戳了戳你）', en: '({name} poked you)' },
  'error.generic': { 'zh-CN': '出了点问题，请稍后再试。', en: 'Something went wrong, please try again later.' }
} as const

export type TextKey = keyof typeof TEXTS
export type Language = 'zh-CN' | 'en'

export function t (lang: Language, key: TextKey, vars: Record<string, string | number> = {}): string {
  const text: string = TEXTS[key][lang] ?? TEXTS[key]['zh-CN']
  return text.replace(/\{(\w+)\}/g, (m, k: string) => (vars[k] !== undefined ? String(vars[k]) : m))
}
