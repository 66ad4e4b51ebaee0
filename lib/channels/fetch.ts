// The fetch the openai client uses for the channels (its ClientOptions.fetch): undici's request() behind
// the fetch signature. Node's global fetch cost about a third of a chat turn's CPU (issue 17, measured
// in bench/chat-external.bench.ts): a Request object, one more AbortController and listener per call,
// web streams both ways; request() sends the bytes as they are and hands back the answer's body as the
// Node stream it reads, which a Response takes as it is (an async iterable).
// As fetch does: redirects are followed (at most 20; 301/302 turn a POST into a GET, 303 any method;
// credentials are dropped when the origin changes: undici's redirect interceptor, which unlike fetch
// keeps the Content-Type of a POST turned into a bodiless GET); an answer whose
// status carries no body has none. A body that is not bytes or text (the multipart upload of an image
// edit) and a Request as input go through the global fetch.
import { Agent, interceptors, request, type Dispatcher } from 'undici'

const NO_BODY = new Set([204, 205, 304])

// one pool of connections for every channel, like the global fetch's (idle connections close by themselves)
let dispatcher: Dispatcher | undefined
const redirecting = (): Dispatcher => (dispatcher ??= new Agent().compose(interceptors.redirect({ maxRedirections: 20 })))

/** A flat [name, value, ...] list: what request() takes for a Headers object or a list of pairs. */
function headerList (h: RequestInit['headers']): string[] | Record<string, string> | undefined {
  if (h === undefined) return undefined
  if (h instanceof Headers || Array.isArray(h)) {
    const flat: string[] = []
    for (const [k, v] of h) flat.push(k, v)
    return flat
  }
  return h
}

export const channelFetch: typeof fetch = async (input, init = {}) => {
  const body = init.body ?? undefined
  const bytes = body === undefined || typeof body === 'string' || body instanceof Uint8Array
  if (!bytes || !(typeof input === 'string' || input instanceof URL)) return await fetch(input, init)
  const res = await request(input, {
    method: (init.method ?? 'GET').toUpperCase() as Dispatcher.HttpMethod,
    headers: headerList(init.headers),
    body,
    ...(init.signal ? { signal: init.signal } : {}),
    dispatcher: redirecting()
  })
  const headers = new Headers()
  for (const [k, v] of Object.entries(res.headers)) {
    if (Array.isArray(v)) for (const one of v) headers.append(k, one)
    else if (v !== undefined) headers.append(k, v)
  }
  if (NO_BODY.has(res.statusCode)) {
    res.body.resume() // nothing to read; frees the connection
    return new Response(null, { status: res.statusCode, headers })
  }
  // a Response takes an async iterable of bytes (undici's fetch does); the DOM typing lists only web streams
  const stream: AsyncIterable<Uint8Array> = res.body
  return new Response(stream as ReadableStream<Uint8Array>, { status: res.statusCode, headers })
}
