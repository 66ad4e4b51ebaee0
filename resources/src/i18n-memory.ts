// Texts of the memory page's review queue and timeline (pages/memory-review.tsx, pages/memory-timeline.tsx),
// zh-CN and en. Read through pages/memory-words.ts (mt/mtv), not merged into i18n.ts: they load with the
// page's own chunk.
type Dict = Record<string, string>

export const memoryZh: Dict = {
  'mr.queue': '待确认的记忆', 'mr.queueHint': '模型推测、置信度低于 memory.reviewBelow 的记忆先放在这里，确认前不会用于回答。确认后即被使用；更正后按你写的内容使用；删除后不再出现。',
  'mr.none': '没有待确认的记忆。', 'mr.stated': '你说过：', 'mr.inferred': '我推测：', 'mr.manual': '手动写入：',
  'mr.private': '私聊', 'mr.group': '群 {id}', 'mr.api': '控制台/接口', 'mr.from': '来自 {chat} · {time}', 'mr.conversation': '会话 {id}',
  'mr.confidence': '置信度 {n}', 'mr.model': '模型 {name}', 'mr.confirm': '确认', 'mr.correct': '更正', 'mr.correctSave': '保存更正',
  'mr.confirmed': '已确认记忆 #{id}', 'mr.corrected': '已更正记忆 #{id}', 'mr.deleted': '已删除记忆 #{id}',
  'mr.select': '选择记忆 #{id}', 'mr.selectAll': '全选', 'mr.selected': '已选 {n} 条', 'mr.bulkConfirm': '确认所选', 'mr.bulkDelete': '删除所选',
  'mr.bulkDeleteAsk': '删除所选的 {n} 条记忆？', 'mr.bulkDone': '已处理 {done} 条，共 {n} 条', 'mr.bulkSkipped': '，{n} 条未处理（不是待确认或已不存在）',
  'mr.deleteAsk': '删除这条记忆？“{name}”', 'mr.user': '用户 {id}',
  'mr.pendingCount': '待确认', 'mr.supersededCount': '已被替代', 'mr.confirmedCount': '确认后使用中',
  'mr.timeline': '记忆时间线', 'mr.timelineHint': '这位用户的记忆，新的在前：来源、状态和修改历史（展开可看到以前的内容）。',
  'mr.filter': '在时间线中搜索', 'mr.noMatch': '没有符合的记忆。',
  'mr.pending': '待确认', 'mr.superseded': '已被 #{id} 替代', 'mr.supersededPlain': '已被替代', 'mr.inUse': '使用中',
  'mr.showHistory': '历史（{n}）', 'mr.hideHistory': '收起历史', 'mr.noHistory': '没有以前的版本。', 'mr.origin': '来源',
  'mr.until': '到 {time} 为止', 'mr.what.corrected': '被更正', 'mr.what.confirmed': '被确认', 'mr.what.superseded': '被替代', 'mr.what.refreshed': '被再次提到', 'mr.what.edited': '被编辑',
  'mr.by.user': '用户', 'mr.by.master': '主人', 'mr.by.model': '模型', 'mr.by.api': '接口'
}

export const memoryEn: Dict = {
  'mr.queue': 'Memories to review', 'mr.queueHint': 'Guesses the model made with a confidence below memory.reviewBelow wait here and are not used in answers until confirmed. Confirmed: used; corrected: used as you wrote it; deleted: gone.',
  'mr.none': 'Nothing waits for review.', 'mr.stated': 'You said: ', 'mr.inferred': 'I guess: ', 'mr.manual': 'Written by hand: ',
  'mr.private': 'private chat', 'mr.group': 'group {id}', 'mr.api': 'dashboard/API', 'mr.from': 'from {chat} · {time}', 'mr.conversation': 'conversation {id}',
  'mr.confidence': 'confidence {n}', 'mr.model': 'model {name}', 'mr.confirm': 'Confirm', 'mr.correct': 'Correct', 'mr.correctSave': 'Save correction',
  'mr.confirmed': 'Memory #{id} confirmed', 'mr.corrected': 'Memory #{id} corrected', 'mr.deleted': 'Memory #{id} deleted',
  'mr.select': 'Select memory #{id}', 'mr.selectAll': 'Select all', 'mr.selected': '{n} selected', 'mr.bulkConfirm': 'Confirm selected', 'mr.bulkDelete': 'Delete selected',
  'mr.bulkDeleteAsk': 'Delete the {n} selected memories?', 'mr.bulkDone': '{done} of {n} done', 'mr.bulkSkipped': '; {n} skipped (not pending or gone)',
  'mr.deleteAsk': 'Delete this memory? "{name}"', 'mr.user': 'user {id}',
  'mr.pendingCount': 'Pending', 'mr.supersededCount': 'Superseded', 'mr.confirmedCount': 'In use after confirmation',
  'mr.timeline': 'Memory timeline', 'mr.timelineHint': 'This user\'s memories, newest first: where each came from, its state and its history (expand to see earlier texts).',
  'mr.filter': 'Search the timeline', 'mr.noMatch': 'No memory matches.',
  'mr.pending': 'pending', 'mr.superseded': 'superseded by #{id}', 'mr.supersededPlain': 'superseded', 'mr.inUse': 'in use',
  'mr.showHistory': 'History ({n})', 'mr.hideHistory': 'Hide history', 'mr.noHistory': 'No earlier versions.', 'mr.origin': 'Origin',
  'mr.until': 'until {time}', 'mr.what.corrected': 'corrected', 'mr.what.confirmed': 'confirmed', 'mr.what.superseded': 'superseded', 'mr.what.refreshed': 'said again', 'mr.what.edited': 'edited',
  'mr.by.user': 'the user', 'mr.by.master': 'the master', 'mr.by.model': 'the model', 'mr.by.api': 'the API'
}
