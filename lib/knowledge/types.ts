// Knowledge documents and the passages searches answer (lib/knowledge/README.md).

/** Where a document is in its processing: `processing` until its passages are indexed, then `ready`, or `failed` with `error`. */
type DocStatus = 'processing' | 'ready' | 'failed'

/** What a document was made from. */
type DocSource =
  | { kind: 'text' }
  | { kind: 'file'; name: string; type: FileType; bytes: number }
  | { kind: 'url'; url: string }

/** The file types the knowledge base reads (extract/index.ts). */
export const FILE_TYPES = ['txt', 'md', 'html', 'pdf', 'docx', 'csv', 'xlsx'] as const
export type FileType = typeof FILE_TYPES[number]

/**
 * A document as knowledge.json holds it. A record written before files were taken has no status
 * (it is ready) and no source (pasted text).
 */
export interface KnowledgeDoc {
  id: string
  title: string
  /** the text (for a file or URL: the text extracted from it, headings as `#` lines, table rows as `| a | b |` lines) */
  content: string
  /** '' = not bound to a preset */
  presetId: string
  /** the base the document belongs to (bases.ts); absent: the default base (every document written before bases) */
  baseId?: string
  createdAt: string
  updatedAt: string
  status?: DocStatus
  /** why processing failed, in the owner's words */
  error?: string
  source?: DocSource
  /** a paged document (PDF): the offset in `content` where each page starts, page 1 first */
  pageStarts?: number[]
  /** processing attempts begun (a start that finds a document still `processing` tries once more, then marks it failed) */
  attempts?: number
  /** shared store only: when the instance processing it claimed it (ms; another instance takes a URL over after PROCESS_LEASE_MS, service.ts) */
  claimedAt?: number
}

/** A document as the API shows it: its status, source, base and the number of its passages always there. */
export type KnowledgeView = Omit<KnowledgeDoc, 'status' | 'source' | 'attempts' | 'claimedAt' | 'baseId'> & { status: DocStatus; source: DocSource; baseId: string; chunks: number }

/** List view: the first 500 characters of the content. */
export type KnowledgeListItem = KnowledgeView & { contentLength: number; truncated: boolean }

/** Which retriever found a passage (vectors/fusion.ts). */
type Retriever = 'bm25' | 'vector' | 'rerank'

/** A passage a search answers, best first. */
export interface KnowledgeHit {
  docId: string
  /** the same as docId (kept for clients of the document search this replaced) */
  id: string
  title: string
  presetId: string
  /** the passage (never the whole document) */
  text: string
  score: number
  /** the heading path of the passage (`第二章 > 2.1 安装`), when the document has headings */
  heading?: string
  /** the page the passage starts on (PDF) */
  page?: number
  retrievers: Retriever[]
  /** a window of the passage around the matches */
  snippet: string
  /** the same window, HTML-escaped, matches in <mark> */
  highlighted: string
}

/** A knowledge base (bases.ts): a named collection of documents, bound to presets (`presetIds`) and to groups (config `groups.<id>.knowledge`). */
export interface KnowledgeBase {
  id: string
  name: string
  description: string
  /** the presets whose chats draw on this base (besides the documents bound to the preset itself) */
  presetIds: string[]
  createdAt: string
  updatedAt: string
}
/** A base as the API shows it: with its number of documents. */
export type KnowledgeBaseView = KnowledgeBase & { documents: number }

/** One passage of a document as `GET /api/knowledge/:id/passages` lists it. */
export interface PassageView { index: number; heading: string; page?: number; text: string }

export const LIST_CHARS = 500
export const LIMITS = { title: 200, content: 200_000, presetId: 100, url: 2000, baseName: 100, baseDescription: 1000, basePresets: 50 }
/** A base id: what a group's `knowledge` list names (letters, digits, `_`, `-`). */
export const BASE_ID = /^[\w-]{1,64}$/
/** Characters of text a file or page may give (a longer one fails: split it). */
export const EXTRACTED_MAX_CHARS = 2_000_000
