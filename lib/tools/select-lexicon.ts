// A small bilingual lexicon of common tool concepts, so the tool selection (select.ts) matches a
// Chinese question to a tool described in English and the other way round without a model. A
// concept found in a text (a Chinese word as a substring, an English word or one of its forms as a
// word) adds a concept term to it; the query and the tools' texts are expanded, so BM25 matches them
// on that term. Single Chinese characters only where the usual phrasing needs them (算, 加, 画).
/** [concept, Chinese words, English words] */
const CONCEPTS: Array<[string, string[], string[]]> = [
  ['calc', ['算', '计算', '加上', '加', '减', '乘', '除以', '等于', '求和', '总和', '数学', '运算', '平方', '开方', '乘法', '除法', '加法', '减法'],
    ['calculate', 'calculator', 'calc', 'compute', 'add', 'addition', 'sum', 'plus', 'subtract', 'minus', 'multiply', 'times', 'divide', 'division', 'math', 'arithmetic', 'equation', 'numbers']],
  ['weather', ['天气', '气温', '温度', '下雨', '降雨', '预报', '刮风', '台风', '空气质量', '雾霾'], ['weather', 'forecast', 'temperature', 'rain', 'climate', 'humidity']],
  ['translate', ['翻译', '译成', '翻成', '译为', '怎么说'], ['translate', 'translation', 'translator']],
  ['search', ['搜索', '搜一下', '搜搜', '检索', '百度', '谷歌', '上网查', '网上查'], ['search', 'google', 'bing', 'duckduckgo']],
  ['image', ['图片', '图像', '照片', '画', '绘画', '绘图', '插画', '壁纸', '配图'], ['image', 'images', 'picture', 'photo', 'draw', 'drawing', 'paint', 'illustration', 'dall']],
  ['time', ['时间', '几点', '日期', '几号', '星期几', '时区', '钟点'], ['time', 'date', 'clock', 'timezone', 'datetime']],
  ['remind', ['提醒', '闹钟', '定时', '叫我', '别忘'], ['remind', 'reminder', 'alarm', 'timer', 'cron']],
  ['calendar', ['日历', '日程', '会议', '约会'], ['calendar', 'event', 'meeting', 'appointment', 'schedule']],
  ['todo', ['待办', '任务', '清单'], ['todo', 'task', 'tasks', 'checklist']],
  ['file', ['文件', '文件夹', '目录', '读取', '写入', '保存'], ['file', 'files', 'folder', 'directory', 'path', 'filesystem']],
  ['web', ['网页', '网站', '链接', '网址', '抓取', '打开网'], ['web', 'webpage', 'website', 'url', 'link', 'fetch', 'http', 'browse', 'page', 'crawl', 'scrape']],
  ['mute', ['禁言', '解禁', '闭嘴'], ['mute', 'unmute', 'silence']],
  ['kick', ['踢', '移出群', '踢出'], ['kick', 'ban']],
  ['group', ['群', '群聊', '群员', '群友', '群成员', '群公告'], ['group', 'qq', 'member', 'members']],
  ['notice', ['公告', '通知'], ['notice', 'announcement', 'notification']],
  ['message', ['消息', '发送', '发给', '私聊', '转告', '告诉他', '告诉她'], ['message', 'messages', 'send', 'chat', 'dm']],
  ['recall', ['撤回'], ['recall', 'withdraw', 'retract']],
  ['email', ['邮件', '邮箱'], ['email', 'mail', 'inbox', 'smtp']],
  ['music', ['音乐', '歌曲', '点歌', '听歌', '唱歌'], ['music', 'song', 'songs', 'playlist']],
  ['voice', ['语音', '说话', '朗读', '读出来', '念出来', '声音'], ['speak', 'voice', 'speech', 'tts', 'audio', 'say']],
  ['memory', ['记忆', '记住', '记得', '回忆'], ['memory', 'memories', 'remember']],
  ['knowledge', ['知识库', '资料库', '文档'], ['knowledge', 'document', 'documents', 'docs', 'documentation']],
  ['user', ['用户', '个人信息', '昵称', '账号'], ['user', 'profile', 'nickname', 'account']],
  ['note', ['笔记', '备忘', '便签', '记事'], ['note', 'notes', 'memo', 'notebook']],
  ['code', ['代码', '编程', '程序', '脚本', '执行代码'], ['code', 'program', 'script', 'python', 'javascript', 'shell', 'execute']],
  ['repo', ['仓库', '代码库', '提交记录', '议题'], ['repository', 'repo', 'github', 'gitlab', 'commit', 'issue', 'issues', 'pull']],
  ['news', ['新闻', '资讯', '头条', '热搜'], ['news', 'headline', 'headlines', 'trending']],
  ['finance', ['股票', '股价', '汇率', '基金', '比特币', '行情'], ['stock', 'stocks', 'exchange', 'currency', 'finance', 'crypto', 'bitcoin']],
  ['price', ['价格', '多少钱', '价钱', '比价'], ['price', 'prices', 'cost']],
  ['map', ['地图', '位置', '地址', '路线', '导航', '附近', '距离', '怎么走'], ['map', 'maps', 'location', 'address', 'route', 'navigation', 'nearby', 'distance', 'geocode', 'directions']],
  ['express', ['快递', '物流', '单号', '包裹'], ['express', 'parcel', 'tracking', 'delivery', 'shipment', 'logistics', 'courier']],
  ['convert', ['换算', '转换', '单位'], ['convert', 'conversion', 'unit', 'units']],
  ['summarize', ['总结', '摘要', '概括', '归纳'], ['summarize', 'summary', 'summarise', 'digest']],
  ['video', ['视频', '影片', '电影'], ['video', 'videos', 'movie', 'film']],
  ['poke', ['戳一戳', '戳'], ['poke', 'nudge']],
  ['sticker', ['表情', '表情包'], ['face', 'emoji', 'sticker', 'emoticon']],
  ['title', ['名片', '头衔', '群昵称'], ['card', 'title']],
  ['essence', ['精华', '设精'], ['essence']],
  ['history', ['聊天记录', '历史', '之前说', '刚才说'], ['history', 'log', 'logs', 'previous']],
  ['delete', ['删除', '删掉', '移除', '取消'], ['delete', 'remove', 'cancel']],
  ['list', ['列表', '列出', '有哪些'], ['list']],
  ['random', ['随机', '抽签', '骰子', '掷', '抽奖'], ['random', 'dice', 'roll', 'lottery']],
  ['qrcode', ['二维码'], ['qr', 'qrcode']],
  ['crypto', ['加密', '解密', '编码', '解码', '哈希'], ['encrypt', 'decrypt', 'encode', 'decode', 'hash', 'base64']],
  ['table', ['数据库', '表格', '电子表格'], ['database', 'sql', 'table', 'spreadsheet', 'excel', 'csv']],
  ['shop', ['购物', '商品', '订单', '外卖'], ['shop', 'shopping', 'product', 'order', 'orders']],
  ['define', ['百科', '维基', '词典', '是什么意思', '释义'], ['wiki', 'wikipedia', 'define', 'definition', 'dictionary', 'encyclopedia']],
  ['screenshot', ['截图', '截屏'], ['screenshot', 'capture']],
  ['ocr', ['识别文字', '文字识别', '识图', '看图'], ['ocr', 'recognize', 'vision']],
  ['game', ['游戏'], ['game', 'games']],
  ['browser', ['浏览器'], ['browser', 'chrome', 'playwright', 'puppeteer']],
  ['roleplay', ['角色扮演', '人设'], ['roleplay', 'persona', 'character']]
]

/** Category names of the built-in tools, as words the lexicon knows. */
const CATEGORY_HINTS: Record<string, string> = {
  media: 'image picture voice audio music',
  web: 'web search url',
  schedule: 'reminder schedule time',
  qq: 'qq group member',
  group: 'qq group',
  message: 'message send',
  user: 'user profile',
  memory: 'memory remember',
  knowledge: 'knowledge documents',
  documents: 'documents file',
  time: 'time date'
}

/** first character's code → [word, concept] */
const zhByFirst = new Map<number, Array<[string, string]>>()
/** English word and its inflected forms (adds, forecasts, drawing, translated) → concept */
const enWords = new Map<string, string>()
for (const [concept, zh, en] of CONCEPTS) {
  for (const w of zh) {
    const list = zhByFirst.get(w.charCodeAt(0)) ?? []
    list.push([w, concept])
    zhByFirst.set(w.charCodeAt(0), list)
  }
  for (const w of en) enWords.set(w, concept)
}
// the forms after the words themselves, so a word of its own is never taken by another's form
for (const [concept, , en] of CONCEPTS) {
  for (const w of en) {
    const stem = w.endsWith('e') ? w.slice(0, -1) : w
    for (const form of [`${w}s`, `${w}es`, `${stem}ing`, `${stem}ed`]) if (!enWords.has(form)) enWords.set(form, concept)
  }
}

/**
 * Calls `zh` for each Chinese word of the lexicon in the text, with its concept, and `en` for each
 * English word (lowercased) and its concept, if any. Plain loops, no regex.
 */
function scan (text: string, zh: (word: string, concept: string) => void, en: (word: string, concept: string | undefined) => void): void {
  const n = text.length
  let word = -1 // start of the Latin word being read
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 0
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) { if (word < 0) word = i; continue }
    if (word >= 0) {
      const w = text.slice(word, i).toLowerCase()
      en(w, enWords.get(w))
      word = -1
    }
    if (c < 0x3400) continue // below the CJK ideographs: no lookup
    const list = zhByFirst.get(c)
    if (list) for (const [w, concept] of list) if (text.startsWith(w, i)) zh(w, concept)
  }
}

// A tool's text gets one term per concept and language it was found in: `lxz<concept>` from its
// Chinese words, `lxe<concept>` from its English ones. A query looks for the other language's term,
// and for its own language's only where its word occurs in no tool's text (a synonym or another form:
// "calculate" for a tool that says "add", "issues" for "issue", 气温 for 天气), so a word that already
// matches never walks the same tools twice (the selection runs on every model request).
const zhTerm = (concept: string): string => `lxz${concept}`
const enTerm = (concept: string): string => `lxe${concept}`

/** The concept terms of a tool's text, space-separated. */
export function docConcepts (text: string): string {
  const found = new Set<string>()
  scan(text, (_w, c) => found.add(zhTerm(c)), (_w, c) => { if (c !== undefined) found.add(enTerm(c)) })
  return [...found].join(' ')
}

/** The concept terms of a query ('' when none); `indexed` tells whether a word (textWords) occurs in some tool's text. */
export function queryConcepts (text: string, indexed: (word: string) => boolean): string {
  const found: string[] = []
  const add = (t: string): void => { if (!found.includes(t)) found.push(t) }
  scan(text, (w, c) => {
    add(enTerm(c))
    if (!indexed(w)) add(zhTerm(c))
  }, (w, c) => {
    if (c === undefined) return
    add(zhTerm(c))
    if (!indexed(w)) add(enTerm(c))
  })
  return found.join(' ')
}

/** Each English word of a text (lowercased) and each Chinese word of the lexicon in it. */
export function textWords (text: string, fn: (word: string) => void): void {
  scan(text, (w) => fn(w), (w) => fn(w))
}

/** Words for a tool's category, when it is one the lexicon has hints for. */
export const categoryHint = (category: string): string => CATEGORY_HINTS[category] ?? ''
