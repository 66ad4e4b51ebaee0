// The preset store: built-in personas (code) plus user presets (presets.json, or PostgreSQL: store.ts), the
// users' and groups' choices, and the default (config presets.defaultId, mirrored to llm.defaultChatPresetId).
import { stringify as toYaml } from 'yaml'
import { parseClientYaml } from '../config/yaml-file.js'
import type { z } from 'zod'
import { isReservedName, own, reservedNameMessage } from '../core/dict.js'
import type { SectionPatch } from '../config/service.js'
import { AppError } from '../core/errors.js'
import type { Runtime } from '../runtime.js'
import { builtinById, BUILTIN_PRESETS } from './builtin.js'
import { openPresetStore, type PresetStore } from './store.js'
import { DEFAULT_FIELDS, looseId, presetFields, RESERVED_IDS, strictId, type PresetPatch, type PresetRecord, type PresetView } from './types.js'


function invalid (issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): AppError {
  const errors = issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }))
  const first = errors[0]
  return new AppError('INVALID_PRESET', first ? (first.path ? `${first.path}: ${first.message}` : first.message) : 'Invalid preset', { errors })
}

/** Validates preset fields (INVALID_PRESET naming the first bad field). */
function checkFields (body: unknown): PresetPatch {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new AppError('INVALID_PRESET', 'Preset must be an object')
  const { isDefault, ...rest } = body as Record<string, unknown>
  // Derived fields a client may send back unchanged (GET then PUT, export then import).
  for (const k of ['id', 'type', 'isBuiltin', 'createdAt', 'updatedAt']) delete rest[k]
  const r = presetFields.safeParse(rest)
  if (!r.success) throw invalid(r.error.issues)
  if (isDefault !== undefined && typeof isDefault !== 'boolean') throw new AppError('INVALID_PRESET', 'isDefault: expected a boolean')
  return isDefault === undefined ? r.data : { ...r.data, isDefault }
}

function checkId (id: unknown, schema: z.ZodString): string {
  const r = schema.safeParse(id)
  if (!r.success) throw invalid(r.error.issues.map((i) => ({ ...i, path: ['id'] })))
  if (isReservedName(r.data)) throw new AppError('INVALID_PRESET', `id: ${reservedNameMessage(r.data)}`, { errors: [{ path: 'id', message: 'reserved' }] })
  if (RESERVED_IDS.has(r.data)) throw new AppError('INVALID_PRESET', `id: "${r.data}" is reserved`, { errors: [{ path: 'id', message: 'reserved' }] })
  return r.data
}

const isoOrNow = (v: unknown, now: string): string => typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? new Date(v).toISOString() : now

/** The optional sampling fields a patch unsets with null. */
const UNSETTABLE = ['topP', 'frequencyPenalty', 'presencePenalty'] as const

/** Applies a patch; `tools.toolApprovalMode: null` removes the override, a sampling field's null unsets it. */
function applyPatch (rec: PresetRecord, patch: PresetPatch): PresetRecord {
  const { isDefault: _ignored, tools, voice, memory, ...flat } = patch
  const next: PresetRecord = { ...rec, ...(flat as Partial<PresetRecord>) }
  for (const k of UNSETTABLE) if (flat[k] === null) delete next[k]
  if (tools) {
    const { toolApprovalMode, ...t } = tools
    next.tools = { ...rec.tools, ...t }
    if (toolApprovalMode === null) delete next.tools.toolApprovalMode
    else if (toolApprovalMode !== undefined) next.tools.toolApprovalMode = toolApprovalMode
  }
  if (voice) next.voice = { ...rec.voice, ...voice }
  if (memory) next.memory = { ...rec.memory, ...memory }
  return next
}

export class PresetService {
  private constructor (private readonly rt: Runtime, private readonly store: PresetStore) {}

  static async open (rt: Runtime): Promise<PresetService> {
    return new PresetService(rt, await openPresetStore(rt))
  }

  close (): Promise<void> { return this.store.close() }

  /**
   * With PostgreSQL: called after a preset (`preset:<id>`) or a choice (`user:<id>`, `group:<id>`) changed by
   * another instance is served here. Answers the unsubscribe.
   */
  onRemote (listener: (key: string) => void): () => void { return this.store.onRemote(listener) }

  private now (): string { return new Date(this.rt.clock.now()).toISOString() }

  /** The default preset id: presets.defaultId, then llm.defaultChatPresetId, when they exist. */
  defaultId (): string {
    const cfg = this.rt.config.get()
    for (const id of [cfg.presets.defaultId, cfg.llm.defaultChatPresetId]) if (id && this.find(id)) return id
    return 'default'
  }

  private view (rec: PresetRecord, defaultId = this.defaultId()): PresetView {
    const isBuiltin = builtinById(rec.id) !== undefined && !this.store.data.presets.some((p) => p.id === rec.id)
    return { ...structuredClone(rec), type: isBuiltin ? 'system' : 'user', isBuiltin, isDefault: rec.id === defaultId }
  }

  find (id: string): PresetRecord | undefined {
    return this.store.data.presets.find((p) => p.id === id) ?? builtinById(id)
  }

  isBuiltin (id: string): boolean { return builtinById(id) !== undefined }

  list (): PresetView[] {
    const d = this.defaultId()
    return [...BUILTIN_PRESETS, ...this.store.data.presets].map((p) => this.view(p, d))
  }

  builtins (): PresetView[] { const d = this.defaultId(); return BUILTIN_PRESETS.map((p) => this.view(p, d)) }

  get (id: string): PresetView {
    const rec = this.find(id)
    if (!rec) throw new AppError('PRESET_NOT_FOUND', 'Preset not found')
    return this.view(rec)
  }

  /** Creates a user preset. `strict`: variant A id rules (3-50 letters, digits and hyphens). */
  async create (id: unknown, body: unknown, opts: { strict?: boolean; keepTimes?: boolean } = {}): Promise<PresetView> {
    const pid = checkId(id, opts.strict ? strictId : looseId)
    const patch = checkFields(body)
    if (!patch.name) throw new AppError('INVALID_PRESET', 'name is required', { errors: [{ path: 'name', message: 'required' }] })
    if (this.find(pid)) throw new AppError('PRESET_EXISTS', `Preset ${pid} already exists`)
    const now = this.now()
    const src = body as Record<string, unknown>
    const rec = applyPatch({
      ...structuredClone(DEFAULT_FIELDS),
      id: pid,
      name: patch.name,
      createdAt: opts.keepTimes ? isoOrNow(src.createdAt, now) : now,
      updatedAt: opts.keepTimes ? isoOrNow(src.updatedAt, now) : now
    }, patch)
    await this.store.update((d) => { d.presets.push(rec) })
    if (patch.isDefault) await this.setDefault(pid)
    return this.view(rec)
  }

  /** Partial update of a user preset; on a built-in only `isDefault` may change. */
  async update (id: string, body: unknown): Promise<PresetView> {
    const patch = checkFields(body)
    const rec = this.find(id)
    if (!rec) throw new AppError('PRESET_NOT_FOUND', 'Preset not found')
    const { isDefault, ...fields } = patch
    const user = this.store.data.presets.some((p) => p.id === id)
    if (!user && Object.keys(fields).length > 0) throw new AppError('SYSTEM_PRESET', 'Built-in presets cannot be changed; copy it first')
    if (user) {
      await this.store.update((d) => {
        const i = d.presets.findIndex((p) => p.id === id)
        const cur = d.presets[i]
        if (i >= 0 && cur) d.presets[i] = { ...applyPatch(cur, fields), updatedAt: this.now() }
      })
    }
    if (isDefault === true) await this.setDefault(id)
    else if (isDefault === false && this.defaultId() === id && id !== 'default') await this.setDefault('default')
    return this.get(id)
  }

  async remove (id: string): Promise<void> {
    if (!this.store.data.presets.some((p) => p.id === id)) {
      if (this.isBuiltin(id)) throw new AppError('SYSTEM_PRESET', 'Built-in presets cannot be deleted')
      throw new AppError('PRESET_NOT_FOUND', 'Preset not found')
    }
    const wasDefault = this.defaultId() === id
    await this.store.update((d) => {
      d.presets = d.presets.filter((p) => p.id !== id)
      for (const m of [d.users, d.groups]) for (const [k, v] of Object.entries(m)) if (v === id) delete m[k]
    })
    if (wasDefault) await this.setDefault('default')
  }

  /** Writes the default to presets.defaultId and llm.defaultChatPresetId. */
  async setDefault (id: string): Promise<void> {
    await this.updateSettings({ defaultId: id })
  }

  /**
   * Changes the `presets` section (the preset switches and the default). A new default must exist and
   * is mirrored to llm.defaultChatPresetId, the older name of the same setting (kept in step here only).
   */
  async updateSettings (patch: SectionPatch<'presets'>): Promise<void> {
    const id = patch.defaultId
    if (id && !this.find(id)) throw new AppError('PRESET_NOT_FOUND', 'Preset not found')
    await this.rt.config.writer('presets').update(patch)
    if (id) await this.rt.config.writer('llm').update({ defaultChatPresetId: id })
  }

  async copy (id: string, newId: unknown, newName: unknown, strict = true): Promise<PresetView> {
    const src = this.find(id)
    if (!src) throw new AppError('PRESET_NOT_FOUND', 'Preset not found')
    const { id: _id, createdAt: _c, updatedAt: _u, ...fields } = structuredClone(src)
    const name = newName === undefined ? `${src.name} (副本)` : newName
    return this.create(newId, { ...fields, name, ...(this.isBuiltin(id) ? { createdFrom: id } : {}) }, { strict })
  }

  async fromBuiltin (builtinId: string, body: unknown): Promise<PresetView> {
    const src = builtinById(builtinId)
    if (!src) throw new AppError('PRESET_NOT_FOUND', 'Preset not found')
    const overrides = (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<string, unknown>
    const { id, ...rest } = overrides
    const newId = id ?? `custom_${builtinId}_${this.rt.clock.now()}`
    const { id: _i, createdAt: _c, updatedAt: _u, ...base } = structuredClone(src)
    const patch = checkFields(rest)
    const merged = applyPatch({ ...src, ...base }, { ...patch, createdFrom: builtinId })
    const { id: _x, createdAt: _y, updatedAt: _z, ...fields } = merged
    return this.create(newId, { ...fields, ...(patch.isDefault ? { isDefault: true } : {}) })
  }

  exportYaml (id: string): string {
    const { type: _t, isBuiltin: _b, isDefault: _d, ...rec } = this.get(id)
    return toYaml(rec)
  }

  /** Imports one preset from YAML text; PARSE_ERROR or INVALID_PRESET leave the store unchanged. */
  async importYaml (text: string, overwrite: boolean): Promise<{ preset: PresetView; overwritten: boolean }> {
    const doc = parseClientYaml(text, 'The preset file') // PAYLOAD_TOO_LARGE or PARSE_ERROR
    if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new AppError('INVALID_PRESET', 'The file must hold one preset (a YAML mapping)')
    const src = doc as Record<string, unknown>
    const id = checkId(src.id, looseId)
    checkFields(src)
    if (this.isBuiltin(id)) throw new AppError('SYSTEM_PRESET', `"${id}" is a built-in preset and cannot be overwritten`)
    const exists = this.find(id) !== undefined
    if (exists && !overwrite) throw new AppError('PRESET_EXISTS', `Preset ${id} already exists (set overwrite to replace it)`)
    if (exists) {
      await this.store.update((d) => { d.presets = d.presets.filter((p) => p.id !== id) })
    }
    const preset = await this.create(id, src, { keepTimes: true })
    return { preset, overwritten: exists }
  }

  // --- choices of users and groups ---
  userChoice (userId: string): string | undefined { return own(this.store.data.users, userId) }
  groupChoice (groupId: string): string | undefined { return own(this.store.data.groups, groupId) }

  async choose (kind: 'users' | 'groups', key: string, id: string | undefined): Promise<void> {
    if (id !== undefined && !this.find(id)) throw new AppError('PRESET_NOT_FOUND', 'Preset not found')
    await this.store.update((d) => { if (id === undefined) delete d[kind][key]; else d[kind][key] = id })
  }
}
