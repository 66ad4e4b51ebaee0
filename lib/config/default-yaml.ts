// config/default.yaml as the schema says it: every default (field-doc.ts defaultOf over the composed
// schema) with each key's note or English description as the comment above it. Written by
// `npm run config:defaults` (scripts/config-defaults.ts); tests/web/config-defaults.test.ts fails when
// the committed file differs from this text (lib/config/README.md, "config/default.yaml").
import { Document, isMap, isScalar, type Node } from 'yaml'
import { defaultOf } from './field-doc.js'
import { configSchema } from './schema.js'
import { CONFIG_DOCS } from './schema-text.js'

const WIDTH = 100

const HEADER = [
  '灵犀 lingxi-plugin: default configuration, generated from the configuration schema by',
  '`npm run config:defaults` (lib/config/README.md): do not edit it by hand, change the section in its',
  'domain\'s config.ts and run the command again. Your own settings go to config/config.yaml (or',
  '$LINGXI_DATA_DIR/config.yaml), which the dashboard and the API write for you; anything you set there',
  'overrides the value here.'
]

/** A comment's lines: each line of the text wrapped at WIDTH, except indented (example) lines kept as they are. */
function commentLines (text: string, indent: number): string[] {
  const width = Math.max(40, WIDTH - indent - 2)
  const out: string[] = []
  for (const line of text.split('\n')) {
    if (line.startsWith(' ')) { out.push(line); continue }
    let current = ''
    for (const word of line.split(' ')) {
      if (current && current.length + 1 + word.length > width) { out.push(current); current = word } else current = current ? `${current} ${word}` : word
    }
    out.push(current)
  }
  return out
}

function comment (path: string, indent: number): string | undefined {
  const d = CONFIG_DOCS.get(path)
  if (!d) return undefined
  const text = d.note ?? d.text[2] ?? d.text[0]
  return commentLines(text, indent).map((l) => ` ${l}`).join('\n')
}

/** Puts the comments above the keys of a mapping and of the mappings inside it. */
function annotate (node: Node, path: string, depth: number): void {
  if (!isMap(node)) return
  for (const pair of node.items) {
    if (!isScalar(pair.key)) continue
    const key = String(pair.key.value)
    const at = path ? `${path}.${key}` : key
    const text = comment(at, depth * 2)
    if (text !== undefined) pair.key.commentBefore = text
    if (depth === 0 && !isScalar(pair.value)) pair.key.spaceBefore = true // a blank line before each section
    if (isMap(pair.value)) annotate(pair.value, at, depth + 1)
  }
}

/** The text of config/default.yaml. */
export function defaultYaml (): string {
  const doc = new Document(defaultOf(configSchema))
  doc.commentBefore = HEADER.map((l) => ` ${l}`).join('\n')
  if (doc.contents) annotate(doc.contents, '', 0)
  return doc.toString({ lineWidth: 0, defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN' })
}
