// One live answer against the OpenAPI document (GET /api/openapi.json): its status must be one the operation
// lists, its media type one that status names, and its body must fit that media type's schema (JSON Schema
// 2020-12 through ajv; `#/components/...` references resolve against the document registered as `doc.json`).
// A status the document answers without a body (204, the MCP endpoint's 202) must come without one.
// Shared by openapi-live.test.ts (every GET) and openapi-coverage.test.ts (the answers without data).
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js'
import type { OpenApiDocument } from '../../routes/_http/openapi.js'

type Json = Record<string, unknown>
export type Operation = { responses: Record<string, { description?: string; content?: Record<string, { schema?: Json }> }>; 'x-envelope': string; parameters?: Array<{ name: string; in: string; required?: boolean }> }
export interface LiveAnswer { status: number; headers: Headers; body: unknown; text: string }

/** A response schema whose `#/components/...` references resolve against the document. */
function resolvable (schema: Json): Json {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc.json#/components/')) as Json
}

/** A validator of live answers against `doc` (string formats are not checked: ajv-formats would be one more package). */
export function answerChecker (doc: OpenApiDocument): (op: Operation, label: string, r: LiveAnswer) => string[] {
  // OpenAPI keywords (x-envelope...) are not JSON Schema's: not strict
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false })
  ajv.addSchema({ $id: 'doc.json', components: doc.components })
  return (op, label, r) => {
    const answer = op.responses[String(r.status)]
    if (!answer) return [`${label}: status ${r.status} is not in the document (${r.text.slice(0, 200)})`]
    if (!answer.content) return r.text === '' ? [] : [`${label}: the document gives status ${r.status} no body, the answer has one (${r.text.slice(0, 200)})`]
    const type = (r.headers.get('content-type') ?? '').split(';')[0]!
    const media = answer.content[type]
    if (!media) return [`${label}: content type ${type} is not in the document (${Object.keys(answer.content).join(', ')})`]
    let value: unknown
    if (type.endsWith('json')) value = r.body
    else if (type === 'text/plain') value = r.text
    else return [] // a YAML file or a stream: its type is what the document says
    const validate = ajv.compile(resolvable(media.schema ?? {}))
    return validate(value) ? [] : [`${label}: ${ajv.errorsText(validate.errors as ErrorObject[], { dataVar: 'body' })}`]
  }
}
