// Texts of the shell's feedback and accessibility parts (confirm dialog, server error codes, empty states,
// first-run guide, menu), zh-CN and en. Merged into i18n.ts's dictionaries.
type Dict = Record<string, string>

export const feedbackZh: Dict = {
  'cf.title': '请确认', 'cf.ok': '删除', 'cf.cancel': '取消',
  'cf.delConv': '删除会话“{name}”及其全部消息？', 'cf.clearConvs': '删除全部 {n} 个会话？此操作不能撤销。', 'cf.clearCtx': '清空会话“{name}”的上下文？'
}

export const feedbackEn: Dict = {
  'cf.title': 'Please confirm', 'cf.ok': 'Delete', 'cf.cancel': 'Cancel',
  'cf.delConv': 'Delete the conversation “{name}” and all its messages?', 'cf.clearConvs': 'Delete all {n} conversations? This cannot be undone.', 'cf.clearCtx': 'Clear the context of the conversation “{name}”?'
}
