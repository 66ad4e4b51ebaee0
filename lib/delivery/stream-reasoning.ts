// Reasoning kept out of a streamed answer before it is cut into pieces (stream.ts). The gateway already
// takes `<think>` blocks out of the stream (lib/channels/think-split.ts), but a piece that went out cannot
// be taken back, so the stream is checked again here with the rules of lib/chat/reasoning.ts: a block is
// dropped, an opening tag holds back everything after it until it closes (never shown when it does not),
// a tag cut between two chunks is held until the next one says what it is, and a closing tag without its
// opening one says the text before it was reasoning (`reset`: what is not sent yet is dropped).
import { maybeReasoningTag as maybeTag, REASONING_CLOSE as CLOSE, REASONING_OPEN as OPEN } from '../chat/reasoning.js'

export interface GatedText {
  /** answer text that may be shown */
  text: string
  /** a closing tag came without its opening one: the text before it (not sent yet) was reasoning */
  reset: boolean
}

export class ReasoningGate {
  private inside = false
  private held = ''
  /** just after a closing tag: the blank lines before the answer are not part of it */
  private trimStart = false

  push (chunk: string): GatedText {
    let s = this.held + chunk
    this.held = ''
    let text = ''
    let reset = false
    if (this.trimStart && !this.inside) {
      s = s.replace(/^\s+/, '')
      if (s) this.trimStart = false
    }
    while (s) {
      if (this.inside) {
        const m = CLOSE.exec(s)
        if (!m) {
          const lt = s.lastIndexOf('<')
          this.held = lt >= 0 && maybeTag(s.slice(lt)) ? s.slice(lt) : ''
          return { text, reset }
        }
        s = s.slice(m.index + m[0].length).replace(/^\s+/, '')
        this.inside = false
        this.trimStart = s === ''
        continue
      }
      const open = OPEN.exec(s)
      const close = CLOSE.exec(s)
      if (close && (!open || close.index < open.index)) {
        // a stray closing tag: everything before it is reasoning
        text = ''
        reset = true
        s = s.slice(close.index + close[0].length).replace(/^\s+/, '')
        this.trimStart = s === ''
        continue
      }
      if (open) {
        text += s.slice(0, open.index)
        s = s.slice(open.index + open[0].length)
        this.inside = true
        continue
      }
      const lt = s.lastIndexOf('<')
      if (lt >= 0 && maybeTag(s.slice(lt))) { this.held = s.slice(lt); s = s.slice(0, lt) }
      text += s
      s = ''
    }
    return { text, reset }
  }

  /** The round ended: a held partial tag was text after all; inside an unclosed block nothing is shown. */
  end (): string {
    const rest = this.inside ? '' : this.held
    this.held = ''
    this.inside = false
    return rest
  }
}
