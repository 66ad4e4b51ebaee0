// Reading and atomically writing YAML documents, keeping the user's comments (yaml's Document API).
import { mkdir } from 'node:fs/promises'
import { basename, dirname } from 'node:path'
import { Document, parseDocument, isMap, isSeq, type YAMLMap } from 'yaml'
import { AppError, errorText, type FieldError } from '../core/errors.js'
import { readPrivateFileSync, writePrivateFile } from '../core/private-file.js'
import { isPlainObject, type PlainObject } from './object-paths.js'

// YAML a client sends (config import, preset import) is read only through parseClientYaml, the one rule:
// at most CLIENT_YAML_MAX_BYTES of text (413 PAYLOAD_TOO_LARGE, whatever web.bodyLimitKb allows) and at
// most YAML_MAX_ALIASES alias expansions (the yaml package's maxAliasCount), so an alias bomb ("billion
// laughs") is a 400 PARSE_ERROR, never a 500 or a frozen process.
const CLIENT_YAML_MAX_BYTES = 512 * 1024
const YAML_MAX_ALIASES = 100

/** Parses YAML text; throws PARSE_ERROR with line and column on a syntax error. */
export function parseYaml (text: string, what = 'YAML'): Document {
  let doc: Document
  try {
    doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true })
  } catch (err) { // a stack overflow on absurd nesting and the like: still the text's fault
    throw new AppError('PARSE_ERROR', `${what} could not be parsed: ${firstLine(err)}`)
  }
  if (doc.errors.length) {
    const errors: FieldError[] = doc.errors.map((e) => ({ path: e.linePos ? `line ${e.linePos[0].line}:${e.linePos[0].col}` : '', message: e.message.split('\n')[0] ?? e.message }))
    throw new AppError('PARSE_ERROR', `${what} could not be parsed: ${errors[0]?.message ?? 'syntax error'}`, { errors })
  }
  return doc
}

function firstLine (err: unknown): string {
  const m = errorText(err)
  return (m.split('\n')[0] ?? m).slice(0, 200)
}

/** The document's value with the alias limit; an excessive alias count (or any failure) is a PARSE_ERROR. */
function docValue (doc: Document, what: string): unknown {
  try {
    return doc.toJS({ maxAliasCount: YAML_MAX_ALIASES })
  } catch (err) {
    throw new AppError('PARSE_ERROR', `${what} could not be parsed: ${firstLine(err)}`)
  }
}

export function docToObject (doc: Document, what = 'YAML'): PlainObject {
  return toMapping(docValue(doc, what), what)
}

/** A parsed YAML value that must be a mapping (empty text: `{}`); otherwise PARSE_ERROR. */
export function toMapping (value: unknown, what = 'YAML'): PlainObject {
  if (value === null || value === undefined) return {}
  if (!isPlainObject(value)) throw new AppError('PARSE_ERROR', `${what} must be a mapping of keys to values`)
  return value
}

/**
 * YAML text from a client, as a plain value: too long is PAYLOAD_TOO_LARGE (413), anything that does
 * not parse (syntax, too many aliases, absurd nesting) PARSE_ERROR (400). Never throws anything else.
 */
export function parseClientYaml (text: string, what = 'YAML'): unknown {
  const bytes = Buffer.byteLength(text, 'utf8')
  if (bytes > CLIENT_YAML_MAX_BYTES) {
    throw new AppError('PAYLOAD_TOO_LARGE', `${what} is too large: ${Math.ceil(bytes / 1024)} KiB, at most ${CLIENT_YAML_MAX_BYTES / 1024} KiB`)
  }
  return docValue(parseYaml(text, what), what)
}

/** Reads a YAML file; a symlink in its place is refused (thrown like a parse error: the caller runs on defaults). */
export function readYamlFile (file: string): { doc: Document; text: string } | undefined {
  const buf = readPrivateFileSync(file)
  if (buf === undefined) return undefined
  const text = buf.toString('utf8')
  return { doc: parseYaml(text, basename(file)), text }
}

let writeChain: Promise<void> = Promise.resolve()

/**
 * Writes through a temp file and rename, one write at a time, so a crash never leaves half a file; the
 * file is private (0600) and a planted temp file or symlink is never written through
 * (lib/core/private-file.ts; leftover temp files are removed at start).
 */
export function writeFileAtomic (file: string, text: string): Promise<void> {
  const run = async (): Promise<void> => {
    await mkdir(dirname(file), { recursive: true })
    await writePrivateFile(file, text)
  }
  const next = writeChain.then(run, run)
  writeChain = next.catch(() => {})
  return next
}

/** Sets `value` at `path` in the document, creating maps on the way; keeps comments around it. */
export function setInDoc (doc: Document, path: string[], value: unknown): void {
  if (value === undefined || value === null) {
    // nothing to remove when the user's file never set it (deleteIn throws on a missing parent)
    if (doc.hasIn(path)) { doc.deleteIn(path); pruneEmptyMaps(doc, path.slice(0, -1)) }
    return
  }
  if (!isMap(doc.contents) && !isSeq(doc.contents)) doc.contents = doc.createNode({}) as YAMLMap
  doc.setIn(path, doc.createNode(value))
}

function pruneEmptyMaps (doc: Document, path: string[]): void {
  for (let p = path; p.length > 0; p = p.slice(0, -1)) {
    const node = doc.getIn(p, true)
    if (isMap(node) && node.items.length === 0) doc.deleteIn(p)
    else break
  }
}
