// Texts of the scheduled tasks page (pages/tasks*.tsx), zh-CN and en. Merged into i18n.ts's dictionaries (the
// menu names the page with `tasks`).
type Dict = Record<string, string>

export const tasksZh: Dict = {
  tasks: '定时任务',
  'tk.hint': '机器人按计划自己运行的提示词：到时间后用选定的预设、模型和工具回答，答案发到一个群或私聊。每次运行都记录答案、Tokens 和费用。',
  'tk.upcoming': '接下来 7 天', 'tk.today': '今天', 'tk.tomorrow': '明天', 'tk.noUpcoming': '未来 7 天没有要运行的任务。',
  'tk.spent': '本月花费', 'tk.spentOf': '{spent} / 预算 {budget} {currency}', 'tk.spentNoCap': '{spent} {currency}（未设每月预算）', 'tk.budgetBar': '本月预算已用 {p}%',
  'tk.list': '任务', 'tk.new': '新建任务', 'tk.target': '发到', 'tk.schedule': '计划', 'tk.next': '下次运行', 'tk.state': '状态', 'tk.lastRun': '上次运行',
  'tk.active': '启用', 'tk.finished': '已结束', 'tk.paused.manual': '已暂停（手动）', 'tk.paused.failures': '已暂停（连续失败）', 'tk.paused.budget': '已暂停（预算用完）',
  'tk.group': '群 {id}', 'tk.private': '私聊 {id}', 'tk.never': '还没运行过', 'tk.noNext': '无',
  'tk.runNow': '立即运行', 'tk.history': '运行记录', 'tk.pause': '暂停', 'tk.resume': '继续', 'tk.edit': '编辑', 'tk.delete': '删除',
  'tk.actOn': '：{name}', 'tk.confirmDelete': '删除任务“{name}”及其全部运行记录？',
  'tk.none': '还没有定时任务：点“新建任务”，让机器人按时运行一段提示词，例如每天早上8点搜索某个话题的新闻，把三行摘要发到群里。',
  'tk.created': '任务已创建', 'tk.saved': '任务已保存', 'tk.deleted': '任务已删除', 'tk.pausedDone': '任务已暂停', 'tk.resumedDone': '任务已继续',
  'tk.formNew': '新建任务', 'tk.formEdit': '编辑任务“{name}”', 'tk.create': '创建', 'tk.save': '保存', 'tk.cancel': '取消',
  'tk.f.name': '名称', 'tk.f.prompt': '提示词', 'tk.f.promptHelp': '每次运行时让模型做的事，例如：搜索 X 的最新新闻，写三行摘要。',
  'tk.f.schedule': '时间', 'tk.f.scheduleHelp': '例如：0 8 * * *（cron 表达式）、每天早上8点、every Monday 9:00、明天下午3点（只运行一次）。',
  'tk.f.targetKind': '发到哪里', 'tk.f.toGroup': '群聊', 'tk.f.toUser': '私聊', 'tk.f.groupId': '群号', 'tk.f.userId': '用户 QQ 号',
  'tk.f.preset': '预设', 'tk.f.presetDefault': '默认预设', 'tk.f.channel': '渠道', 'tk.f.channelDefault': '自动选择', 'tk.f.model': '模型', 'tk.f.modelDefault': '渠道的默认模型',
  'tk.f.tools': '可用工具', 'tk.f.toolsHelp': '运行时模型可以调用的工具；一个都不选则不用工具。', 'tk.f.noTools': '没有可用的工具。',
  'tk.f.missed': '错过时', 'tk.f.missedHelp': '机器人在该运行时没有在线时的做法。', 'tk.f.missed.skip': '跳过', 'tk.f.missed.late': '补跑一次（夜间不补）',
  'tk.f.budget': '每月预算', 'tk.f.budgetHelp': '以价格表的货币计，用完后本月不再运行；留空表示不单独设上限。',
  'tk.f.keep': '保留对话历史', 'tk.f.keepHelp': '开启后每次运行接着上次的对话；关闭则每次从头开始。',
  'tk.runsOf': '“{name}”的运行记录', 'tk.close': '关闭运行记录', 'tk.noRuns': '还没有运行记录。', 'tk.lastResult': '刚才的运行',
  'tk.r.time': '时间', 'tk.r.status': '结果', 'tk.r.tokens': 'Tokens', 'tk.r.tokensOf': '输入 {input} · 输出 {output} · 缓存 {cached}', 'tk.r.cost': '费用',
  'tk.r.late': '补跑', 'tk.r.manual': '手动', 'tk.r.answer': '回答', 'tk.r.error': '错误', 'tk.r.notDelivered': '未发出',
  'tk.r.ok': '成功', 'tk.r.failed': '失败', 'tk.r.skipped': '跳过', 'tk.unpriced': '无价格'
}

export const tasksEn: Dict = {
  tasks: 'Tasks',
  'tk.hint': 'Prompts the bot runs by itself on a schedule: at each time it answers with the chosen preset, model and tools, and the answer goes to a group or a private chat. Each run is recorded with its answer, tokens and cost.',
  'tk.upcoming': 'Next 7 days', 'tk.today': 'Today', 'tk.tomorrow': 'Tomorrow', 'tk.noUpcoming': 'No task runs in the next 7 days.',
  'tk.spent': 'Spent this month', 'tk.spentOf': '{spent} of a {budget} {currency} budget', 'tk.spentNoCap': '{spent} {currency} (no monthly budget set)', 'tk.budgetBar': '{p}% of the monthly budget used',
  'tk.list': 'Tasks', 'tk.new': 'New task', 'tk.target': 'Sent to', 'tk.schedule': 'Schedule', 'tk.next': 'Next run', 'tk.state': 'State', 'tk.lastRun': 'Last run',
  'tk.active': 'active', 'tk.finished': 'finished', 'tk.paused.manual': 'paused (by hand)', 'tk.paused.failures': 'paused (failed runs)', 'tk.paused.budget': 'paused (budget spent)',
  'tk.group': 'group {id}', 'tk.private': 'private chat {id}', 'tk.never': 'not run yet', 'tk.noNext': 'none',
  'tk.runNow': 'Run now', 'tk.history': 'Runs', 'tk.pause': 'Pause', 'tk.resume': 'Resume', 'tk.edit': 'Edit', 'tk.delete': 'Delete',
  'tk.actOn': ': {name}', 'tk.confirmDelete': 'Delete the task “{name}” and all its runs?',
  'tk.none': 'No scheduled tasks yet: press “New task” to have the bot run a prompt at its times, e.g. every morning at 8 search the news about a topic and post a three-line summary to a group.',
  'tk.created': 'Task created', 'tk.saved': 'Task saved', 'tk.deleted': 'Task deleted', 'tk.pausedDone': 'Task paused', 'tk.resumedDone': 'Task resumed',
  'tk.formNew': 'New task', 'tk.formEdit': 'Edit the task “{name}”', 'tk.create': 'Create', 'tk.save': 'Save', 'tk.cancel': 'Cancel',
  'tk.f.name': 'Name', 'tk.f.prompt': 'Prompt', 'tk.f.promptHelp': 'What the model is asked at each run, e.g. search the latest news about X and write a three-line summary.',
  'tk.f.schedule': 'When', 'tk.f.scheduleHelp': 'E.g. 0 8 * * * (cron), 每天早上8点, every Monday 9:00, 明天下午3点 (once).',
  'tk.f.targetKind': 'Send to', 'tk.f.toGroup': 'a group', 'tk.f.toUser': 'a private chat', 'tk.f.groupId': 'Group id', 'tk.f.userId': 'User QQ id',
  'tk.f.preset': 'Preset', 'tk.f.presetDefault': 'the default preset', 'tk.f.channel': 'Channel', 'tk.f.channelDefault': 'chosen by the bot', 'tk.f.model': 'Model', 'tk.f.modelDefault': "the channel's default model",
  'tk.f.tools': 'Tools it may use', 'tk.f.toolsHelp': 'The tools the model may call in a run; none chosen: no tools.', 'tk.f.noTools': 'No tools available.',
  'tk.f.missed': 'When missed', 'tk.f.missedHelp': 'What happens when the bot was not running at the time.', 'tk.f.missed.skip': 'skip it', 'tk.f.missed.late': 'run once late (not at night)',
  'tk.f.budget': 'Monthly budget', 'tk.f.budgetHelp': "In the price table's currency; once spent, no more runs this month. Empty: no cap of its own.",
  'tk.f.keep': 'Keep the conversation', 'tk.f.keepHelp': 'On: each run continues the last one’s conversation; off: each run starts afresh.',
  'tk.runsOf': 'Runs of “{name}”', 'tk.close': 'Close the runs', 'tk.noRuns': 'No runs yet.', 'tk.lastResult': 'The run just now',
  'tk.r.time': 'Time', 'tk.r.status': 'Result', 'tk.r.tokens': 'Tokens', 'tk.r.tokensOf': 'input {input} · output {output} · cached {cached}', 'tk.r.cost': 'Cost',
  'tk.r.late': 'late', 'tk.r.manual': 'by hand', 'tk.r.answer': 'Answer', 'tk.r.error': 'Error', 'tk.r.notDelivered': 'not sent',
  'tk.r.ok': 'ok', 'tk.r.failed': 'failed', 'tk.r.skipped': 'skipped', 'tk.unpriced': 'unpriced'
}
