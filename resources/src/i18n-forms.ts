// Texts of the form engine (form-engine.tsx, pages/config.tsx: `sf.*`; the browser's checks, form-rules.ts:
// `sv.*`) and of the preset editor (pages/presets.tsx: `pe.*`), in zh-CN and en. The settings' own titles and
// descriptions come from the server's schema (GET /api/config/schema), the preset settings' too. Merged into i18n.ts.
type Dict = Record<string, string>

export const formsZh: Dict = {
  'sf.sections': '配置分区', 'sf.section': '分区', 'sf.save': '保存本分区', 'sf.noChanges': '没有更改', 'sf.savedN': '已保存（{n} 项更改）',
  'sf.fix': '有 {n} 处需要修改，见标红的项', 'sf.range': '范围 {lo} – {hi}', 'sf.atLeast': '至少 {n}', 'sf.atMost': '至多 {n}',
  'sf.linesHint': '每行一项', 'sf.jsonHint': 'JSON 格式', 'sf.secretHint': '已隐藏；保持掩码不变即不修改',
  'sf.remove': '移除', 'sf.removeItem': '从“{name}”中移除 {n}', 'sf.addItem': '添加', 'sf.addTo': '向“{name}”添加一项', 'sf.noItems': '（空）', 'sf.newKey': '新的键', 'sf.keyTaken': '“{key}”已经存在',
  'sf.alsoOn': '这些设置也可以在“{page}”页面修改。', 'sf.channelsOn': '渠道在“渠道”页面管理（获取模型列表、测试、密钥轮换）。', 'sf.groupsOn': '单个群的设置见下方“群设置”，以及“聊天设置”页面的单个群设置。',
  'sf.open': '打开“{page}”', 'sf.advanced': '高级：YAML 导入与导出', 'sf.advancedHint': '导出完整配置（密钥已隐藏），或粘贴 YAML 一次修改多项。',
  'sf.importedNothing': '没有导入任何内容：这段 YAML 没有改变任何设置', 'sf.importEmpty': '请先粘贴或导出 YAML', 'sf.importedN': '已导入（{n} 项更改）', 'sf.reloaded': '已从文件重新加载',
  'sf.serverSaid': '服务器拒绝了这个值', 'sf.reset': '撤销更改', 'sf.unsaved': '未保存',
  'sf.v.auto': '自动', 'sf.v.manual': '手动审批', 'sf.v.deny': '拒绝', 'sf.v.allow': '允许', 'sf.v.low': '低', 'sf.v.medium': '中', 'sf.v.high': '高',
  'sf.v.zh-CN': '简体中文', 'sf.v.en': 'English', 'sf.v.user': '每人一个', 'sf.v.group': '全群共用', 'sf.v.silent': '不回应', 'sf.v.reply': '回复提示',
  'sf.v.openai-compatible': 'OpenAI 兼容', 'sf.v.azure': 'Azure', 'sf.v.deepseek': 'DeepSeek', 'sf.v.searxng': 'SearXNG', 'sf.v.tavily': 'Tavily', 'sf.v.bing': 'Bing', 'sf.v.brave': 'Brave',
  'sf.v.mp3': 'MP3', 'sf.v.wav': 'WAV', 'sf.v.opus': 'Opus', 'sf.v.aac': 'AAC', 'sf.v.flac': 'FLAC',
  'sf.v.mask': '替换为＊', 'sf.v.refuse': '拒绝', 'sf.v.image': '图片', 'sf.v.request': '仅在要求时', 'sf.v.openai': 'OpenAI', 'sf.v.custom': '自定义',

  'sv.required': '必填', 'sv.notNumber': '请输入数字', 'sv.integer': '请输入整数', 'sv.min': '不能小于 {n}', 'sv.max': '不能大于 {n}',
  'sv.gt': '必须大于 {n}', 'sv.lt': '必须小于 {n}', 'sv.minLength': '至少 {n} 个字符', 'sv.maxLength': '最多 {n} 个字符', 'sv.pattern': '格式不正确',
  'sv.enum': '只能是：{list}', 'sv.url': '请输入完整的网址（如 https://example.com），或留空', 'sv.type': '类型不正确', 'sv.json': 'JSON 格式不正确',
  'sv.minItems': '至少 {n} 项', 'sv.maxItems': '最多 {n} 项', 'sv.recordKey': '键“{key}”格式不正确',

  'pe.editor': '编辑预设', 'pe.cat.general': '通用', 'pe.cat.work': '工作', 'pe.cat.roleplay': '角色', 'pe.basics': '基本信息', 'pe.new': '新建预设', 'pe.id': 'ID', 'pe.idHelp': '3-50 个字母、数字或连字符；创建后不能修改。', 'pe.name': '名称', 'pe.description': '描述', 'pe.category': '分类',
  'pe.prompt': '系统提示词', 'pe.promptHelp': '可以使用占位符，点击插入：',
  'pe.cache.turn': '{name} 每条消息都不同，', 'pe.cache.day': '{name} 每天变化一次，', 'pe.cache.speaker': '{name} 在全群共享的对话里随发言人变化，',
  'pe.cache.why': '放在系统提示词里会让请求的开头每次不同，服务商的提示缓存就无法命中（费用更高）。每条消息已经带有发送时间和发送者，通常不需要它们。', 'pe.preview': '预览（按示例用户和群渲染）', 'pe.previewUser': '示例昵称', 'pe.previewGroup': '示例群名（留空 = 私聊）',
  'pe.sampling': '采样参数', 'pe.temperature': '温度', 'pe.topP': 'Top P', 'pe.frequencyPenalty': '频率惩罚', 'pe.presencePenalty': '存在惩罚', 'pe.maxTokens': '最大输出 Token 数', 'pe.model': '模型（留空 = 渠道默认）',
  'pe.unset': '不设置（使用模型默认值）', 'pe.tools': '工具', 'pe.toolsEnabled': '启用工具', 'pe.allowedTools': '只允许这些工具（每行一个；留空 = 全部）', 'pe.excludedTools': '排除这些工具（每行一个）',
  'pe.allowDangerous': '允许危险工具', 'pe.approval': '审批方式', 'pe.approvalGlobal': '使用全局设置', 'pe.memory': '记忆', 'pe.memoryEnabled': '使用记忆', 'pe.maxMemories': '最多放入的记忆条数',
  'pe.voice': '语音', 'pe.voiceEnabled': '使用预设的声音', 'pe.voiceId': '声音', 'pe.voiceSpeed': '语速',
  'pe.builtin': '内置（只读）', 'pe.custom': '自定义', 'pe.copyToEdit': '复制后编辑', 'pe.copyName': '{name}（副本）', 'pe.copied': '已复制为 {id}，现在可以编辑',
  'pe.readOnly': '内置预设不能修改；复制一份再编辑。', 'pe.view': '查看', 'pe.close': '关闭', 'pe.created': '预设 {id} 已创建', 'pe.saved': '预设 {id} 已保存', 'pe.deleted': '预设 {name} 已删除',
  'pe.confirmDelete': '删除预设“{name}”（{id}）？使用它的用户和群会改用默认预设。', 'pe.default': '默认',
  'pe.settings': '预设设置',
  'pe.groupPreset': '单个群的预设', 'pe.groupId': '群号', 'pe.groupPresetId': '预设 ID（留空 = 默认）', 'pe.groupSaved': '群 {group} 的预设已设为 {id}',
  'pe.unknownPreset': '预设“{id}”不存在', 'pe.groupHint': '群里使用的预设；必须是已有的预设。', 'pe.importFile': '选择 YAML 文件', 'pe.fields': '有 {n} 处需要修改，见标红的项'
}

export const formsEn: Dict = {
  'sf.sections': 'Sections', 'sf.section': 'Section', 'sf.save': 'Save this section', 'sf.noChanges': 'No changes', 'sf.savedN': 'Saved ({n} changed)',
  'sf.fix': '{n} fields need fixing (marked in red)', 'sf.range': 'from {lo} to {hi}', 'sf.atLeast': 'at least {n}', 'sf.atMost': 'at most {n}',
  'sf.linesHint': 'one a line', 'sf.jsonHint': 'as JSON', 'sf.secretHint': 'hidden; leave the mask to keep it',
  'sf.remove': 'Remove', 'sf.removeItem': 'Remove {n} from "{name}"', 'sf.addItem': 'Add', 'sf.addTo': 'Add an item to "{name}"', 'sf.noItems': '(none)', 'sf.newKey': 'New key', 'sf.keyTaken': '"{key}" is already there',
  'sf.alsoOn': 'These settings are also on the {page} page.', 'sf.channelsOn': 'Channels are managed on the Channels page (model list, tests, key rotation).', 'sf.groupsOn': 'One group\'s settings: the per-group card below, and the per-group editor of the Chat settings page.',
  'sf.open': 'Open {page}', 'sf.advanced': 'Advanced: YAML import and export', 'sf.advancedHint': 'Export the whole configuration (secrets masked), or paste YAML to change many settings at once.',
  'sf.importedNothing': 'Nothing imported: the YAML changes no setting', 'sf.importEmpty': 'Paste or export some YAML first', 'sf.importedN': 'Imported ({n} changed)', 'sf.reloaded': 'Reloaded from the files',
  'sf.serverSaid': 'The server refused this value', 'sf.reset': 'Undo changes', 'sf.unsaved': 'not saved',
  'sf.v.auto': 'automatic', 'sf.v.manual': 'manual approval', 'sf.v.deny': 'deny', 'sf.v.allow': 'allow', 'sf.v.low': 'low', 'sf.v.medium': 'medium', 'sf.v.high': 'high',
  'sf.v.zh-CN': '简体中文', 'sf.v.en': 'English', 'sf.v.user': 'one per user', 'sf.v.group': 'one per group', 'sf.v.silent': 'silent', 'sf.v.reply': 'reply',
  'sf.v.openai-compatible': 'OpenAI-compatible', 'sf.v.azure': 'Azure', 'sf.v.deepseek': 'DeepSeek', 'sf.v.searxng': 'SearXNG', 'sf.v.tavily': 'Tavily', 'sf.v.bing': 'Bing', 'sf.v.brave': 'Brave',
  'sf.v.mp3': 'MP3', 'sf.v.wav': 'WAV', 'sf.v.opus': 'Opus', 'sf.v.aac': 'AAC', 'sf.v.flac': 'FLAC',
  'sf.v.mask': 'mask', 'sf.v.refuse': 'refuse', 'sf.v.image': 'image', 'sf.v.request': 'on request', 'sf.v.openai': 'OpenAI', 'sf.v.custom': 'custom',

  'sv.required': 'Required', 'sv.notNumber': 'Enter a number', 'sv.integer': 'Enter a whole number', 'sv.min': 'Must be at least {n}', 'sv.max': 'Must be at most {n}',
  'sv.gt': 'Must be more than {n}', 'sv.lt': 'Must be less than {n}', 'sv.minLength': 'At least {n} characters', 'sv.maxLength': 'At most {n} characters', 'sv.pattern': 'Not in the expected format',
  'sv.enum': 'Must be one of: {list}', 'sv.url': 'Enter a full address (e.g. https://example.com) or leave it empty', 'sv.type': 'Wrong kind of value', 'sv.json': 'Not valid JSON',
  'sv.minItems': 'At least {n} items', 'sv.maxItems': 'At most {n} items', 'sv.recordKey': 'The key "{key}" is not in the expected format',

  'pe.editor': 'Edit preset', 'pe.cat.general': 'General', 'pe.cat.work': 'Work', 'pe.cat.roleplay': 'Characters', 'pe.basics': 'Basics', 'pe.new': 'New preset', 'pe.id': 'Id', 'pe.idHelp': '3-50 letters, digits or hyphens; fixed once created.', 'pe.name': 'Name', 'pe.description': 'Description', 'pe.category': 'Category',
  'pe.prompt': 'System prompt', 'pe.promptHelp': 'Placeholders you can use (click to insert):',
  'pe.cache.turn': '{name} differs with every message;', 'pe.cache.day': '{name} changes once a day;', 'pe.cache.speaker': '{name} changes with the speaker in a group\'s shared conversation;',
  'pe.cache.why': 'in the system prompt it makes the start of each request different, so the provider\'s prompt cache cannot serve it (higher cost). Each message already carries its time and sender, so they are rarely needed here.', 'pe.preview': 'Preview (rendered for a sample user and group)', 'pe.previewUser': 'Sample nickname', 'pe.previewGroup': 'Sample group name (empty = private chat)',
  'pe.sampling': 'Sampling', 'pe.temperature': 'Temperature', 'pe.topP': 'Top P', 'pe.frequencyPenalty': 'Frequency penalty', 'pe.presencePenalty': 'Presence penalty', 'pe.maxTokens': 'Max output tokens', 'pe.model': 'Model (empty = the channel\'s default)',
  'pe.unset': 'Not set (the model\'s default)', 'pe.tools': 'Tools', 'pe.toolsEnabled': 'Tools on', 'pe.allowedTools': 'Only these tools (one a line; empty = all)', 'pe.excludedTools': 'Never these tools (one a line)',
  'pe.allowDangerous': 'Allow dangerous tools', 'pe.approval': 'Approval mode', 'pe.approvalGlobal': 'The global setting', 'pe.memory': 'Memory', 'pe.memoryEnabled': 'Use memories', 'pe.maxMemories': 'Memories put in at most',
  'pe.voice': 'Voice', 'pe.voiceEnabled': 'Use the preset\'s voice', 'pe.voiceId': 'Voice', 'pe.voiceSpeed': 'Speed',
  'pe.builtin': 'Built-in (read-only)', 'pe.custom': 'Custom', 'pe.copyToEdit': 'Copy to edit', 'pe.copyName': '{name} (copy)', 'pe.copied': 'Copied as {id}; you can edit it now',
  'pe.readOnly': 'Built-in presets cannot be changed; copy one to edit it.', 'pe.view': 'View', 'pe.close': 'Close', 'pe.created': 'Preset {id} created', 'pe.saved': 'Preset {id} saved', 'pe.deleted': 'Preset {name} deleted',
  'pe.confirmDelete': 'Delete the preset "{name}" ({id})? Users and groups using it go back to the default preset.', 'pe.default': 'Default',
  'pe.settings': 'Preset settings',
  'pe.groupPreset': 'One group\'s preset', 'pe.groupId': 'Group id', 'pe.groupPresetId': 'Preset id (empty = the default)', 'pe.groupSaved': 'Group {group} now uses {id}',
  'pe.unknownPreset': 'There is no preset "{id}"', 'pe.groupHint': 'The preset used in the group; it must exist.', 'pe.importFile': 'Choose a YAML file', 'pe.fields': '{n} fields need fixing (marked in red)'
}
