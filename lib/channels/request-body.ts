// The JSON text of a chat request, built here rather than by the openai client: a turn offers the
// model up to tools.maxToolsPerRequest tool definitions (about 10 KB of JSON for 32 tools), the same
// objects turn after turn, so each definition is serialised once and kept beside its parameters
// object; only the messages and sampling fields are serialised per request. The client sends a
// string body as it is when the request names its content type (RequestOptions.body of `openai`).
import type { ChatCompletionTool } from 'openai/resources/chat/completions'

interface CachedTool { name: string; description: string | undefined; json: string }
const toolJson = new WeakMap<object, CachedTool>()

function serialiseTool (t: ChatCompletionTool): string {
  if (t.type !== 'function' || !t.function.parameters) return JSON.stringify(t)
  const { name, description, parameters } = t.function
  const hit = toolJson.get(parameters)
  if (hit && hit.name === name && hit.description === description) return hit.json
  const json = JSON.stringify(t)
  toolJson.set(parameters, { name, description, json })
  return json
}

/** The request options that make the client post `body` as this JSON text. */
export function jsonBodyOptions (body: Record<string, unknown>): { body: string; headers: { 'content-type': string } } {
  const { tools, ...rest } = body
  // a channel's body template may set `tools` to anything: only a list of definitions is spliced
  if (!Array.isArray(tools) || tools.length === 0) return { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }
  const head = JSON.stringify(rest)
  // rest always holds model and messages, so head is a non-empty object: `{...}`
  const json = `${head.slice(0, -1)},"tools":[${(tools as ChatCompletionTool[]).map(serialiseTool).join(',')}]}`
  return { body: json, headers: { 'content-type': 'application/json' } }
}
