// Two languages, zh-CN default; the choice is kept in localStorage. Missing keys fall back to the key.
import { chatEn, chatZh } from './i18n-chat'
import { voiceEn, voiceZh } from './i18n-voice'
import { webEn, webZh } from './i18n-web'
import { remindersEn, remindersZh } from './i18n-reminders'
import { tasksEn, tasksZh } from './i18n-tasks'
import { governanceEn, governanceZh } from './i18n-governance'
import { costEn, costZh } from './i18n-cost'
import { guardEn, guardZh } from './i18n-guard'
import { storageEn, storageZh } from './i18n-storage'
import { feedbackEn, feedbackZh } from './i18n-feedback'
import { formsEn, formsZh } from './i18n-forms'
import { capabilitiesEn, capabilitiesZh } from './i18n-capabilities'
import { chatPageEn, chatPageZh } from './i18n-chatpage'
import { versionEn, versionZh } from './i18n-version'
import { signal } from './state'

type Dict = Record<string, string>
const zh: Dict = {
  title: '灵犀控制台', overview: '概览', channels: '渠道', config: '配置', presets: '预设', tools: '工具与技能',
  mcp: 'MCP 服务', memory: '记忆', conversations: '会话', knowledge: '知识库', drawing: '绘图', game: '游戏', logs: '日志',
  logout: '退出登录', loading: '加载中…', empty: '暂无数据', save: '保存', saved: '已保存', add: '添加', edit: '编辑',
  delete: '删除', cancel: '取消', test: '测试', models: '模型', batchTest: '批量测试', stop: '停止', refresh: '刷新',
  search: '搜索', name: '名称', type: '类型', status: '状态', enabled: '启用', actions: '操作', confirmDelete: '确定删除？',
  loginHint: '请在聊天中向机器人发送 #lx面板 获取登录链接', loggingIn: '正在登录…', health: '健康', uptime: '运行时间',
  memoryUse: '内存', liveMetrics: '实时指标', daily: '每日统计', messages: '消息', tokens: 'Tokens', toolCalls: '工具调用',
  export: '导出 YAML', import: '导入 YAML', trigger: '触发规则', context: '上下文', group: '群设置', groupId: '群号',
  apply: '应用', default: '默认', setDefault: '设为默认', copy: '复制', run: '运行', args: '参数 (JSON)', output: '输出',
  events: '实时事件', categories: '分类', scripts: '脚本工具', skills: '技能文档', source: '源码', reconnect: '重连',
  importDesktop: '导入桌面客户端配置', userId: '用户 ID', content: '内容', cleanup: '清理', summarize: '总结',
  clear: '清空', clearAll: '全部清空', titleField: '标题', level: '级别', all: '全部', pause: '暂停', resume: '继续',
  progress: '进度', result: '结果', elapsed: '耗时', success: '成功', failed: '失败', notAvailable: '该功能的接口尚不可用',
  language: 'English', keepKey: '留空或保持掩码则不修改密钥', latency: '延迟', json: 'JSON', view: '查看',
  version: '版本', bot: '机器人', database: '数据库', config_check: '配置', channels_check: '渠道',
  totalMessages: '消息数', aiResponses: 'AI 回复', tokensUsed: 'Tokens', activeUsers: '活跃用户', activeGroups: '活跃群',
  responses: '回复', period_day: '今天', period_week: '近 7 天', period_month: '近 30 天', period_all: '全部',
  st_running: '运行中', st_ok: '正常', st_error: '错误', st_disconnected: '未连接', st_connected: '已连接', st_connecting: '连接中', st_success: '成功', st_failed: '失败', st_denied: '已拒绝', st_timeout: '超时', st_disabled: '已停用', st_active: '可用',
  st_unconfigured: '未配置', st_degraded: '部分可用', st_off: '离线', rss: '常驻内存', heap: '堆内存', minutes: '分钟',
  lastEvents: '最近事件', time: '时间', event: '事件', data: '内容', liveOn: '实时', liveOff: '已断开', reload: '重新加载', enableAll: '全部启用', disableAll: '全部停用', load: '加载', unload: '卸载',
  keywordsHint: '触发词（逗号分隔）', promptField: '提示词', needImage: '需要图片', apis: '接口', description: '描述',
  systemPrompt: '系统提示词', preset: '预设', toolLogs: '工具调用日志', command: '命令', argsList: '参数', package: '包名',
  toolsShort: '工具', newId: '新的 ID', model: '模型', keepWorking: '只保留可用的模型', useModels: '设为渠道的模型列表', builtin: '内置', apisHint: '设置了接口时按顺序使用（失败时换下一个）；没有接口时使用启用了绘图的渠道。',
  f_model: '模型', f_videoModel: '视频模型', f_timeout: '超时 (毫秒)', f_maxImages: '每次图片数', f_sendMode: '发送方式', f_remotePresetsUrl: '远程预设地址',
  v_direct: '直接发送', v_forward: '合并转发', v_url: '发送链接', moreKeys: '更多 API 密钥（按顺序轮换，失败时自动切换）', addKey: '添加密钥', defaultModel: '默认模型', keywords: '触发词', message: '消息', confidence: '置信度', triggers: '触发词', f_private: '私聊', f_group: '群聊', f_prefix: '触发前缀', f_randomRate: '随机插话概率 (0-1)',
  f_maxMessages: '最大消息数', f_cleaningStrategy: '清理策略', f_maxTokens: '最大 Tokens (0 不限)', f_compressionThreshold: '压缩阈值',
  f_compressionStrategy: '压缩策略', f_preserveSystemPrompt: '保留系统提示词', f_preserveRecentMessages: '保留最近消息数',
  f_autoReloadSkills: '技能文件变化时自动重新加载', f_preset: '预设', f_enabled: '启用', f_trigger: '触发规则 (JSON)',
  v_always: '总是回复', v_prefix: '带前缀时', v_off: '关闭', v_at: '@机器人时', v_both: '@机器人或前缀', v_sliding: '滑动窗口', v_truncate: '截断',
  v_summarize: '总结', 'v_sliding-window': '滑动窗口',
  trusted: '信任此服务器', trustHint: '不信任的服务器的工具视为危险工具：聊天中需要主人批准（未允许危险工具时不提供给模型），MCP 客户端不能调用。', risk: '风险', risk_low: '低', risk_medium: '中', risk_high: '高',
  dangerousTool: '危险工具（调用前需批准）', scriptEnabled: '启用（提供给聊天）', scriptOffHint: '新保存的脚本默认停用；阅读代码后再启用。脚本在受限的子进程中运行：只能读取自己的文件，不能写文件、启动进程或读取机器人的环境变量，但仍可访问网络。', declared: '脚本自述', st_off_script: '已停用'
}
const en: Dict = {
  title: 'Lingxi Console', overview: 'Overview', channels: 'Channels', config: 'Configuration', presets: 'Presets',
  tools: 'Tools & Skills', mcp: 'MCP servers', memory: 'Memory', conversations: 'Conversations', knowledge: 'Knowledge',
  drawing: 'Drawing', game: 'Game', logs: 'Logs', logout: 'Log out', loading: 'Loading…', empty: 'Nothing here yet',
  save: 'Save', saved: 'Saved', add: 'Add', edit: 'Edit', delete: 'Delete', cancel: 'Cancel', test: 'Test', models: 'Models',
  batchTest: 'Batch test', stop: 'Stop', refresh: 'Refresh', search: 'Search', name: 'Name', type: 'Type', status: 'Status',
  enabled: 'Enabled', actions: 'Actions', confirmDelete: 'Delete this?', loginHint: 'Send #lx panel to the bot in a chat to get a login link',
  loggingIn: 'Logging in…', health: 'Health', uptime: 'Uptime', memoryUse: 'Memory', liveMetrics: 'Live metrics',
  daily: 'Daily statistics', messages: 'Messages', tokens: 'Tokens', toolCalls: 'Tool calls', export: 'Export YAML',
  import: 'Import YAML', trigger: 'Trigger rules', context: 'Context', group: 'Per-group settings', groupId: 'Group id',
  apply: 'Apply', default: 'Default', setDefault: 'Set default', copy: 'Copy', run: 'Run', args: 'Arguments (JSON)',
  output: 'Output', events: 'Live events', categories: 'Categories', scripts: 'Script tools', skills: 'Skill documents',
  source: 'Source', reconnect: 'Reconnect', importDesktop: 'Import desktop-client config', userId: 'User id',
  content: 'Content', cleanup: 'Clean up', summarize: 'Summarize', clear: 'Clear', clearAll: 'Clear all', titleField: 'Title',
  level: 'Level', all: 'All', pause: 'Pause', resume: 'Resume', progress: 'Progress', result: 'Result', elapsed: 'Elapsed',
  success: 'Success', failed: 'Failed', notAvailable: 'This API is not available yet', language: '中文',
  keepKey: 'Leave empty or masked to keep the stored key', latency: 'Latency', json: 'JSON', view: 'View',
  version: 'Version', bot: 'Bot', database: 'Database', config_check: 'Config', channels_check: 'Channels',
  totalMessages: 'Messages', aiResponses: 'AI replies', tokensUsed: 'Tokens', activeUsers: 'Active users', activeGroups: 'Active groups',
  responses: 'Replies', period_day: 'Today', period_week: 'Last 7 days', period_month: 'Last 30 days', period_all: 'All time',
  st_running: 'running', st_ok: 'ok', st_error: 'error', st_disconnected: 'disconnected', st_connected: 'connected', st_connecting: 'connecting', st_success: 'success', st_failed: 'failed', st_denied: 'denied', st_timeout: 'timeout', st_disabled: 'disabled', st_active: 'active',
  st_unconfigured: 'not set up', st_degraded: 'degraded', st_off: 'offline', rss: 'RSS', heap: 'Heap', minutes: 'min',
  lastEvents: 'Recent events', time: 'Time', event: 'Event', data: 'Data', liveOn: 'live', liveOff: 'offline', reload: 'Reload', enableAll: 'Enable all', disableAll: 'Disable all', load: 'Load', unload: 'Unload',
  keywordsHint: 'keywords (a, b)', promptField: 'prompt', needImage: 'Needs an image', apis: 'APIs', description: 'Description',
  systemPrompt: 'System prompt', preset: 'Preset', toolLogs: 'Tool call log', command: 'Command', argsList: 'Arguments', package: 'Package',
  toolsShort: 'Tools', newId: 'New id', model: 'Model', keepWorking: 'Keep only the working models', useModels: "Use as the channel's models", builtin: 'built-in', apisHint: 'When entries exist they are used in order (the next when one fails); otherwise the channels with images enabled draw.',
  f_model: 'Model', f_videoModel: 'Video model', f_timeout: 'Timeout (ms)', f_maxImages: 'Images per request', f_sendMode: 'Send mode', f_remotePresetsUrl: 'Remote presets URL',
  v_direct: 'send directly', v_forward: 'forward message', v_url: 'send links', moreKeys: 'More API keys (rotated in order, failover on errors)', addKey: 'Add key', defaultModel: 'Default model', keywords: 'Keywords', message: 'Message', confidence: 'Confidence', triggers: 'Triggers', f_private: 'Private chats', f_group: 'Groups', f_prefix: 'Trigger prefix', f_randomRate: 'Random join rate (0-1)',
  f_maxMessages: 'Max messages', f_cleaningStrategy: 'Cleaning strategy', f_maxTokens: 'Max tokens (0: no limit)', f_compressionThreshold: 'Compression threshold',
  f_compressionStrategy: 'Compression strategy', f_preserveSystemPrompt: 'Keep the system prompt', f_preserveRecentMessages: 'Keep recent messages',
  f_autoReloadSkills: 'Reload skills when their files change', f_preset: 'Preset', f_enabled: 'Enabled', f_trigger: 'Trigger (JSON)',
  v_always: 'always', v_prefix: 'with the prefix', v_off: 'off', v_at: 'when @-mentioned', v_both: '@ or prefix', v_sliding: 'sliding', v_truncate: 'truncate',
  v_summarize: 'summarize', 'v_sliding-window': 'sliding window',
  trusted: 'Trust this server', trustHint: "An untrusted server's tools are dangerous: in chat they need the master's approval (and are not offered unless dangerous tools are allowed); MCP clients cannot call them.", risk: 'Risk', risk_low: 'low', risk_medium: 'medium', risk_high: 'high',
  dangerousTool: 'Dangerous (approval before each call)', scriptEnabled: 'Enabled (offered to chat)', scriptOffHint: 'A newly saved script is off; read the code, then enable it. Scripts run in a confined child process: they read only their own file, cannot write files, start processes or read the bot\'s environment, but can still reach the network.', declared: 'The script declares', st_off_script: 'off'
}

Object.assign(zh, chatZh)
Object.assign(zh, voiceZh)
Object.assign(en, chatEn)
Object.assign(en, voiceEn)
Object.assign(zh, webZh)
Object.assign(en, webEn)
Object.assign(zh, remindersZh)
Object.assign(en, remindersEn)
Object.assign(zh, tasksZh)
Object.assign(en, tasksEn)
Object.assign(zh, governanceZh)
Object.assign(en, governanceEn)
Object.assign(zh, costZh)
Object.assign(en, costEn)
Object.assign(zh, guardZh)
Object.assign(en, guardEn)
Object.assign(zh, storageZh)
Object.assign(en, storageEn)
Object.assign(zh, feedbackZh)
Object.assign(en, feedbackEn)
Object.assign(zh, formsZh)
Object.assign(en, formsEn)
Object.assign(zh, capabilitiesZh)
Object.assign(en, capabilitiesEn)
Object.assign(zh, chatPageZh)
Object.assign(en, chatPageEn)
Object.assign(zh, versionZh)
Object.assign(en, versionEn)

export const lang = signal<'zh' | 'en'>(localStorage.getItem('lingxi.lang') === 'en' ? 'en' : 'zh')
document.documentElement.lang = lang.get() === 'zh' ? 'zh-CN' : 'en'
export function toggleLang (): void {
  lang.set(lang.get() === 'zh' ? 'en' : 'zh')
  localStorage.setItem('lingxi.lang', lang.get())
  document.documentElement.lang = lang.get() === 'zh' ? 'zh-CN' : 'en'
}
export function t (key: string): string { return (lang.get() === 'zh' ? zh : en)[key] ?? key }
/** t() with `{name}` placeholders filled from vars (e.g. tv('cf.delConv', { name: id })). */
export function tv (key: string, vars: Record<string, string | number>): string {
  return t(key).replace(/\{(\w+)\}/g, (m, k: string) => k in vars ? String(vars[k]) : m)
}
/** The page language as a BCP 47 tag, for dates and times written in it. */
export const locale = (): string => lang.get() === 'zh' ? 'zh-CN' : 'en'
