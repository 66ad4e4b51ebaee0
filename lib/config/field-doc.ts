// How a domain documents a field of its configuration section (lib/config/README.md, "A domain's
// section"): beside the zod schema of the field, its titles and descriptions in English and Chinese
// (served in the JSON Schema, GET /api/config/schema), its default when zod holds none, and an optional
// longer note for config/default.yaml. Kept in a registry of this folder, so the schema itself and
// its JSON Schema stay exactly what zod makes of them.
import { z } from 'zod'

/** [title in English, title in Chinese, description in English, description in Chinese] */
export type FieldText = readonly [string, string, string?, string?]

/** What is known of one field besides its zod schema. */
export interface FieldDoc {
  readonly text: FieldText
  /** the default written to config/default.yaml when the schema holds none (a zod .default() or .prefault()) */
  readonly default?: unknown
  /** the comment above the key in config/default.yaml, when the English description is not enough */
  readonly note?: string
}

const docs = z.registry<FieldDoc>()

/** The documentation registered for exactly this schema object. */
export function docOf (schema: z.ZodType): FieldDoc | undefined {
  return docs.get(schema)
}

interface DocExtras<S extends z.ZodType> {
  /** the default when zod holds none: a field of a section filled from config/default.yaml */
  default?: z.input<S>
  note?: string
}

/**
 * Documents a field and returns the same schema. Each field gets its own schema object (a shared one
 * would carry one text to several places), and its default is declared once: in zod or here.
 */
export function doc<S extends z.ZodType> (schema: S, text: FieldText, extras: DocExtras<S> = {}): S {
  if (docs.has(schema)) throw new Error(`The configuration field "${text[0]}" shares its schema object with another documented field`)
  if (extras.default !== undefined && hasZodDefault(schema)) throw new Error(`The configuration field "${text[0]}" has its default in zod already`)
  docs.add(schema, { text, ...extras.default === undefined ? {} : { default: extras.default }, ...extras.note === undefined ? {} : { note: extras.note } })
  return schema
}

function hasZodDefault (schema: z.ZodType): boolean {
  return schema instanceof z.ZodDefault || schema instanceof z.ZodPrefault
}

/** The schema a wrapper (optional, nullable, readonly, default, prefault, a transform's input) holds. */
export function innerOf (schema: z.ZodType): z.ZodType | undefined {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodReadonly ||
    schema instanceof z.ZodDefault || schema instanceof z.ZodPrefault) return schema.unwrap() as z.ZodType
  if (schema instanceof z.ZodPipe) return schema.in as z.ZodType
  return undefined
}

/**
 * The default of a schema as config/default.yaml writes it: a documented default, else zod's own
 * (.default, .prefault), else for an object the defaults of its fields. Undefined when there is none
 * (an optional field: unset falls back to something else).
 */
export function defaultOf (schema: z.ZodType): unknown {
  const declared = docs.get(schema)?.default
  if (declared !== undefined) return declared
  if (hasZodDefault(schema)) {
    const r = schema.safeParse(undefined)
    return r.success ? plainCopy(r.data) : undefined
  }
  if (schema instanceof z.ZodOptional) return undefined
  if (schema instanceof z.ZodObject) {
    const out: Record<string, unknown> = {}
    for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
      const value = defaultOf(field)
      if (value !== undefined) out[key] = value
    }
    return out
  }
  const inner = innerOf(schema)
  return inner ? defaultOf(inner) : undefined
}

/**
 * The defaults of a section's fields, for its .prefault() (a section that may be left out of the
 * files and the API's input).
 */
export function sectionDefaults<S extends z.ZodObject> (schema: S): z.input<S> {
  return defaultOf(schema) as z.input<S>
}

function plainCopy (value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown
}
