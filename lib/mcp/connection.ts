// One live connection to an MCP server: builds the transport for its type, connects with a timeout,
// keeps the tool list and answers tool calls, resources and prompts.
import { StringDecoder } from 'node:string_decoder'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import type { ToolResult } from '../chat/contracts.js'
import type { Clock } from '../core/clock.js'
import { AppError, errorText } from '../core/errors.js'
import { redact } from '../core/redact.js'
import { requireCommand } from './command.js'
import { loadSdk, mcpOff, SdkMissing } from './sdk.js'
import type { McpToolInfo, ServerConfig } from './types.js'

const DEFAULT_TIMEOUT_MS = 30_000
// What is kept of a child's stderr (for error messages and the log) is bounded, however much it writes:
// the last STDERR_LINES lines, at most STDERR_KEEP_CHARS characters together; a line is cut at
// STDERR_LINE_CHARS (kept and logged once with a marker, the rest of it up to its newline dropped).
const STDERR_LINES = 20
const STDERR_LINE_CHARS = 2_000
const STDERR_KEEP_CHARS = 8_192
const CUT_MARK = ' …(line cut)'
/** One JSON-RPC message on a stdio server's stdout (the SDK's read buffer; past it the connection fails). */
const STDOUT_MESSAGE_BYTES = 16 * 1024 * 1024
/** How often the tool list of a server that does not announce its changes (`tools.listChanged`) is read again. */
export const TOOLS_REFRESH_MS = 5 * 60_000

export interface ConnectionOptions {
  clock: Clock
  clientVersion: string
  /** The connection closed without close() being called (process died, stream ended). */
  onUnexpectedClose: (reason: string) => void
  /** The tool list changed (the server said so, a periodic re-read or a new session found it different). */
  onToolsChanged: () => void
  /** A streamable-http server had lost our session (restarted): a new one was opened. */
  onSessionRenewed?: () => void
  /** Re-read interval of the tool list when the server does not announce changes; TOOLS_REFRESH_MS by default. */
  toolsRefreshMs?: number
  onStderr?: (line: string) => void
  /** The transport reported an error or a call failed without an answer from the server: the manager
   * checks the connection at once instead of at the next health check. */
  onTrouble?: (reason: string) => void
}

export type CallOptions = { signal?: AbortSignal }

// The client half of the SDK is loaded when the first server connects (in the background after
// start), so it never delays the plugin's start (bench/foundation.bench.ts); it may be missing (sdk.ts).
interface ClientSdk {
  Client: typeof import('@modelcontextprotocol/sdk/client/index.js').Client
  SSEClientTransport: typeof import('@modelcontextprotocol/sdk/client/sse.js').SSEClientTransport
  stdio: typeof import('@modelcontextprotocol/sdk/client/stdio.js')
  StreamableHTTPClientTransport: typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js').StreamableHTTPClientTransport
  StreamableHTTPError: typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js').StreamableHTTPError
  types: typeof import('@modelcontextprotocol/sdk/types.js')
}
let loadedSdk: ClientSdk | undefined
let loadingSdk: Promise<ClientSdk> | undefined
function loadClientSdk (): Promise<ClientSdk> {
  const off = mcpOff() // checked on every connect, not only on the first load
  if (off) return Promise.reject(new SdkMissing(off))
  return (loadingSdk ??= loadSdk(() => Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js')
  ])).then(
    ([a, b, stdio, c, types]) => (loadedSdk = { Client: a.Client, SSEClientTransport: b.SSEClientTransport, stdio, StreamableHTTPClientTransport: c.StreamableHTTPClientTransport, StreamableHTTPError: c.StreamableHTTPError, types }),
    (err: unknown) => { loadingSdk = undefined; throw err } // tried again on the next connect
  ))
}

/** An McpError with one of `codes` (only possible once the SDK is loaded). */
function isMcpError (err: unknown, ...codes: number[]): err is Error & { code: number } {
  return loadedSdk !== undefined && err instanceof loadedSdk.types.McpError && codes.includes(err.code)
}

function mapError (err: unknown, what: string): AppError {
  if (err instanceof AppError) return err
  if (loadedSdk && isMcpError(err, loadedSdk.types.ErrorCode.RequestTimeout)) return new AppError('TIMEOUT', `${what} timed out`, { cause: err })
  return new AppError('CONNECTION_FAILED', `${what} failed: ${errorText(err)}`, { cause: err })
}

export class McpConnection {
  client?: Client
  private transport?: Transport
  tools: McpToolInfo[] = []
  serverInfo?: { name: string; version: string }
  private closing = false
  /** Why the manager gave this connection up (dead server); calls still waiting fail with it. */
  private lost?: string
  private readonly stderr: string[] = []
  private stderrChars = 0
  private refreshTimer?: NodeJS.Timeout
  private refreshing = false
  /** A new session being opened (shared by the requests that found the old one gone). */
  private renewing?: Promise<void>

  constructor (readonly name: string, readonly config: ServerConfig, private readonly opts: ConnectionOptions) {}

  get timeoutMs (): number { return this.config.timeoutMs ?? DEFAULT_TIMEOUT_MS }

  /** The child's process id (stdio, npm, npx), for diagnostics. */
  get pid (): number | undefined {
    return loadedSdk && this.transport instanceof loadedSdk.stdio.StdioClientTransport ? (this.transport.pid ?? undefined) : undefined
  }

  /** The last lines the child process wrote to stderr (for error messages), redacted again (a secret may be newer). */
  stderrTail (): string { return redact(this.stderr.slice(-5).join('\n')) }

  /** Keeps one stderr line within the limits above, and logs it. */
  private keepStderr (raw: string): void {
    if (!raw.trim()) return
    // A child may print its env (API keys): masked before it is kept, logged or put in an error.
    const line = redact(raw)
    this.stderr.push(line)
    this.stderrChars += line.length
    while (this.stderr.length > 1 && (this.stderr.length > STDERR_LINES || this.stderrChars > STDERR_KEEP_CHARS)) {
      this.stderrChars -= this.stderr.shift()?.length ?? 0
    }
    this.opts.onStderr?.(line)
  }

  private buildTransport ({ stdio: { getDefaultEnvironment, StdioClientTransport }, SSEClientTransport, StreamableHTTPClientTransport }: ClientSdk): Transport {
    const c = this.config
    switch (c.type) {
      case 'stdio':
      case 'npm':
      case 'npx': {
        const env = { ...getDefaultEnvironment(), ...(c.env ?? {}) }
        const command = c.type === 'stdio' ? c.command : 'npx'
        requireCommand(command, { ...process.env, ...env })
        const args = c.type === 'stdio' ? (c.args ?? []) : ['-y', c.package, ...(c.args ?? [])]
        const t = new StdioClientTransport({ command, args, env, stderr: 'pipe', maxBufferSize: STDOUT_MESSAGE_BYTES, ...(c.type === 'stdio' && c.cwd ? { cwd: c.cwd } : {}) })
        // The line being written: never longer than STDERR_LINE_CHARS (an endless line is cut there).
        let partial = ''
        let cut = false
        const decoder = new StringDecoder('utf8')
        t.stderr?.on('data', (chunk: Buffer) => {
          const pieces = decoder.write(chunk).split('\n')
          pieces.forEach((piece, i) => {
            if (!cut && partial.length + piece.length > STDERR_LINE_CHARS) {
              cut = true
              this.keepStderr(partial + piece.slice(0, STDERR_LINE_CHARS - partial.length) + CUT_MARK)
              partial = ''
            } else if (!cut) partial += piece
            if (i < pieces.length - 1) { // a newline ends the line
              if (!cut) this.keepStderr(partial)
              partial = ''
              cut = false
            }
          })
        })
        return t
      }
      case 'sse': {
        const headers = c.headers ?? {}
        return new SSEClientTransport(new URL(c.url), {
          requestInit: { headers },
          // The SSE stream GET uses its own fetch; send the headers there too.
          eventSourceInit: { fetch: (u, init) => fetch(u, { ...init, headers: { ...(init?.headers as Record<string, string> | undefined), ...headers } }) }
        })
      }
      case 'http':
      case 'streamable-http':
        return new StreamableHTTPClientTransport(new URL(c.url), { requestInit: { headers: c.headers ?? {} } })
    }
  }

  /** Connects and reads the tool list; rejects with CONNECTION_FAILED or TIMEOUT. */
  async open (): Promise<void> {
    const sdk = await loadClientSdk()
    try {
      this.tools = await this.connectClient(sdk)
    } catch (err) {
      await this.close()
      const tail = this.stderrTail()
      const e = mapError(err, `Connecting to ${this.name}`)
      throw tail && e.code === 'CONNECTION_FAILED' ? new AppError(e.code, `${e.message} (stderr: ${tail})`) : e
    }
    this.startRefresh()
  }

  /**
   * A new client and transport, connected (initialize) within the time-out; answers the tool list. A
   * replaced client's callbacks do nothing (closing it after a new session must not look like a death).
   */
  private async connectClient (sdk: ClientSdk): Promise<McpToolInfo[]> {
    // closed while a new session was on its way: no client may outlive close()
    if (this.closing) throw new AppError('CONNECTION_FAILED', `The connection to ${this.name} was closed`)
    const client: Client = new sdk.Client({ name: 'lingxi-plugin', version: this.opts.clientVersion }, {
      capabilities: {},
      listChanged: {
        tools: {
          onChanged: (err, tools) => {
            if (err || !tools || this.client !== client) return
            this.tools = tools.map(toInfo)
            this.opts.onToolsChanged()
          }
        }
      }
    })
    const transport = this.buildTransport(sdk)
    this.client = client
    this.transport = transport
    let timer: NodeJS.Timeout | undefined
    const guard = new Promise<never>((_resolve, reject) => {
      timer = this.opts.clock.setTimeout(() => reject(new AppError('TIMEOUT', `Connecting to ${this.name} timed out after ${this.timeoutMs} ms`)), this.timeoutMs)
    })
    let tools: McpToolInfo[]
    try {
      tools = await Promise.race([(async () => {
        await client.connect(transport, { timeout: this.timeoutMs })
        const v = client.getServerVersion()
        if (v) this.serverInfo = { name: v.name, version: v.version }
        return client.getServerCapabilities()?.tools ? await this.fetchTools(client) : []
      })(), guard])
    } finally {
      if (timer) this.opts.clock.clearTimeout(timer)
    }
    client.onclose = () => { if (!this.closing && this.client === client) this.opts.onUnexpectedClose(this.stderrTail() || 'connection closed') }
    client.onerror = (err) => {
      // a lost session is renewed by the request that met it (inSession)
      if (!this.closing && this.client === client && !this.sessionLost(err)) this.opts.onTrouble?.(`transport error: ${errorText(err)}`)
    }
    return tools
  }

  /**
   * A server that does not announce tool list changes (FastMCP and others leave out `tools.listChanged`)
   * has its list read again periodically, so a tool it adds appears without a reconnect.
   */
  private startRefresh (): void {
    const caps = this.client?.getServerCapabilities()
    if (!caps?.tools || caps.tools.listChanged || this.refreshTimer || this.closing) return
    this.refreshTimer = this.opts.clock.setInterval(() => { void this.refreshQuietly() }, this.opts.toolsRefreshMs ?? TOOLS_REFRESH_MS)
    this.refreshTimer.unref?.()
  }

  private stopRefresh (): void {
    if (this.refreshTimer) this.opts.clock.clearInterval(this.refreshTimer)
    this.refreshTimer = undefined
  }

  private async refreshQuietly (): Promise<void> {
    if (this.refreshing || !this.client) return
    this.refreshing = true
    try {
      this.setTools(await this.inSession((c) => this.fetchTools(c)))
    } catch { /* whether the server is still there is the health check's question */ } finally {
      this.refreshing = false
    }
  }

  /** Takes a newly read tool list; the manager is told only when it differs. */
  private setTools (tools: McpToolInfo[]): void {
    if (JSON.stringify(tools) === JSON.stringify(this.tools)) return
    this.tools = tools
    this.opts.onToolsChanged()
  }

  /** The server answered that it does not know our session (streamable HTTP: 404, e.g. after a restart). */
  private sessionLost (err: unknown): boolean {
    if (this.config.type !== 'http' && this.config.type !== 'streamable-http') return false
    if (!loadedSdk || !(err instanceof loadedSdk.StreamableHTTPError)) return false
    // 404 is the spec's answer; some servers answer 400 naming the session
    return err.code === 404 || (err.code === 400 && /session/i.test(err.message))
  }

  /**
   * Runs a request; when the server lost our session, opens a new one (initialize, the tool list read
   * again) and runs it once more. A second failure is the request's error.
   */
  private async inSession<T> (fn: (client: Client) => Promise<T>): Promise<T> {
    const client = this.req()
    try {
      return await fn(client)
    } catch (err) {
      if (!this.sessionLost(err) || this.closing || this.lost) throw err
      // another request may be opening the new session, or have opened it already
      await (this.client === client ? this.renewSession() : this.renewing)
      return await fn(this.req())
    }
  }

  private renewSession (): Promise<void> {
    this.renewing ??= (async () => {
      const old = this.client
      try {
        const tools = await this.connectClient(await loadClientSdk())
        this.opts.onSessionRenewed?.()
        this.setTools(tools)
        this.stopRefresh()
        this.startRefresh()
      } catch (err) {
        // the server is not answering as before: the manager checks the connection
        this.opts.onTrouble?.(`opening a new session failed: ${errorText(err)}`)
        throw mapError(err, `Opening a new session with ${this.name}`)
      } finally {
        this.renewing = undefined
        // its session is gone either way; its callbacks no longer count (connectClient)
        void old?.close().catch(() => undefined)
      }
    })()
    return this.renewing
  }

  /** The server is gone (the manager's check failed): closes the connection, so calls waiting on it fail now. */
  async abandon (reason: string): Promise<void> {
    this.lost ??= reason
    await this.close()
  }

  private async fetchTools (client: Client): Promise<McpToolInfo[]> {
    const out: McpToolInfo[] = []
    let cursor: string | undefined
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: this.timeoutMs })
      out.push(...page.tools.map(toInfo))
      cursor = page.nextCursor
    } while (cursor && out.length < 10_000)
    return out
  }

  private req (): Client {
    if (!this.client) throw new AppError('CONNECTION_FAILED', `Server ${this.name} is not connected`)
    return this.client
  }

  async refreshTools (): Promise<void> {
    this.tools = await this.inSession((c) => this.fetchTools(c))
  }

  async ping (timeoutMs: number): Promise<void> {
    await this.inSession((c) => c.ping({ timeout: timeoutMs }))
  }

  async callTool (tool: string, args: Record<string, unknown>, opts: CallOptions = {}): Promise<ToolResult> {
    try {
      const r = await this.inSession((c) => c.callTool({ name: tool, arguments: args }, undefined, { timeout: this.timeoutMs, ...(opts.signal ? { signal: opts.signal } : {}) }))
      return toToolResult(r)
    } catch (err) {
      if (this.lost) throw new AppError('CONNECTION_FAILED', `MCP server ${this.name} was lost during the call of ${tool}: ${this.lost}`, { cause: err })
      // no answer from the server (closed stream, network error, time-out): is it still there?
      if (!isAnswered(err)) this.opts.onTrouble?.(`call of ${tool} failed: ${errorText(err)}`)
      throw mapError(err, `Tool ${tool} on ${this.name}`)
    }
  }

  async listResources (): Promise<unknown[]> {
    if (!this.client?.getServerCapabilities()?.resources) return []
    const out: unknown[] = []
    let cursor: string | undefined
    do {
      const page = await this.inSession((c) => c.listResources(cursor ? { cursor } : undefined, { timeout: this.timeoutMs }))
      out.push(...page.resources)
      cursor = page.nextCursor
    } while (cursor && out.length < 10_000)
    return out
  }

  async listResourceTemplates (): Promise<unknown[]> {
    if (!this.client?.getServerCapabilities()?.resources) return []
    const out: unknown[] = []
    let cursor: string | undefined
    do {
      const page = await this.inSession((c) => c.listResourceTemplates(cursor ? { cursor } : undefined, { timeout: this.timeoutMs }))
      out.push(...page.resourceTemplates)
      cursor = page.nextCursor
    } while (cursor && out.length < 10_000)
    return out
  }

  async readResource (uri: string): Promise<unknown> {
    try {
      return await this.inSession((c) => c.readResource({ uri }, { timeout: this.timeoutMs }))
    } catch (err) {
      throw mcpRequestError(err, `Reading ${uri}`)
    }
  }

  async listPrompts (): Promise<unknown[]> {
    if (!this.client?.getServerCapabilities()?.prompts) return []
    const out: unknown[] = []
    let cursor: string | undefined
    do {
      const page = await this.inSession((c) => c.listPrompts(cursor ? { cursor } : undefined, { timeout: this.timeoutMs }))
      out.push(...page.prompts)
      cursor = page.nextCursor
    } while (cursor && out.length < 10_000)
    return out
  }

  async getPrompt (name: string, args: Record<string, string>): Promise<unknown> {
    try {
      return await this.inSession((c) => c.getPrompt({ name, arguments: args }, { timeout: this.timeoutMs }))
    } catch (err) {
      throw mcpRequestError(err, `Prompt ${name}`)
    }
  }

  /** Closes the client; for stdio servers this ends the child process. */
  async close (): Promise<void> {
    this.closing = true
    this.stopRefresh()
    const c = this.client
    this.client = undefined
    this.transport = undefined
    if (c) {
      try { await c.close() } catch { /* already closed */ }
    }
  }
}

/** An error the server answered (a JSON-RPC error object), as opposed to a failed transport. */
function isAnswered (err: unknown): boolean {
  if (!loadedSdk) return false
  const E = loadedSdk.types.ErrorCode
  return isMcpError(err, E.InvalidParams, E.InvalidRequest, E.MethodNotFound, E.InternalError, E.ParseError)
}

/** Errors the server answered (bad uri, unknown prompt) are the caller's fault: 400, not 502. */
function mcpRequestError (err: unknown, what: string): AppError {
  if (loadedSdk && isMcpError(err, loadedSdk.types.ErrorCode.InvalidParams, loadedSdk.types.ErrorCode.InvalidRequest, loadedSdk.types.ErrorCode.MethodNotFound)) {
    return new AppError('INVALID_ARGS', `${what}: ${err.message}`, { cause: err })
  }
  return mapError(err, what)
}

function toInfo (t: Tool): McpToolInfo {
  return { name: t.name, description: t.description ?? '', inputSchema: t.inputSchema as Record<string, unknown> }
}

type RawContent = { type: string; text?: string; data?: string; mimeType?: string; resource?: { uri?: string; text?: string }; uri?: string }

/** MCP call results as the registry's ToolResult: text and images kept, other content as text. */
export function toToolResult (r: unknown): ToolResult {
  const res = r as { content?: RawContent[]; isError?: boolean; structuredContent?: unknown; toolResult?: unknown }
  const content: ToolResult['content'] = []
  for (const c of res.content ?? []) {
    if (c.type === 'text') content.push({ type: 'text', text: c.text ?? '' })
    else if (c.type === 'image' && c.data && c.mimeType) content.push({ type: 'image', data: c.data, mimeType: c.mimeType })
    else if (c.type === 'resource' && typeof c.resource?.text === 'string') content.push({ type: 'text', text: c.resource.text })
    else if (c.type === 'resource_link') content.push({ type: 'text', text: `resource: ${c.uri ?? ''}` })
    else content.push({ type: 'text', text: JSON.stringify(c) })
  }
  if (content.length === 0 && res.structuredContent !== undefined) content.push({ type: 'text', text: JSON.stringify(res.structuredContent) })
  if (content.length === 0 && res.toolResult !== undefined) content.push({ type: 'text', text: JSON.stringify(res.toolResult) })
  return { content, isError: res.isError === true }
}
