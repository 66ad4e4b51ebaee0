// The settings shown in guoba-plugin's panel (guoba.support.js at the plugin root; README, "Guoba"),
// generated from the configuration's JSON Schema (schema-json.ts) so there is no second list of fields:
// each section's plain fields (switches, numbers, texts, choices) with their Chinese titles and
// descriptions; lists, nested objects and secrets stay in lingxi's own dashboard, named in a note.
// Saving goes through ConfigService.applyInput, the path of PUT /api/config, so guoba's form is
// validated by the same schema and checks.
import { type AppError, errorText, type FieldError } from '../core/errors.js'
import { deepMerge, getPath, objectAt, sameJson, type PlainObject } from './object-paths.js'
import { configJsonSchema } from './schema-json.js'
import type { Config } from './schema.js'
import type { ConfigService } from './service.js'

type Node = Record<string, unknown>

/** One entry of guoba's form (its `configInfo.schemas`: vben form schemas). */
export interface GuobaSchema {
  field?: string
  label: string
  component: 'SOFT_GROUP_BEGIN' | 'Divider' | 'Switch' | 'InputNumber' | 'Input' | 'Select'
  bottomHelpMessage?: string
  componentProps?: Record<string, unknown>
}

/** guoba's Result class, passed to setConfigData (only what is used here). */
export interface GuobaResult {
  ok(result: unknown, message?: string): unknown
  error(reason: string, result?: unknown): unknown
}

const labelOf = (node: Node, key: string): string =>
  typeof node['x-title-zh'] === 'string' ? node['x-title-zh'] : typeof node.title === 'string' ? node.title : key

/** The form control of a plain field; undefined for lists, objects and secrets (the dashboard's). */
function control (node: Node): Pick<GuobaSchema, 'component' | 'componentProps'> | undefined {
  if (node['x-secret'] === true) return undefined
  if (Array.isArray(node.enum)) {
    return { component: 'Select', componentProps: { options: node.enum.map((v) => ({ label: String(v), value: v })) } }
  }
  const types = Array.isArray(node.anyOf) ? (node.anyOf as Node[]).map((a) => a.type) : [node.type]
  if (types.every((t) => t === 'boolean')) return { component: 'Switch' }
  if (types.every((t) => t === 'string')) return { component: 'Input' }
  if (types.every((t) => t === 'integer' || t === 'number')) {
    const props: Record<string, unknown> = {}
    if (typeof node.minimum === 'number') props.min = node.minimum
    if (typeof node.maximum === 'number') props.max = node.maximum
    if (node.type === 'integer') props.precision = 0
    return { component: 'InputNumber', componentProps: props }
  }
  return undefined
}

function fieldSchema (node: Node, path: string, key: string): GuobaSchema | undefined {
  const c = control(node)
  if (!c) return undefined
  const help = typeof node['x-description-zh'] === 'string' ? node['x-description-zh'] : undefined
  return { field: path, label: labelOf(node, key), ...c, ...(help ? { bottomHelpMessage: help } : {}) }
}

const dashboardNote = (what: string): GuobaSchema => ({
  label: `${what}：请在灵犀面板中设置（向机器人发送 #lx面板，或在插件目录运行 npm run login-link 获取登录链接）`,
  component: 'Divider'
})

/** guoba's form: a group of the top-level fields, then one per section with its plain fields. */
function guobaSchemas (dashboardUrl?: string): GuobaSchema[] {
  const root = configJsonSchema()
  const sections = (root.properties ?? {}) as Record<string, Node>
  const out: GuobaSchema[] = [{ label: '基础设置', component: 'SOFT_GROUP_BEGIN' }]
  if (dashboardUrl) out.push({ label: `完整设置在灵犀面板：${dashboardUrl}`, component: 'Divider' })
  const elsewhere: string[] = []
  for (const [key, node] of Object.entries(sections)) {
    if (node.type === 'object' || node.type === 'array') continue
    const f = fieldSchema(node, key, key)
    if (f) out.push(f)
    else elsewhere.push(labelOf(node, key))
  }
  for (const [key, section] of Object.entries(sections)) {
    if (section.type !== 'object' || !section.properties) { if (section.type === 'array' || section.type === 'object') elsewhere.push(labelOf(section, key)); continue }
    const fields: GuobaSchema[] = []
    const rest: string[] = []
    for (const [name, node] of Object.entries(section.properties as Record<string, Node>)) {
      const f = fieldSchema(node, `${key}.${name}`, name)
      if (f) fields.push(f)
      else rest.push(labelOf(node, name))
    }
    if (!fields.length) { elsewhere.push(labelOf(section, key)); continue }
    out.push({ label: labelOf(section, key), component: 'SOFT_GROUP_BEGIN' }, ...fields)
    if (rest.length) out.push(dashboardNote(rest.join('、')))
  }
  if (elsewhere.length) out.push({ label: '更多设置', component: 'SOFT_GROUP_BEGIN' }, dashboardNote(elsewhere.join('、')))
  return out
}

/** The offered fields by dotted path, for setConfigData's check. */
function offeredFields (): Map<string, GuobaSchema> {
  return new Map(guobaSchemas().filter((s) => s.field !== undefined).map((s) => [s.field as string, s]))
}

/** guoba's getConfigData: the running configuration (secrets masked, as GET /api/config shows it). */
function guobaConfigData (config: ConfigService): Config {
  return config.getMasked()
}

/**
 * The field errors of a refusal. Read by shape, not `instanceof AppError`: a host that imports the plugin
 * twice (a cache-busted index.js) holds two copies of the modules sharing one runtime (lib/lifecycle.ts),
 * so the service that threw may be another copy's.
 */
function errorsOf (err: unknown): FieldError[] | undefined {
  const list = err instanceof Error ? (err as Partial<AppError>).errors : undefined
  return Array.isArray(list) ? list.filter((e): e is FieldError => typeof e?.path === 'string' && typeof e.message === 'string') : undefined
}

const fieldErrors = (errors: FieldError[], offered: Map<string, GuobaSchema>): string =>
  errors
    .map((e: FieldError) => { const f = offered.get(e.path); return f ? `「${f.label}」(${e.path})：${e.message}` : e.message })
    .join('；')

/**
 * guoba's setConfigData: `data` holds the form's fields by dotted path. Only offered fields are taken,
 * and only those that differ from the running value are written (the form sends every field; writing
 * all of them would pin every default in config.yaml).
 */
async function guobaSaveConfig (config: ConfigService, data: unknown, Result: GuobaResult): Promise<unknown> {
  const offered = offeredFields()
  const entries = data !== null && typeof data === 'object' ? Object.entries(data as Record<string, unknown>) : []
  const unknownKey = entries.find(([path]) => !offered.has(path))
  if (unknownKey) return Result.error(`灵犀没有可在锅巴中修改的设置 ${unknownKey[0]}`, { errors: [{ path: unknownKey[0], message: 'not offered here' }] })
  const current = config.get()
  let partial: PlainObject = {}
  for (const [path, value] of entries) {
    const keys = path.split('.')
    if (!sameJson(getPath(current, keys), value)) partial = deepMerge(partial, objectAt(keys, value))
  }
  try {
    const { updated } = await config.applyInput(partial)
    return Result.ok({ updated }, updated.length ? '保存成功' : '没有改动')
  } catch (err) {
    const errors = errorsOf(err)
    if (errors?.length) return Result.error(`保存失败：${fieldErrors(errors, offered)}`, { errors })
    return Result.error(`保存失败：${errorText(err)}`, { errors: [] })
  }
}

/** What supportGuoba() returns (guoba-plugin's convention; README, "Guoba"). */
export function guobaSupport (config: () => Promise<ConfigService>, dashboardUrl?: string): PlainObject {
  return {
    pluginInfo: {
      name: 'lingxi-plugin',
      title: '灵犀',
      description: '语言模型对话、工具、记忆与网页面板',
      isV3: true,
      isV2: false,
      showInMenu: 'auto',
      icon: 'mdi:robot-outline'
    },
    configInfo: {
      schemas: guobaSchemas(dashboardUrl),
      getConfigData: async () => guobaConfigData(await config()),
      setConfigData: async (data: unknown, ctx: { Result: GuobaResult }) => await guobaSaveConfig(await config(), data, ctx.Result)
    }
  }
}
