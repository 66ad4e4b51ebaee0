// The `knowledge` section: how documents are cut into passages, how many reach a prompt, and the
// optional embeddings, fusion and reranker of the search.
// lib/config/README.md, "A domain's section".
import { z } from 'zod'
import { doc, sectionDefaults } from '../config/field-doc.js'

// Found by meaning (README, "Found by meaning"): an OpenAI-compatible embeddings endpoint; empty
// baseUrl or model = BM25 only.
const embedding = doc(z.strictObject({
  baseUrl: doc(z.string().max(500), ['Embeddings endpoint', '嵌入服务地址',
    'OpenAI-compatible base URL (…/v1); POST {baseUrl}/embeddings. Empty: passages are found by their words only (BM25).',
    'OpenAI 兼容的地址（…/v1），请求 {baseUrl}/embeddings。留空：只按字词检索（BM25）。'], { default: '' }),
  apiKey: doc(z.string().max(500), ['Embeddings API key', '嵌入服务密钥', 'Sent as a Bearer token; shown masked.', '以 Bearer 令牌发送；显示时打码。'], { default: '' }),
  model: doc(z.string().max(200), ['Embedding model', '嵌入模型',
    'e.g. text-embedding-v4, BAAI/bge-m3, embedding-3. A change re-embeds every passage in the background (GET /api/knowledge/embedding/status).',
    '如 text-embedding-v4、BAAI/bge-m3、embedding-3。修改后在后台重新计算全部段落的向量（进度见 GET /api/knowledge/embedding/status）。'], { default: '' }),
  dimensions: doc(z.number().int().min(1).max(8192).optional(), ['Dimensions', '向量维度',
    'Asked of the model when set (models that can shrink their vectors); unset: the model\'s own, learned by a first request.',
    '设置时向模型请求这个维度（支持缩减维度的模型）；不设：使用模型自己的维度，由第一次请求得知。']),
  batchSize: doc(z.number().int().min(0).max(2048), ['Texts per request', '每次请求的文本数',
    '0: learned (start at 32, halved while the endpoint refuses the batch size; Qwen takes 10, Zhipu 64, SiliconFlow 64).',
    '0：自动得知（从 32 开始，服务拒绝批量大小时减半；通义 10 条，智谱 64 条，硅基流动 64 条）。'], { default: 0 })
}), ['Embeddings', '向量嵌入', 'Passages found by meaning as well as by their words.', '除字词外也按意思检索段落。'])

const fusion = doc(z.strictObject({
  method: doc(z.enum(['rrf', 'weighted']), ['Fusion method', '融合方式',
    'How the word (BM25) and meaning (vector) rankings are joined: rrf = reciprocal rank fusion, weighted = weighted sum of normalised scores.',
    '字词（BM25）与语义（向量）两个排序如何合并：rrf = 倒数排名融合，weighted = 归一化分数加权求和。'], {
    default: 'weighted',
    note: 'rrf = reciprocal rank fusion, weighted = weighted sum of scores normalised per list (min-max). weighted is the default: on the labelled set (bench/knowledge-quality) it ranks the right passage higher (MRR 0.93 against 0.91 for rrf) at the same recall.'
  }),
  bm25Weight: doc(z.number().min(0).max(10), ['Word weight', '字词权重', 'Weight of the BM25 ranking.', 'BM25 排序的权重。'], { default: 1 }),
  vectorWeight: doc(z.number().min(0).max(10), ['Meaning weight', '语义权重', 'Weight of the vector ranking.', '向量排序的权重。'], { default: 1 }),
  rrfK: doc(z.number().int().min(1).max(1000), ['RRF k', 'RRF 常数 k', 'Reciprocal rank fusion: a passage at rank r scores weight / (k + r).', '倒数排名融合：排名 r 的段落得分 权重 / (k + r)。'], { default: 60 })
}), ['Fusion', '结果融合', 'Joining word and meaning results (used when embeddings are set).', '合并字词与语义结果（设置了向量嵌入时使用）。'])

const rerank = doc(z.strictObject({
  baseUrl: doc(z.string().max(500), ['Reranker endpoint', '重排服务地址',
    'Jina/Cohere-style POST {baseUrl}/rerank; empty: no reranking.', 'Jina/Cohere 风格的 POST {baseUrl}/rerank；留空：不重排。'], { default: '' }),
  apiKey: doc(z.string().max(500), ['Reranker API key', '重排服务密钥', 'Sent as a Bearer token; shown masked.', '以 Bearer 令牌发送；显示时打码。'], { default: '' }),
  model: doc(z.string().max(200), ['Reranker model', '重排模型', 'e.g. BAAI/bge-reranker-v2-m3, jina-reranker-v2-base-multilingual.', '如 BAAI/bge-reranker-v2-m3、jina-reranker-v2-base-multilingual。'], { default: '' }),
  topN: doc(z.number().int().min(1).max(200), ['Passages reranked', '重排段落数', 'The best this many fused passages are sent to the reranker.', '融合后最好的这么多段送去重排。'], { default: 20 })
}), ['Reranker', '重排', 'Optional: a reranking model orders the found passages.', '可选：由重排模型给找到的段落重新排序。'])

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
    '知识库接收的最大文件（网址则为网页）字节数；更大的上传返回 413。']),
  embedding: embedding.prefault(sectionDefaults(embedding)),
  fusion: fusion.prefault(sectionDefaults(fusion)),
  rerank: rerank.prefault(sectionDefaults(rerank))
}), ['Knowledge base', '知识库', 'Documents and files cut into passages; the passages relevant to a message are put into its prompt.', '文档和文件切成段落；与消息相关的段落放入提示词。'])
