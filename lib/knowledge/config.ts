// The `knowledge` section: how documents are cut into passages and how many reach a prompt.
// lib/config/README.md, "A domain's section".
import { z } from 'zod'
import { doc } from '../config/field-doc.js'

export const knowledgeSection = doc(z.strictObject({
  enabled: doc(z.boolean(), ['Knowledge on', '启用知识库'], { default: true }),
  maxResultsInPrompt: doc(z.number().int().min(0).max(50), ['Passages in a prompt', '提示词中的段落数', 'At most this many passages (0-50).', '最多这么多段（0-50）。'], { default: 3 }),
  chunkSize: doc(z.number().int().min(100).max(4000).default(500), ['Passage size (characters)', '段落长度（字符）',
    'Documents are cut into passages of about this many characters, at headings, paragraphs and sentence ends (100-4000). A change applies to documents added or re-processed afterwards and to all of them at the next start.',
    '文档按标题、段落和句末切成大约这么多字符的段落（100-4000）。修改后对之后加入的文档生效，下次启动时对全部文档生效。']),
  chunkOverlap: doc(z.number().int().min(0).max(1000).default(50), ['Passage overlap (characters)', '段落重叠（字符）',
    'Each passage repeats about this many characters of the one before it, so a sentence cut at a border is found whole (0-1000, less than the passage size).',
    '每段重复前一段末尾大约这么多字符，被切开的句子仍能完整找到（0-1000，小于段落长度）。']),
  maxFileBytes: doc(z.number().int().min(1024).max(200 * 1024 * 1024).default(20 * 1024 * 1024), ['Largest file (bytes)', '文件大小上限（字节）',
    'Largest file (or page, for a URL) the knowledge base takes; a larger upload is answered 413.',
    '知识库接收的最大文件（网址则为网页）字节数；更大的上传返回 413。'])
}), ['Knowledge base', '知识库', 'Documents and files cut into passages; the passages relevant to a message are put into its prompt.', '文档和文件切成段落；与消息相关的段落放入提示词。'])
