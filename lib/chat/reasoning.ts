// Models that think aloud wrap it in <think>…</think> (also thinking/reasoning); some send only the
// closing tag. What is kept from an answer (memories, summaries) never includes that text.
export function stripReasoning (answer: string): string {
  return answer.replace(/<(think|thinking|reasoning)>[\s\S]*?<\/\1>/gi, '').replace(/^[\s\S]*<\/(think|thinking|reasoning)>/i, '')
}
