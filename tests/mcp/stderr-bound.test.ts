// A stdio MCP server that writes one endless stderr line and never answers (a real child process):
// what the connection keeps of its stderr stays bounded, and connecting fails cleanly on the time-out
// (lib/mcp/connection.ts; README Security model, servers that send without end).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import { systemClock } from '../../lib/core/clock.js'
import { AppError } from '../../lib/core/errors.js'
import { McpConnection } from '../../lib/mcp/connection.js'

// Writes 64 KiB of 'x' (no newline) whenever stderr can take more, until killed; reads stdin, answers nothing.
// fs.writeSync on fd 2: a pipe that is full (EAGAIN) or short of kernel buffers (ENOBUFS, seen on a loaded
// machine) throws, and the writer tries again a moment later instead of crashing (which would end the
// connection early and test nothing).
const ENDLESS_STDERR = `
const { writeSync } = require('node:fs')
const block = Buffer.alloc(65536, 'x')
const more = () => {
  try { for (let i = 0; i < 128; i++) writeSync(2, block) } catch { /* full for now */ }
  setTimeout(more, 1)
}
process.stdin.resume()
more()
`

const alive = (pid: number): boolean => { try { process.kill(pid, 0); return true } catch { return false } }

describe('MCP stdio server with an endless stderr line', function () {
  this.timeout(30_000)
  let dir: string
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'lx-mcp-stderr-'))
    writeFileSync(join(dir, 'endless-stderr.cjs'), ENDLESS_STDERR)
  })
  after(() => { rmSync(dir, { recursive: true, force: true }) })

  it('keeps a bounded stderr tail (the line cut once) and the connect times out, the child ended', async () => {
    const lines: string[] = []
    const conn = new McpConnection('endless', { type: 'stdio', command: process.execPath, args: [join(dir, 'endless-stderr.cjs')], timeoutMs: 2_500 }, {
      clock: systemClock,
      clientVersion: 'test',
      onUnexpectedClose: () => undefined,
      onToolsChanged: () => undefined,
      onStderr: (line) => { lines.push(line) }
    })
    let pid: number | undefined
    // the child's pid once it runs (for the check that close() ended it)
    const watch = setInterval(() => { pid ??= conn.pid }, 20)
    const started = Date.now()
    let failed: unknown
    try { await conn.open() } catch (err) { failed = err } finally { clearInterval(watch) }
    expect(failed).to.be.instanceOf(AppError)
    expect((failed as AppError).code, (failed as Error).message).to.equal('TIMEOUT')
    expect((failed as AppError).message.length).to.be.below(1_000)
    expect(Date.now() - started).to.be.below(10_000)
    // many MiB were written as one line: it was kept (and logged) once, cut at 2,000 characters
    expect(lines).to.have.length(1)
    expect(lines[0]).to.match(/^x{2000} …\(line cut\)$/)
    const tail = conn.stderrTail()
    expect(tail.length).to.be.at.most(8_192)
    expect(tail).to.include('(line cut)')
    expect(conn.pid).to.equal(undefined)
    if (pid !== undefined) {
      const end = Date.now() + 5_000
      while (alive(pid) && Date.now() < end) await new Promise<void>((resolve) => setImmediate(resolve))
      expect(alive(pid), 'the child process was ended').to.equal(false)
    }
  })
})
