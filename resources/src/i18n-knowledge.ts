// Texts of the knowledge page (pages/knowledge*.tsx), zh-CN and en. Read through pages/knowledge-words.ts
// (kt/ktv), not merged into i18n.ts: they load with the page's own chunk, not with the first page.
type Dict = Record<string, string>

export const knowledgeZh: Dict = {
  'kb.bases': '知识库', 'kb.base': '知识库', 'kb.baseName': '名称', 'kb.baseDesc': '说明', 'kb.baseId': 'ID（可选）', 'kb.newBase': '新建知识库',
  'kb.create': '创建', 'kb.rename': '重命名', 'kb.docsCount': '{n} 篇文档', 'kb.selected': '当前', 'kb.open': '打开',
  'kb.delBase': '删除知识库“{name}”？', 'kb.delBaseDocs': '知识库“{name}”中还有 {n} 篇文档，将一并删除。确定删除？',
  'kb.basePresets': '绑定预设', 'kb.basePresetsHint': '使用这些预设的对话会检索这个知识库；群可以在“群设置”中用 knowledge 指定自己的知识库。',
  'kb.upload': '上传文件', 'kb.drop': '把文件拖到这里，或点击选择文件（可多选）', 'kb.types': '支持 .txt .md .html .pdf .docx .csv .xlsx',
  'kb.pick': '选择文件', 'kb.uploading': '上传中 {p}%', 'kb.processing': '处理中…', 'kb.ready': '已就绪', 'kb.failedAs': '失败：{e}',
  'kb.url': '从网址导入', 'kb.urlField': '网址', 'kb.import': '导入', 'kb.into': '存入“{name}”',
  'kb.docs': '文档', 'kb.passages': '段落', 'kb.passagesOf': '“{title}”的段落', 'kb.noPassages': '这篇文档还没有段落（处理完成后才有）。',
  'kb.page': '第 {n} 页', 'kb.status': '状态', 'kb.st.processing': '处理中', 'kb.st.ready': '就绪', 'kb.st.failed': '失败',
  'kb.test': '检索测试', 'kb.testHint': '输入一个问题，看看会检索到哪些段落、得分多少、由哪种检索找到。', 'kb.scope': '范围', 'kb.allBases': '全部知识库',
  'kb.score': '得分', 'kb.retrievers': '检索方式',
  'kb.emb': '向量检索（Embedding）', 'kb.embState': '状态', 'kb.embTest': '测试连接', 'kb.embMissing': '这个版本还没有向量检索的接口（服务器回答 404）。更新插件后再试。',
  'kb.embOk': '测试成功', 'kb.emb.off': '未配置', 'kb.emb.idle': '空闲', 'kb.emb.embedding': '向量化中', 'kb.emb.loading': '读取向量中', 'kb.emb.error': '出错',
  'kb.embProgress': '进度', 'kb.embModel': '模型', 'kb.embVectors': '段落向量', 'kb.embDims': '维度', 'kb.embBatch': '批大小'
}

export const knowledgeEn: Dict = {
  'kb.bases': 'Knowledge bases', 'kb.base': 'Base', 'kb.baseName': 'Name', 'kb.baseDesc': 'Description', 'kb.baseId': 'Id (optional)', 'kb.newBase': 'New base',
  'kb.create': 'Create', 'kb.rename': 'Rename', 'kb.docsCount': '{n} documents', 'kb.selected': 'current', 'kb.open': 'Open',
  'kb.delBase': 'Delete the knowledge base “{name}”?', 'kb.delBaseDocs': 'The knowledge base “{name}” holds {n} documents; they are deleted with it. Delete?',
  'kb.basePresets': 'Bound presets', 'kb.basePresetsHint': 'Chats with these presets draw on this base; a group can name its own bases (knowledge) in its group settings.',
  'kb.upload': 'Upload files', 'kb.drop': 'Drop files here, or click to choose (several at once)', 'kb.types': 'Takes .txt .md .html .pdf .docx .csv .xlsx',
  'kb.pick': 'Choose files', 'kb.uploading': 'Uploading {p}%', 'kb.processing': 'Processing…', 'kb.ready': 'Ready', 'kb.failedAs': 'Failed: {e}',
  'kb.url': 'Import from a URL', 'kb.urlField': 'URL', 'kb.import': 'Import', 'kb.into': 'into “{name}”',
  'kb.docs': 'Documents', 'kb.passages': 'Passages', 'kb.passagesOf': 'Passages of “{title}”', 'kb.noPassages': 'This document has no passages yet (they come once it is processed).',
  'kb.page': 'page {n}', 'kb.status': 'Status', 'kb.st.processing': 'processing', 'kb.st.ready': 'ready', 'kb.st.failed': 'failed',
  'kb.test': 'Retrieval test', 'kb.testHint': 'Ask a question and see which passages are found, their scores and which retriever found them.', 'kb.scope': 'Scope', 'kb.allBases': 'All bases',
  'kb.score': 'Score', 'kb.retrievers': 'Retrievers',
  'kb.emb': 'Vector search (embeddings)', 'kb.embState': 'State', 'kb.embTest': 'Test the connection', 'kb.embMissing': 'This version has no vector search API yet (the server answers 404). Update the plugin and try again.',
  'kb.embOk': 'Test passed', 'kb.emb.off': 'not set up', 'kb.emb.idle': 'idle', 'kb.emb.embedding': 'embedding', 'kb.emb.loading': 'reading the vectors', 'kb.emb.error': 'error',
  'kb.embProgress': 'Progress', 'kb.embModel': 'Model', 'kb.embVectors': 'Passage vectors', 'kb.embDims': 'Dimensions', 'kb.embBatch': 'Batch size'
}
