// Cutting a streamed answer into the pieces sent while the model still writes (stream.ts): at paragraph
// ends, else at sentence and line ends, never inside a code fence, a markdown table, a list item, a
// heading and what follows it, a link or URL, inline code, or a number such as 3.14. The first piece goes
// at its first complete sentence; later ones at paragraph ends (a paragraph past LONG_PARAGRAPH at its
// last sentence end), so a fast model's answer is a few messages, not one per sentence. Pieces shorter
// than `minChars` wait to be merged with what follows (lib/delivery/README.md, "Streamed answers").

/** A paragraph that grew past this many characters is cut at its last sentence end. */
export const LONG_PARAGRAPH = 200

type CutKind = 'para' | 'line' | 'item' | 'sentence'
interface Cut { at: number; kind: CutKind }

const FENCE = /^\s{0,3}(`{3,}|~{3,})/
const HEADING = /^\s{0,3}#{1,6}\s/
const LIST_ITEM = /^\s*(?:[-*+•]|\d{1,3}[.)])\s/
const TERMINATOR = /[。！？!?…．.]/
/** what may follow a sentence's end in the same piece: more end marks, closing quotes and brackets */
const TRAILER = /[。！？!?…．.~～”’」』）)】》"'\]]/
const ABBREVIATION = /(?:^|[\s(])(?:e\.g|i\.e|etc|vs|mr|mrs|dr|fig|approx|cf|[a-z])$/i
const CLOSERS = /[:：]\s*$/

const PAIRS: Array<[string, string]> = [['“', '”'], ['「', '」'], ['『', '』'], ['（', '）'], ['(', ')'], ['《', '》'], ['【', '】']]
const count = (s: string, c: string): number => s.split(c).length - 1

/** Whether the end mark at `k` of `line` (its trailers up to `j`) is inside a quotation or brackets not
 * closed by `j`, a URL, a markdown link or image, or inline code. */
function shielded (line: string, k: number, j: number): boolean {
  const upto = line.slice(0, j)
  if (count(upto, '"') % 2 === 1 || PAIRS.some(([open, close]) => count(upto, open) > count(upto, close))) return true
  const before = line.slice(0, k)
  if (count(before, '`') % 2 === 1) return true
  if (before.lastIndexOf('[') > before.lastIndexOf(']')) return true
  if (before.lastIndexOf('](') > before.lastIndexOf(')')) return true
  const token = before.slice(Math.max(before.lastIndexOf(' '), before.lastIndexOf('\t')) + 1)
  return /(?:https?:\/\/|www\.|\/\/)\S*$/i.test(token)
}

/**
 * Sentence ends in one line of prose: positions just after the end mark (and its trailers and spaces).
 * `complete`: the line's end was seen (a '.' at its end ends the sentence).
 */
function sentenceEnds (line: string, complete: boolean): number[] {
  const out: number[] = []
  for (let k = 0; k < line.length; k++) {
    const c = line[k] as string
    if (!TERMINATOR.test(c)) continue
    let j = k + 1
    while (j < line.length && TRAILER.test(line[j] as string)) j++
    const atEnd = j >= line.length
    const run = line.slice(k, j)
    if (/^[.．]+$/.test(run.replace(/["'”’」』）)】》\]]+$/, ''))) {
      // a period: only before a space (3.14, example.com, file.ts never end a sentence) or at a line's end
      if (atEnd ? !complete : !/\s/.test(line[j] as string)) { k = j - 1; continue }
      const word = line.slice(0, k)
      if (ABBREVIATION.test(word) || /^\s*\d{1,3}$/.test(word)) { k = j - 1; continue }
    } else if (atEnd && !complete && /^[!?]/.test(run)) {
      // `!` may open an image (`![…](…)`) when it starts a word
      if (run === '!' && (k === 0 || /\s/.test(line[k - 1] as string))) { k = j - 1; continue }
    }
    if (c === '!' && line[j] === '[') { k = j - 1; continue }
    if (shielded(line, k, j)) { k = j - 1; continue }
    while (j < line.length && /\s/.test(line[j] as string)) j++
    out.push(j)
    k = j - 1
  }
  return out
}

/** Where `text` may be cut, in order; each cut is the index where the next piece would start. */
function cutsOf (text: string): Cut[] {
  const cuts: Cut[] = []
  const lines = text.split('\n')
  let pos = 0
  let fence = ''
  let prev: { line: string; kind: 'prose' | 'heading' | 'table' | 'item' | 'fence' } | undefined
  let blank = false
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string
    const complete = i < lines.length - 1
    const start = pos
    pos += line.length + 1
    const f = FENCE.exec(line)
    if (fence) {
      if (f && f[1]?.[0] === fence[0] && (f[1]?.length ?? 0) >= fence.length && line.trim() === f[1] && complete) {
        fence = ''
        prev = { line, kind: 'fence' }
      }
      continue
    }
    if (!line.trim()) {
      if (complete && prev) blank = true
      continue
    }
    // a cut before this line, judged by the line before and this one (it has begun, so its kind shows)
    if (prev && start > 0) {
      const kind: CutKind | undefined =
        prev.kind === 'heading' || CLOSERS.test(prev.line) ? undefined
          : blank ? 'para'
            // a line break is judged once the next line shows what it is (a row, an item, indented)
            : !complete && line.length < 4 ? undefined
              : prev.kind === 'table' && (line.includes('|') || !complete) ? undefined
                : /^\s/.test(line) ? undefined
                  : prev.kind === 'item' && LIST_ITEM.test(line) ? 'item'
                    : 'line'
      if (kind) cuts.push({ at: start, kind })
    }
    blank = false
    if (f) {
      fence = f[1] as string
      prev = { line, kind: 'fence' }
      continue
    }
    const kind = HEADING.test(line) ? 'heading' : line.includes('|') ? 'table' : LIST_ITEM.test(line) ? 'item'
      : prev?.kind === 'item' && /^\s/.test(line) ? 'item' : 'prose'
    if (kind === 'prose') for (const k of sentenceEnds(line, complete)) if (k < line.length) cuts.push({ at: start + k, kind: 'sentence' })
    prev = { line, kind }
  }
  // the text so far ends where a piece may end: after a paragraph, or after a sentence of prose
  if (fence || !prev || prev.kind === 'heading' || CLOSERS.test(text)) return cuts
  if (blank) cuts.push({ at: text.length, kind: 'para' })
  else if (prev.kind === 'prose') {
    const complete = text.endsWith('\n')
    if (sentenceEnds(prev.line, complete).at(-1) === prev.line.length) cuts.push({ at: text.length, kind: complete ? 'line' : 'sentence' })
  }
  return cuts
}

/** The pieces of a streamed round of text: text goes in as it comes, complete pieces come out. */
export class PieceSplitter {
  private buf = ''

  constructor (private readonly minChars: number) {}

  push (text: string): void { this.buf += text }

  /** What is held and not given out yet. */
  get pending (): string { return this.buf }

  /**
   * Complete pieces to send now, at most `max`. `first`: no piece of the answer went out yet (the first
   * piece goes at its first complete sentence).
   */
  take (first: boolean, max = Number.MAX_SAFE_INTEGER): string[] {
    const out: string[] = []
    while (out.length < max) {
      const cut = this.next(first && out.length === 0)
      if (cut === undefined) return out
      const piece = this.buf.slice(0, cut).trim()
      this.buf = this.buf.slice(cut)
      if (piece) out.push(piece)
    }
    return out
  }

  private next (first: boolean): number | undefined {
    const big = (at: number): boolean => this.buf.slice(0, at).trim().length >= Math.max(1, this.minChars)
    const cuts = cutsOf(this.buf).filter((c) => big(c.at))
    if (!cuts.length) return undefined
    if (first) return cuts.find((c) => c.kind !== 'item')?.at ?? (this.long(cuts) ? cuts.at(-1)?.at : undefined)
    const para = cuts.filter((c) => c.kind === 'para').at(-1)
    if (para) return para.at
    return this.long(cuts) ? cuts.at(-1)?.at : undefined
  }

  private long (cuts: Cut[]): boolean {
    const last = cuts.at(-1)
    return last !== undefined && this.buf.slice(0, last.at).trim().length >= LONG_PARAGRAPH
  }

  /** The round ended: everything held, and the splitter empty. */
  flush (): string {
    const rest = this.buf
    this.buf = ''
    return rest
  }
}
