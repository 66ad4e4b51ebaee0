// The bytes of a chat request, built here rather than by the openai client: a turn offers the model up
// to tools.maxToolsPerRequest tool definitions (about 10 KB of JSON for 32 tools), the same objects turn
// after turn, so each definition is serialised once and kept beside its parameters object, and the
// encoded list is reused while a request offers the same definitions; only the messages and sampling
// fields are serialised per request. The body goes out as bytes: the client passes a byte body through
// as it is, where a string body would be copied to a well-formed string and encoded again by fetch
// (the largest allocations of a turn, issue 17). RequestOptions.body of `openai` takes either.
import type { ChatCompletionTool } from 'openai/resources/chat/completions'

interface CachedTool { description: string | undefined; json: string }
// by parameters object, then by tool name: tools may share one parameters object (a `{ query }` schema)
const toolJson = new WeakMap<object, Map<string, CachedTool>>()

function serialiseTool (t: ChatCompletionTool): string {
  if (t.type !== 'function' || !t.function.parameters) return JSON.stringify(t)
  const { name, description, parameters } = t.function
  let byName = toolJson.get(parameters)
  const hit = byName?.get(name)
  if (hit && hit.description === description) return hit.json
  const json = JSON.stringify(t)
  if (!byName) toolJson.set(parameters, (byName = new Map()))
  byName.set(name, { description, json })
  return json
}

/** The last list of tool definitions sent and its encoding, `,"tools":[...]}`. */
let lastList: string[] = []
let lastBytes: Buffer = Buffer.alloc(0)

function toolsTail (tools: ChatCompletionTool[]): Buffer {
  const list = tools.map(serialiseTool)
  // the same cached strings in the same order: compared by identity first, so this is cheap
  if (list.length !== lastList.length || list.some((s, i) => s !== lastList[i])) {
    lastList = list
    lastBytes = Buffer.from(`,"tools":[${list.join(',')}]}`)
  }
  return lastBytes
}

// The bodies of requests that ask for the answer whole (`stream` not true): channelFetch reads those
// answers at once (lib/channels/fetch.ts). Marked by the body's identity, which the client passes on.
const wholeAnswers = new WeakSet<Uint8Array>()

/** True for a request body built here that does not ask for a streamed answer. */
export const asksWholeAnswer = (body: unknown): boolean => body instanceof Uint8Array && wholeAnswers.has(body)

/** The request options that make the client post `body` as this JSON. */
export function jsonBodyOptions (body: Record<string, unknown>): { body: Buffer; headers: { 'content-type': string } } {
  const out = encode(body)
  if (body.stream !== true) wholeAnswers.add(out)
  return { body: out, headers: { 'content-type': 'application/json' } }
}

function encode (body: Record<string, unknown>): Buffer {
  const { tools, ...rest } = body
  // a channel's body template may set `tools` to anything: only a list of definitions is spliced
  if (!Array.isArray(tools) || tools.length === 0) return Buffer.from(JSON.stringify(body))
  // rest always holds model and messages, so its JSON is a non-empty object `{...}`: its `}` is replaced by the tail
  const head = JSON.stringify(rest)
  const tail = toolsTail(tools as ChatCompletionTool[])
  const headBytes = Buffer.byteLength(head) - 1
  const out = Buffer.allocUnsafe(headBytes + tail.length)
  out.write(head, 0, headBytes, 'utf8')
  tail.copy(out, headBytes)
  return out
}
