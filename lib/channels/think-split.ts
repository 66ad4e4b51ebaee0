// `<think>…</think>` (also <thinking>, <reasoning>) inside an answer's text, taken out as it streams:
// the text outside goes on at once, the text inside becomes reasoning, and a tag cut between two chunks
// is held back until the next one says what it is. The same tags as lib/chat/reasoning.ts, which cleans
// stored and sent text; here the reasoning is kept apart for the provider profile's send-back rule.
import { maybeReasoningTag as maybeTag, REASONING_CLOSE as CLOSE, REASONING_OPEN as OPEN } from '../chat/reasoning.js'

export class ThinkSplitter {
  private inside = false
  private held = ''
  /** just after a closing tag: the blank lines before the answer are not part of it */
  private trimStart = false
  /** the reasoning read so far */
  reasoning = ''

  /** Text of one chunk; gives what may be shown now. */
  push (text: string): string {
    if (!text) return ''
    let s = this.held + text
    this.held = ''
    if (this.trimStart && !this.inside) {
      s = s.replace(/^\s+/, '')
      if (!s) return ''
      this.trimStart = false
    }
    // fast path: nothing that could be a tag
    if (!this.inside && !s.includes('<')) return s
    let out = ''
    while (s) {
      if (!this.inside) {
        const m = OPEN.exec(s)
        if (m) {
          out += s.slice(0, m.index)
          s = s.slice(m.index + m[0].length)
          this.inside = true
          continue
        }
        const lt = s.lastIndexOf('<')
        if (lt >= 0 && maybeTag(s.slice(lt), false)) { this.held = s.slice(lt); s = s.slice(0, lt) }
        out += s
        s = ''
      } else {
        const m = CLOSE.exec(s)
        if (m) {
          this.reasoning += s.slice(0, m.index)
          s = s.slice(m.index + m[0].length).replace(/^\s+/, '')
          this.inside = false
          this.trimStart = s === ''
          continue
        }
        const lt = s.lastIndexOf('<')
        if (lt >= 0 && maybeTag(s.slice(lt), true)) { this.held = s.slice(lt); s = s.slice(0, lt) }
        this.reasoning += s
        s = ''
      }
    }
    return out
  }

  /** The answer ended: text held back is shown (or is reasoning, inside a block that never closed). */
  end (): string {
    const rest = this.held
    this.held = ''
    if (this.inside) { this.reasoning += rest; return '' }
    return rest
  }
}
