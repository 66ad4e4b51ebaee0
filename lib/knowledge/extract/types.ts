// What an extractor gives and how it fails (lib/knowledge/README.md, "Files in").

export interface Extracted {
  /** markdown-like text: headings as `#` lines, table rows as `| a | b |` lines, paragraphs apart */
  text: string
  /** a title the file names itself (HTML <title>, a markdown `# ` line, the PDF's Title) */
  title?: string
  /** a paged document: the offset in `text` where each page starts */
  pageStarts?: number[]
}

/** A failure to read a file, said in the owner's words (the document's `error`). */
export class ExtractError extends Error {
  override readonly name = 'ExtractError'
}
