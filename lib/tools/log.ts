// Tool execution log (what `/api/tools/logs` answers, with `groupId`): an in-memory ring buffer. Variant A's `tool` alias
// of `toolName` is added by the route that answers it (routes/tools.ts GET /api/tools/logs).
import type { ToolResult } from '../chat/contracts.js'

export interface ToolLogEntry {
  id: string
  toolName: string
  args: Record<string, unknown>
  result: ToolResult | { error: string }
  status: 'success' | 'error'
  duration: number
  userId: string
  groupId?: string
  /** ISO string. */
  timestamp: string
}

export interface ToolLogQuery { toolName?: string; userId?: string; status?: 'success' | 'error'; limit?: number; offset?: number }

export class ToolLog {
  private buf: ToolLogEntry[] = []
  private start = 0
  constructor (private readonly capacity = 1000) {}

  push (e: ToolLogEntry): void {
    if (this.buf.length < this.capacity) { this.buf.push(e); return }
    this.buf[this.start] = e
    this.start = (this.start + 1) % this.capacity
  }

  /** Newest first. */
  all (): ToolLogEntry[] {
    const ordered = [...this.buf.slice(this.start), ...this.buf.slice(0, this.start)]
    return ordered.reverse()
  }

  query (q: ToolLogQuery): { logs: ToolLogEntry[]; total: number } {
    const hits = this.all().filter((e) => (!q.toolName || e.toolName === q.toolName) &&
      (!q.userId || e.userId === q.userId) && (!q.status || e.status === q.status))
    const offset = q.offset ?? 0
    return { logs: hits.slice(offset, offset + (q.limit ?? 50)), total: hits.length }
  }

  clear (): number { const n = this.buf.length; this.buf = []; this.start = 0; return n }
  get size (): number { return this.buf.length }
}
