// The configuration: committed defaults (config/default.yaml) plus the user's file, validated by one
// schema, written atomically with the user's comments kept. Other domains read it through get(); each
// writes only its own section through writer(section).update(...) (typed); update() (whole config,
// typed) and applyInput() (untyped client input) are for the generic config routes and tests. Every
// change is published on the event bus. With PostgreSQL the shared part lives in one record every
// instance follows (share(), shared.ts); the local sections (local-keys.ts) stay in config.yaml.
import { existsSync } from 'node:fs'
import { rename } from 'node:fs/promises'
import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { Document } from 'yaml'
import { own, protoKeyPath } from '../core/dict.js'
import { AppError, type FieldError } from '../core/errors.js'
import type { EventBus } from '../core/event-bus.js'
import type { PluginLogger } from '../core/logger.js'
import { deepMerge, getPath, isPlainObject, leafPaths, objectAt, sameJson, type PlainObject } from './object-paths.js'
import { configSchema, SECTIONS, type Config, type ConfigInput, type SectionName } from './schema.js'
import { isLocalPath, LOCAL_SECTIONS, onlyLocal, withoutLocal } from './local-keys.js'
import { keepMaskedSecrets, maskSecrets } from './secrets.js'
import { SHARED_CONFIG_KEY, type SharedConfigStore } from './shared.js'
import { docToObject, parseClientYaml, parseYaml, readYamlFile, setInDoc, toMapping, writeFileAtomic } from './yaml-file.js'

export interface ConfigServiceOptions {
  defaultFile: string
  userFile: string
  bus?: EventBus
  log?: PluginLogger
  now?: () => number
}

export interface UpdateResult { updated: string[] }

/**
 * A rule of another domain over a configuration about to be written (e.g. a group's preset must exist):
 * the errors it finds, with their dotted paths. `prev` is the configuration in force, so a rule can
 * look only at what changes.
 */
export type ConfigCheck = (next: Config, prev: Config) => FieldError[]

/**
 * A nested partial of a configuration value as written: any key may be left out, `null` removes the
 * user's override (the default applies again); arrays and scalars are replaced whole.
 */
type DeepPartial<T> = T extends readonly unknown[] ? T : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> | null } : T

/** A write to the whole configuration (keys as the schema takes them: defaulted ones may be left out). */
export type ConfigPatch = DeepPartial<ConfigInput>
/** A write to one section. */
export type SectionPatch<K extends SectionName> = DeepPartial<ConfigInput[K]>

/** One section's reader and writer: what a domain holds to change its own configuration. */
export interface SectionWriter<K extends SectionName> {
  readonly name: K
  get (): Config[K]
  update (patch: SectionPatch<K>): Promise<UpdateResult>
}

const RESERVED_KEY = '"__proto__" is a reserved name and cannot be a configuration key'

export class ConfigService {
  private defaults: PlainObject = {}
  private userDoc = new Document({})
  private current!: Config
  /** Set when the user's file could not be used at start; the next write moves it aside first. */
  private brokenUserFile = false
  private readonly checks: ConfigCheck[] = []
  /** With PostgreSQL (share()): the shared part's document and its store; config.yaml keeps the local sections. */
  private sharedDoc: Document | undefined
  private sharedStore: SharedConfigStore | undefined
  loadError: string | undefined

  constructor (private readonly opts: ConfigServiceOptions) {
    this.loadSync()
  }

  /** The validated, merged configuration. Treat as read-only. */
  get (): Config { return this.current }

  /** The configuration with secrets masked, for clients. */
  getMasked (): Config { return maskSecrets(this.current) }

  section<K extends SectionName>(name: string): Config[K] {
    if (!(SECTIONS as string[]).includes(name)) throw new AppError('SECTION_NOT_FOUND', `Section ${name} does not exist`)
    return this.current[name as K]
  }

  /** Validates a fragment merged over the current configuration without applying it. */
  validate (fragment: unknown): FieldError[] {
    if (!isPlainObject(fragment)) return [{ path: '', message: 'configuration must be an object' }]
    const proto = protoKeyPath(fragment)
    if (proto !== undefined) return [{ path: proto, message: RESERVED_KEY }]
    const merged = deepMerge(this.current, keepMaskedSecrets(fragment, this.current))
    const errors = schemaErrors(merged)
    return errors.length ? errors : this.checks.flatMap((check) => check(configSchema.parse(merged), this.current))
  }

  /**
   * Adds a rule every later write must pass besides the schema (a domain's knowledge the schema cannot
   * have, such as which presets exist). Reading the files (start, reload) does not run them.
   */
  addCheck (check: ConfigCheck): void { this.checks.push(check) }

  /** The reader and writer of one section: the way a domain changes its own configuration. */
  writer<K extends SectionName>(name: K): SectionWriter<K> {
    return {
      name,
      get: () => this.current[name],
      update: async (patch) => await this.write({ [name]: patch })
    }
  }

  /** Merges a nested partial configuration (null removes a user override) and writes it. */
  async update (partial: ConfigPatch): Promise<UpdateResult> {
    return await this.write(partial)
  }

  /**
   * update() for input not typed yet (a client's JSON body, an imported file): the same checks at run
   * time (an object, no reserved key, the schema). The generic config routes use it.
   */
  async applyInput (input: unknown): Promise<UpdateResult> {
    return await this.write(input)
  }

  private async write (partial: unknown): Promise<UpdateResult> {
    if (!isPlainObject(partial)) throw new AppError('INVALID_CONFIG', 'configuration must be an object', { errors: [{ path: '', message: 'expected an object' }] })
    // the schema's records would drop the key silently (and `__proto__` is no group or server name)
    const proto = protoKeyPath(partial)
    if (proto !== undefined) throw new AppError('INVALID_CONFIG', `Invalid configuration: ${proto} ${RESERVED_KEY}`, { errors: [{ path: proto, message: RESERVED_KEY }] })
    const incoming = keepMaskedSecrets(partial, this.current)
    const userObj = deepMerge(userObject(this.userDoc, this.sharedDoc), incoming)
    const merged = deepMerge(this.defaults, userObj)
    const errors = schemaErrors(merged)
    if (errors.length) throw new AppError('INVALID_CONFIG', `Invalid configuration: ${errors[0]?.path} ${errors[0]?.message}`, { errors })
    const next = configSchema.parse(merged)
    const refused = this.checks.flatMap((check) => check(next, this.current))
    if (refused.length) throw new AppError('INVALID_CONFIG', `Invalid configuration: ${refused[0]?.path} ${refused[0]?.message}`, { errors: refused })
    const changed = changedPaths(this.current, next)
    if (changed.length === 0) return { updated: [] }
    // shared: each path goes to the shared record or to config.yaml (a local section)
    let local = this.sharedDoc === undefined
    let shared = false
    for (const path of leafPaths(incoming)) {
      const doc = this.sharedDoc && !isLocalPath(path) ? this.sharedDoc : this.userDoc
      setInDoc(doc, path, getPath(incoming, path))
      if (doc === this.userDoc) local = true
      else shared = true
    }
    if (local) await this.persist()
    if (shared) await this.persistShared()
    this.current = next
    const updated = changed.map((p) => p.join('.'))
    this.opts.bus?.emit('config', updated)
    return { updated }
  }

  /** Variant 1 of PUT /api/config: one dotted path and its value. */
  async set (path: string, value: unknown): Promise<UpdateResult> {
    const keys = path.split('.').filter(Boolean)
    if (keys.length === 0) throw new AppError('INVALID_CONFIG', 'path is required', { errors: [{ path: 'path', message: 'required' }] })
    if (!(SECTIONS as string[]).includes(keys[0] as string)) throw new AppError('SECTION_NOT_FOUND', `Section ${keys[0]} does not exist`)
    return await this.write(objectAt(keys, value))
  }

  /** Re-reads both files (and the shared part held). A broken user file is refused and the running configuration kept. */
  reload (): void {
    const prev = this.current
    const defaults = docToObject(parseYaml(readFileSync(this.opts.defaultFile, 'utf8'), 'default.yaml'))
    const user = readYamlFile(this.opts.userFile)
    const userDoc = user?.doc ?? new Document({})
    const merged = deepMerge(defaults, userObject(userDoc, this.sharedDoc))
    const errors = schemaErrors(merged)
    if (errors.length) throw new AppError('INVALID_CONFIG', `config.yaml is invalid: ${errors[0]?.path} ${errors[0]?.message}`, { errors })
    this.defaults = defaults
    this.userDoc = userDoc
    this.current = configSchema.parse(merged)
    this.brokenUserFile = false
    this.loadError = undefined
    const changed = changedPaths(prev, this.current).map((p) => p.join('.'))
    if (changed.length) this.opts.bus?.emit('config', changed)
  }

  /** The whole configuration as YAML (defaults' comments, user values, secrets masked). */
  exportYaml (): string {
    const doc = parseYaml(readFileSync(this.opts.defaultFile, 'utf8'), 'default.yaml')
    const masked = maskSecrets(userObject(this.userDoc, this.sharedDoc)) as PlainObject
    for (const path of leafPaths(masked)) setInDoc(doc, path, getPath(masked, path))
    return String(doc)
  }

  /** Applies an exported (or hand-written) YAML configuration. */
  async importYaml (text: string): Promise<{ imported: boolean; changes: number }> {
    const obj = toMapping(parseClientYaml(text, 'Imported YAML'), 'Imported YAML')
    const unknownTop = Object.keys(obj).filter((k) => !(SECTIONS as string[]).includes(k))
    if (unknownTop.length) {
      throw new AppError('INVALID_CONFIG', `Unknown configuration keys: ${unknownTop.join(', ')}`, { errors: unknownTop.map((k) => ({ path: k, message: 'unknown key' })) })
    }
    const { updated } = await this.write(obj)
    return { imported: true, changes: updated.length }
  }

  private loadSync (): void {
    this.defaults = docToObject(parseYaml(readFileSync(this.opts.defaultFile, 'utf8'), 'default.yaml'))
    const base = configSchema.safeParse(this.defaults)
    if (!base.success) throw new Error(`config/default.yaml is invalid: ${formatIssues(base.error.issues)[0]?.path}`)
    this.current = base.data
    let user: ReturnType<typeof readYamlFile>
    try {
      user = readYamlFile(this.opts.userFile)
    } catch (err) {
      this.brokenUserFile = true
      this.loadError = `${basename(this.opts.userFile)} could not be parsed (${(err as Error).message}); running on defaults, the file was left untouched`
      this.opts.log?.error(this.loadError, { file: this.opts.userFile })
      return
    }
    if (!user) return
    this.userDoc = user.doc
    let userObj: PlainObject
    try { userObj = docToObject(user.doc, 'config.yaml') } catch (err) {
      this.brokenUserFile = true
      this.userDoc = new Document({})
      this.loadError = `${basename(this.opts.userFile)} is not a mapping (${(err as Error).message}); running on defaults, the file was left untouched`
      this.opts.log?.error(this.loadError, { file: this.opts.userFile })
      return
    }
    const proto = protoKeyPath(userObj)
    if (proto !== undefined) this.opts.log?.warn(`${basename(this.opts.userFile)}: the key ${proto} is ignored (${RESERVED_KEY})`, { file: this.opts.userFile })
    const merged = deepMerge(this.defaults, userObj)
    const result = configSchema.safeParse(merged)
    if (result.success) { this.current = result.data; return }
    const errors = formatIssues(result.error.issues)
    this.loadError = `${basename(this.opts.userFile)} has invalid values (${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}); running on defaults until they are fixed`
    this.opts.log?.error(this.loadError, { file: this.opts.userFile })
  }

  /**
   * Shares the configuration through `store` (PostgreSQL; the runtime opens it). An empty store gets
   * config.yaml's shared part (comments kept): the first instance brings its configuration along. A store
   * that holds one wins over config.yaml's shared keys, said in a warning naming them (never their values).
   * Then the configuration in force is the shared part with this instance's local sections, and a change
   * another instance writes is applied here as a local edit would be (the bus's `config` event).
   * Answers the unsubscribe.
   */
  async share (store: SharedConfigStore): Promise<() => void> {
    const held = store.get(SHARED_CONFIG_KEY)
    let doc: Document
    if (held) {
      doc = parseYaml(held.yaml, 'The shared configuration')
      const ignored = this.ignoredLocalKeys(docToObject(doc, 'The shared configuration'))
      if (ignored.length) {
        this.opts.log?.warn(`${basename(this.opts.userFile)}: its shared keys ${ignored.join(', ')} were ignored: the configuration shared in PostgreSQL wins (only ${LOCAL_SECTIONS.join(', ')} stay this instance's own). Change them from any instance, or remove them from the file.`)
      }
    } else {
      // a file with invalid values is not spread to every instance: the shared part starts empty then
      doc = this.loadError ? new Document({}) : this.userDoc.clone()
      for (const k of LOCAL_SECTIONS) if (doc.has(k)) doc.delete(k)
      if (this.loadError) this.opts.log?.warn(`${basename(this.opts.userFile)} was not copied into the shared configuration: ${this.loadError}`)
      await store.put({ id: SHARED_CONFIG_KEY, yaml: String(doc), updatedAt: (this.opts.now ?? Date.now)() })
      this.opts.log?.info(`The shared configuration in PostgreSQL was empty: ${basename(this.opts.userFile)}'s shared part was copied into it`)
    }
    this.sharedStore = store
    this.applyShared(doc)
    return store.onRemote((key, rec) => {
      if (key !== SHARED_CONFIG_KEY || !rec) return
      try { this.applyShared(parseYaml(rec.yaml, 'The shared configuration')) } catch (err) {
        this.opts.log?.error(`The shared configuration written by another instance could not be read; the running configuration is kept (${(err as Error).message})`)
      }
    })
  }

  /** The shared sections config.yaml sets otherwise than `shared` (names only: values may be secrets). */
  private ignoredLocalKeys (shared: PlainObject): string[] {
    const mine = withoutLocal(docToObject(this.userDoc))
    return Object.keys(mine).filter((k) => !sameJson(own(mine, k), own(shared, k)))
  }

  /** Makes `doc` the shared part in force; values the schema refuses keep the running configuration. */
  private applyShared (doc: Document): void {
    const merged = deepMerge(this.defaults, userObject(this.userDoc, doc))
    const result = configSchema.safeParse(merged)
    this.sharedDoc = doc
    if (!result.success) {
      const errors = formatIssues(result.error.issues)
      this.loadError = `The shared configuration has invalid values (${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}); the running configuration is kept until they are fixed`
      this.opts.log?.error(this.loadError)
      return
    }
    const prev = this.current
    this.current = result.data
    this.loadError = undefined
    const changed = changedPaths(prev, this.current).map((p) => p.join('.'))
    if (changed.length) this.opts.bus?.emit('config', changed)
  }

  private async persistShared (): Promise<void> {
    if (!this.sharedStore || !this.sharedDoc) return
    await this.sharedStore.put({ id: SHARED_CONFIG_KEY, yaml: String(this.sharedDoc), updatedAt: (this.opts.now ?? Date.now)() })
  }

  private async persist (): Promise<void> {
    if (this.brokenUserFile && existsSync(this.opts.userFile)) {
      const aside = `${this.opts.userFile}.corrupt-${(this.opts.now ?? Date.now)()}`
      await rename(this.opts.userFile, aside)
      this.opts.log?.warn(`The unreadable config file was moved aside to ${aside} before saving`)
      this.brokenUserFile = false
    }
    await writeFileAtomic(this.opts.userFile, String(this.userDoc))
  }
}

/**
 * The configuration as the files say now (defaults, then the user's file; the running configuration
 * rules once the plugin runs). For what must be known before the runtime starts: plugin classes build
 * their command patterns in their constructors. Throws only when default.yaml itself is unreadable.
 */
export function readConfigFiles (files: Pick<ConfigServiceOptions, 'defaultFile' | 'userFile'>): Config {
  return new ConfigService({ defaultFile: files.defaultFile, userFile: files.userFile }).get()
}

/** The user's configuration as an object: config.yaml, or with a shared part its local sections over it. */
function userObject (userDoc: Document, sharedDoc: Document | undefined): PlainObject {
  const local = docToObject(userDoc, 'config.yaml')
  return sharedDoc ? { ...withoutLocal(docToObject(sharedDoc, 'The shared configuration')), ...onlyLocal(local) } : local
}

function formatIssues (issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): FieldError[] {
  return issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }))
}

function schemaErrors (candidate: PlainObject): FieldError[] {
  const r = configSchema.safeParse(candidate)
  return r.success ? [] : formatIssues(r.error.issues)
}

function changedPaths (a: PlainObject, b: PlainObject): string[][] {
  const paths = new Map<string, string[]>()
  for (const p of [...leafPaths(a), ...leafPaths(b)]) paths.set(p.join('.'), p)
  return [...paths.values()].filter((p) => !sameJson(getPath(a, p), getPath(b, p)))
}
