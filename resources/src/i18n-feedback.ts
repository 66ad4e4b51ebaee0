// Texts of the shell's feedback and accessibility parts (confirm dialog, server error codes, empty states,
// first-run guide, menu), zh-CN and en. Merged into i18n.ts's dictionaries.
type Dict = Record<string, string>

export const feedbackZh: Dict = {
  'er.fields': '请检查：', 'er.sep': '；', 'er.unknown': '请求失败（HTTP {status}）', 'er.network': '无法连接到服务器，请检查网络或机器人是否在运行',
  'er.INVALID_ARGS': '请求的内容不正确', 'er.BAD_REQUEST': '请求的内容不正确', 'er.INVALID_CONFIG': '配置未通过校验', 'er.PARSE_ERROR': 'YAML 无法解析',
  'er.INVALID_PRESET': '预设的内容不正确', 'er.UNAUTHORIZED': '未登录或登录已失效，请重新获取登录链接', 'er.INVALID_TOKEN': '登录链接无效或已过期，请在聊天中发送 #lx面板 获取新链接',
  'er.TOKEN_EXPIRED': '登录已过期，请重新获取登录链接', 'er.FORBIDDEN': '没有权限执行此操作', 'er.SYSTEM_PRESET': '内置预设是只读的：请复制一份再编辑',
  'er.TOOL_DISABLED': '该工具已停用', 'er.NOT_FOUND': '找不到要操作的项目（可能已被删除）', 'er.SECTION_NOT_FOUND': '配置中没有这一节',
  'er.SERVER_NOT_FOUND': '找不到该 MCP 服务器', 'er.PRESET_NOT_FOUND': '找不到该预设', 'er.TOOL_NOT_FOUND': '找不到该工具', 'er.CONVERSATION_NOT_FOUND': '找不到该会话',
  'er.METHOD_NOT_ALLOWED': '不支持这个操作', 'er.CONFLICT': '与现有内容冲突（名称可能已存在）', 'er.ALREADY_CONNECTED': '已经连接', 'er.PRESET_EXISTS': '已有相同 ID 的预设',
  'er.PAYLOAD_TOO_LARGE': '提交的内容太大', 'er.UNSUPPORTED_MEDIA_TYPE': '不支持的内容格式', 'er.RATE_LIMITED': '请求太频繁，请稍后再试',
  'er.INTERNAL_ERROR': '服务器内部错误，详情见日志页', 'er.EXECUTION_ERROR': '执行失败', 'er.CONNECTION_FAILED': '连接失败', 'er.MODEL_ERROR': '模型接口返回错误',
  'er.CHANNEL_UNAVAILABLE': '没有可用的模型渠道：请先在“渠道”页添加一个', 'er.SERVICE_UNAVAILABLE': '该功能当前未运行', 'er.TIMEOUT': '超时未响应',
  'er.channelMissing': '该渠道不存在', 'er.noTestableModels': '该渠道没有可测试的模型：请先填写模型列表', 'er.memoryMissing': '找不到该记忆',
  'er.builtinServer': '内置服务器不能修改或删除', 'er.loginLimited': '失败次数过多，请一分钟后再试', 'er.badJson': '提交的 JSON 格式不正确',
  'er.f.required': '必填', 'er.f.type': '应为{type}', 'er.f.min': '不能小于 {n}', 'er.f.gt': '必须大于 {n}', 'er.f.max': '不能大于 {n}', 'er.f.lt': '必须小于 {n}',
  'er.f.oneOf': '应为以下之一：{list}', 'er.f.url': '不是有效的网址', 'er.f.invalid': '值无效', 'er.f.emptyNumber': '请填写一个数字（不能留空）',
  'er.t.number': '数字', 'er.t.string': '文本', 'er.t.boolean': '开关（是/否）', 'er.t.array': '列表', 'er.t.object': '对象', 'er.t.int': '整数',
  'nav.open': '打开菜单', 'nav.close': '关闭菜单', 'nav.label': '页面', 'skip': '跳到正文',
  'es.conversations': '还没有会话：在聊天页和机器人说句话，或在 QQ 里和它聊天，会话就会出现在这里。', 'es.toChat': '去聊天',
  'cf.title': '请确认', 'cf.ok': '删除', 'cf.cancel': '取消',
  'cf.delConv': '删除会话“{name}”及其全部消息？', 'cf.clearConvs': '删除全部 {n} 个会话？此操作不能撤销。', 'cf.clearCtx': '清空会话“{name}”的上下文？'
}

export const feedbackEn: Dict = {
  'er.fields': 'Please check: ', 'er.sep': '; ', 'er.unknown': 'The request failed (HTTP {status})', 'er.network': 'Cannot reach the server: check the network and that the bot is running',
  'er.INVALID_ARGS': 'The request was not valid', 'er.BAD_REQUEST': 'The request was not valid', 'er.INVALID_CONFIG': 'The configuration did not pass validation', 'er.PARSE_ERROR': 'The YAML could not be read',
  'er.INVALID_PRESET': 'The preset is not valid', 'er.UNAUTHORIZED': 'Not logged in (or the session ended): get a new login link', 'er.INVALID_TOKEN': 'The login link is invalid or expired: send #lx panel in a chat for a new one',
  'er.TOKEN_EXPIRED': 'The session has expired: get a new login link', 'er.FORBIDDEN': 'Not allowed', 'er.SYSTEM_PRESET': 'Built-in presets are read-only: copy one to edit it',
  'er.TOOL_DISABLED': 'This tool is switched off', 'er.NOT_FOUND': 'Not found (it may have been deleted)', 'er.SECTION_NOT_FOUND': 'The configuration has no such section',
  'er.SERVER_NOT_FOUND': 'No such MCP server', 'er.PRESET_NOT_FOUND': 'No such preset', 'er.TOOL_NOT_FOUND': 'No such tool', 'er.CONVERSATION_NOT_FOUND': 'No such conversation',
  'er.METHOD_NOT_ALLOWED': 'This action is not supported', 'er.CONFLICT': 'Conflicts with what exists (the name may be taken)', 'er.ALREADY_CONNECTED': 'Already connected', 'er.PRESET_EXISTS': 'A preset with this id exists',
  'er.PAYLOAD_TOO_LARGE': 'What was sent is too large', 'er.UNSUPPORTED_MEDIA_TYPE': 'Unsupported content type', 'er.RATE_LIMITED': 'Too many requests: try again shortly',
  'er.INTERNAL_ERROR': 'Internal server error: see the Logs page', 'er.EXECUTION_ERROR': 'Execution failed', 'er.CONNECTION_FAILED': 'Connection failed', 'er.MODEL_ERROR': 'The model API answered an error',
  'er.CHANNEL_UNAVAILABLE': 'No model channel is available: add one on the Channels page', 'er.SERVICE_UNAVAILABLE': 'This feature is not running', 'er.TIMEOUT': 'No answer in time',
  'er.channelMissing': 'This channel does not exist', 'er.noTestableModels': 'This channel has no models to test: fill in its model list first', 'er.memoryMissing': 'No such memory',
  'er.builtinServer': 'Built-in servers cannot be changed or deleted', 'er.loginLimited': 'Too many failed attempts: try again in a minute', 'er.badJson': 'The JSON sent is malformed',
  'er.f.required': 'required', 'er.f.type': 'expected {type}', 'er.f.min': 'at least {n}', 'er.f.gt': 'more than {n}', 'er.f.max': 'at most {n}', 'er.f.lt': 'less than {n}',
  'er.f.oneOf': 'one of: {list}', 'er.f.url': 'not a valid URL', 'er.f.invalid': 'invalid value', 'er.f.emptyNumber': 'enter a number (it cannot be empty)',
  'er.t.number': 'a number', 'er.t.string': 'text', 'er.t.boolean': 'on/off', 'er.t.array': 'a list', 'er.t.object': 'an object', 'er.t.int': 'a whole number',
  'nav.open': 'Open the menu', 'nav.close': 'Close the menu', 'nav.label': 'Pages', 'skip': 'Skip to content',
  'es.conversations': 'No conversations yet: talk to the bot on the chat page (or in QQ) and they appear here.', 'es.toChat': 'Open the chat',
  'cf.title': 'Please confirm', 'cf.ok': 'Delete', 'cf.cancel': 'Cancel',
  'cf.delConv': 'Delete the conversation “{name}” and all its messages?', 'cf.clearConvs': 'Delete all {n} conversations? This cannot be undone.', 'cf.clearCtx': 'Clear the context of the conversation “{name}”?'
}
