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
// The answer to a request that asks for it whole (a chat completion without `stream`, marked by
// lib/channels/request-body.ts) is read here and handed over as bytes (WholeResponse): the client reads
// such an answer whole anyway (response.json()), and a Response over a stream cost ~20 µs more per call
// (a web stream over the Node stream, its reader, the copies) on the chat turn's busiest thread.
// Deciding by the request, not by the answer's Content-Type, keeps a stream a stream whatever a relay
// labels it.
// No answer is read past MAX_ANSWER_BYTES (whole, streamed, or an error's body): a relay that sends
// without end is broken or hostile, and reading on would cost the bot its memory (README, Security model).
// undici is loaded with the first request (lib/core/packages.ts: a package that may be missing is never
// imported at start); without it a request fails with the text naming the package and its install.
import type { Dispatcher } from 'undici'
import { importOptional } from '../core/packages.js'
import { asksWholeAnswer } from './request-body.js'

const NO_BODY = new Set([204, 205, 304])

/** The most bytes read of one answer. A chat completion is a few MiB at the most (a long answer streamed with its tool calls and reasoning). */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024

/** An answer larger than MAX_ANSWER_BYTES: its reading stopped there and the connection was closed. */
export class AnswerTooLarge extends Error {
  constructor () { super(`the answer is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB; it was not read further`) }
}

type AnswerBody = Dispatcher.ResponseData['body']

/** The whole body, refused once it passes the limit (at once when its Content-Length says it will). */
async function readWhole (body: AnswerBody, declared: number): Promise<Uint8Array> {
  // undici never reads past a Content-Length, so a declared length within the limit bounds the read
  if (declared <= MAX_ANSWER_BYTES) return await body.bytes()
  if (Number.isFinite(declared)) { body.destroy(); throw new AnswerTooLarge() }
  const chunks: Buffer[] = []
  let n = 0
  for await (const c of capped(body as AsyncIterable<Buffer>)) { chunks.push(c); n += c.length }
  return Buffer.concat(chunks, n)
}

/**
 * A body's chunks as they come (undici's Node stream or a web stream), ended with AnswerTooLarge past the
 * limit; leaving the loop closes the body (a Node stream is destroyed, a web stream cancelled).
 */
async function * capped<C extends Uint8Array> (body: AsyncIterable<C>): AsyncGenerator<C> {
  let n = 0
  for await (const c of body) {
    n += c.length
    if (n > MAX_ANSWER_BYTES) throw new AnswerTooLarge()
    yield c
  }
}

type Undici = typeof import('undici')
let undici: Undici | undefined
let loadingUndici: Promise<Undici> | undefined
/** undici, loaded once; a failed load is tried again on the next request (installed meanwhile). */
export function loadUndici (): Promise<Undici> {
  return (loadingUndici ??= importOptional('undici', () => import('undici')).then(
    (m) => (undici = m),
    (err: unknown) => { loadingUndici = undefined; throw err }
  ))
}

// one pool of connections for every channel, like the global fetch's (idle connections close by themselves)
let dispatcher: Dispatcher | undefined
const redirecting = ({ Agent, interceptors }: Undici): Dispatcher => (dispatcher ??= new Agent().compose(interceptors.redirect({ maxRedirections: 20 })))

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
  if (!bytes || !(typeof input === 'string' || input instanceof URL)) return limited(await fetch(input, init))
  const u = undici ?? await loadUndici()
  const res = await u.request(input, {
    method: (init.method ?? 'GET').toUpperCase() as Dispatcher.HttpMethod,
    headers: headerList(init.headers),
    body,
    ...(init.signal ? { signal: init.signal } : {}),
    dispatcher: redirecting(u)
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
  if (asksWholeAnswer(body)) {
    const length = res.headers['content-length']
    return new WholeResponse(await readWhole(res.body, typeof length === 'string' ? Number(length) : Infinity), { status: res.statusCode, headers })
  }
  // a Response takes an async iterable of bytes (undici's fetch does); the DOM typing lists only web streams
  const stream: AsyncIterable<Uint8Array> = capped(res.body as AsyncIterable<Buffer>)
  return new Response(stream as ReadableStream<Uint8Array>, { status: res.statusCode, headers })
}

/** The global fetch's answer, its body read no further than MAX_ANSWER_BYTES. */
function limited (res: Response): Response {
  if (!res.body) return res
  const body: AsyncIterable<Uint8Array> = capped(res.body)
  return new Response(body as ReadableStream<Uint8Array>, { status: res.status, statusText: res.statusText, headers: res.headers })
}

/**
 * A Response whose body was read already: its body methods read those bytes (once, as any body), its
 * `body` stream is null. Only the openai client sees it, and for an answer it reads whole it calls
 * json() or text() (an error status), nothing else.
 */
class WholeResponse extends Response {
  readonly #bytes: Uint8Array
  #read = false
  constructor (bytes: Uint8Array, init: ResponseInit) {
    super(null, init)
    this.#bytes = bytes
  }

  override get bodyUsed (): boolean { return this.#read }

  #take (): Uint8Array {
    if (this.#read) throw new TypeError('Body is unusable: Body has already been read')
    this.#read = true
    return this.#bytes
  }

  #decoded (): string {
    const b = this.#take()
    const s = Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8')
    return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s // UTF-8 decode drops a byte order mark, as fetch's does
  }

  override async text (): Promise<string> { return this.#decoded() }
  override async json (): Promise<unknown> { return JSON.parse(this.#decoded()) }
  override async bytes (): Promise<Uint8Array<ArrayBuffer>> { return new Uint8Array(this.#take()) }
  override async arrayBuffer (): Promise<ArrayBuffer> { return (await this.bytes()).buffer }
  override async blob (): Promise<Blob> { return new Blob([await this.bytes()], { type: this.headers.get('content-type') ?? '' }) }
}
