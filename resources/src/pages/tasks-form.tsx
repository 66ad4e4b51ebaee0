// The form of a scheduled task (POST /api/tasks, PUT /api/tasks/:id): name, prompt, schedule (cron or words),
// target chat, preset, channel and model, allowed tools, missed-run policy, monthly budget, history. The
// server checks it all; its 400 message is shown at the field it is about (or under the form).
import { useEffect, useState } from 'preact/hooks'
import { api, ApiError, errText } from '../api'
import type { ChannelView, PresetList, ToolsList } from '../contracts'
import { FieldShell } from '../form-fields'
import '../schema-form.css'
import { t, tv } from '../i18n'
import type { MissedPolicy, Task } from '../../../lib/tasks/types'
import { Card, ErrorBox, toast, useLoad } from '../ui'

/** The body of POST /api/tasks and PUT /api/tasks/:id (routes/tasks.ts). */
interface TaskBody {
  name: string, prompt: string, schedule: string, target: { groupId: string } | { userId: string }
  presetId?: string, channel?: string, model?: string, tools: string[], missed: MissedPolicy, monthlyBudget?: number, keepHistory: boolean
}

type Field = 'name' | 'prompt' | 'schedule' | 'target' | 'budget'

/**
 * The field a server message is about: a validation's `path: message`, or the service's own words
 * (lib/tasks/service.ts, lib/tasks/schedule.ts); undefined: the form as a whole.
 */
function fieldOf (message: string, path?: string): Field | undefined {
  const head = (path ?? message.match(/^([\w.[\]-]+): /)?.[1] ?? '').split('.')[0]
  if (head === 'name' || head === 'prompt' || head === 'schedule' || head === 'target') return head
  if (head === 'monthlyBudget') return 'budget'
  if (/needs a name/i.test(message)) return 'name'
  if (/needs a prompt/i.test(message)) return 'prompt'
  if (/one chat|a group or a user/i.test(message)) return 'target'
  if (/schedule|cron|recurrence|time of day|no time|past|too far|never comes|more often|runs at most/i.test(message)) return 'schedule'
  return undefined
}

const value = (e: Event): string => (e.target as HTMLInputElement).value

export function TaskForm ({ task, onDone }: { task: Task | null, onDone: (saved: boolean) => void }) {
  const presets = useLoad<PresetList>('/api/presets?type=all')
  const channels = useLoad<ChannelView[]>('/api/config/channels')
  const tools = useLoad<ToolsList>('/api/tools')
  const [f, setF] = useState(() => ({
    name: task?.name ?? '', prompt: task?.prompt ?? '', schedule: task?.scheduleText ?? '',
    kind: task?.target.userId !== undefined ? 'user' : 'group', chatId: task?.target.groupId ?? task?.target.userId ?? '',
    presetId: task?.presetId ?? '', channel: task?.channel ?? '', model: task?.model ?? '', tools: task?.tools ?? [],
    missed: task?.missed ?? 'skip' as MissedPolicy, budget: task?.monthlyBudget !== undefined ? String(task.monthlyBudget) : '', keepHistory: task?.keepHistory ?? false
  }))
  const [problems, setProblems] = useState<Map<Field, string>>(new Map())
  const [formError, setFormError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  // the form opens below the list: the focus (and the view, on a phone) goes to its first field
  useEffect(() => { document.getElementById('tk-name')?.focus() }, [])
  const set = (patch: Partial<typeof f>): void => setF({ ...f, ...patch })
  const channel = channels.data?.find(c => c.name === f.channel)
  const models = channel ? [...new Set([channel.model, ...(channel.models ?? [])].filter(Boolean))] : []
  const toolNames = (tools.data?.tools ?? []).filter(x => x.enabled || f.tools.includes(x.name)).map(x => x.name).sort()

  const submit = async (e: Event): Promise<void> => {
    e.preventDefault()
    setBusy(true); setProblems(new Map()); setFormError(null)
    const budget = f.budget.trim() === '' ? undefined : Number(f.budget)
    const body: TaskBody = {
      name: f.name, prompt: f.prompt, schedule: f.schedule,
      target: f.kind === 'user' ? { userId: f.chatId.trim() } : { groupId: f.chatId.trim() },
      ...(f.presetId ? { presetId: f.presetId } : {}), ...(f.channel ? { channel: f.channel } : {}), ...(f.model ? { model: f.model } : {}),
      tools: f.tools, missed: f.missed, ...(budget !== undefined ? { monthlyBudget: budget } : {}), keepHistory: f.keepHistory
    }
    try {
      await api(task ? `/api/tasks/${encodeURIComponent(task.id)}` : '/api/tasks', { method: task ? 'PUT' : 'POST', json: body })
      toast(t(task ? 'tk.saved' : 'tk.created'))
      onDone(true)
    } catch (err) {
      // a refusal is shown at its field, in the server's words (they name the value: "\"8点半吧\" ...")
      const found = new Map<Field, string>()
      if (err instanceof ApiError && err.status === 400) {
        for (const x of err.errors ?? []) { const k = fieldOf(x.message, x.path); if (k) found.set(k, x.message) }
        if (!err.errors?.length) {
          const k = fieldOf(err.message)
          if (k) found.set(k, err.message.replace(/^[\w.[\]-]+: /, ''))
        }
      }
      setProblems(found)
      if (!found.size) setFormError(errText(err))
      // the first field with a problem gets the focus (its message is read with it)
      const first = (['name', 'prompt', 'schedule', 'target', 'budget'] as Field[]).find(k => found.has(k))
      if (first) setTimeout(() => document.getElementById(`tk-${first === 'target' ? 'chat' : first}`)?.focus(), 0)
    } finally { setBusy(false) }
  }

  const msgs = (k: Field): string[] => { const m = problems.get(k); return m ? [m] : [] }
  const invalid = (k: Field): { 'aria-invalid'?: 'true' } => problems.has(k) ? { 'aria-invalid': 'true' } : {}
  const described = (id: string, k: Field, help: boolean): string | undefined => [help ? `${id}-help` : '', problems.has(k) ? `${id}-err` : ''].filter(Boolean).join(' ') || undefined

  return <Card title={task ? tv('tk.formEdit', { name: task.name }) : t('tk.formNew')} testid="tk-form">
    <form class="form sf-form tk-form" onSubmit={submit} noValidate>
      <FieldShell id="tk-name" label={t('tk.f.name')} help="" messages={msgs('name')} testid="tk-name">
        <input id="tk-name" type="text" data-testid="tk-name" value={f.name} maxLength={100} required {...invalid('name')} aria-describedby={described('tk-name', 'name', false)} onInput={e => set({ name: value(e) })} />
      </FieldShell>
      <FieldShell id="tk-schedule" label={t('tk.f.schedule')} help={t('tk.f.scheduleHelp')} messages={msgs('schedule')} testid="tk-schedule">
        <input id="tk-schedule" type="text" data-testid="tk-schedule" value={f.schedule} required placeholder="0 8 * * *" {...invalid('schedule')} aria-describedby={described('tk-schedule', 'schedule', true)} onInput={e => set({ schedule: value(e) })} />
      </FieldShell>
      <FieldShell id="tk-prompt" label={t('tk.f.prompt')} help={t('tk.f.promptHelp')} messages={msgs('prompt')} testid="tk-prompt" wide>
        <textarea id="tk-prompt" data-testid="tk-prompt" rows={4} value={f.prompt} required {...invalid('prompt')} aria-describedby={described('tk-prompt', 'prompt', true)} onInput={e => set({ prompt: value(e) })} />
      </FieldShell>
      <div class="field sf-field">
        <label for="tk-kind">{t('tk.f.targetKind')}</label>
        <select id="tk-kind" data-testid="tk-kind" value={f.kind} onChange={e => set({ kind: value(e) })}>
          <option value="group">{t('tk.f.toGroup')}</option>
          <option value="user">{t('tk.f.toUser')}</option>
        </select>
      </div>
      <FieldShell id="tk-chat" label={t(f.kind === 'user' ? 'tk.f.userId' : 'tk.f.groupId')} help="" messages={msgs('target')} testid="tk-chat">
        <input id="tk-chat" type="text" inputMode="numeric" data-testid="tk-chat" value={f.chatId} required {...invalid('target')} aria-describedby={described('tk-chat', 'target', false)} onInput={e => set({ chatId: value(e) })} />
      </FieldShell>
      <div class="field sf-field">
        <label for="tk-preset">{t('tk.f.preset')}</label>
        <select id="tk-preset" data-testid="tk-preset" value={f.presetId} onChange={e => set({ presetId: value(e) })}>
          <option value="">{t('tk.f.presetDefault')}</option>
          {(presets.data?.presets ?? []).map(p => <option key={p.id} value={p.id}>{p.name} ({p.id})</option>)}
        </select>
      </div>
      <div class="field sf-field">
        <label for="tk-channel">{t('tk.f.channel')}</label>
        <select id="tk-channel" data-testid="tk-channel" value={f.channel} onChange={e => set({ channel: value(e), model: '' })}>
          <option value="">{t('tk.f.channelDefault')}</option>
          {(channels.data ?? []).filter(c => c.enabled !== false || c.name === f.channel).map(c => <option key={c.name} value={c.name}>{c.name}</option>)}
        </select>
      </div>
      <div class="field sf-field">
        <label for="tk-model">{t('tk.f.model')}</label>
        <select id="tk-model" data-testid="tk-model" value={f.model} disabled={!f.channel} onChange={e => set({ model: value(e) })}>
          <option value="">{t('tk.f.modelDefault')}</option>
          {[...new Set([...models, ...(f.model ? [f.model] : [])])].map(m => <option key={m} value={m}>{m}</option>)}
        </select>
      </div>
      <div class="field sf-field">
        <label for="tk-missed">{t('tk.f.missed')}</label>
        <select id="tk-missed" data-testid="tk-missed" value={f.missed} aria-describedby="tk-missed-help" onChange={e => set({ missed: value(e) as MissedPolicy })}>
          <option value="skip">{t('tk.f.missed.skip')}</option>
          <option value="late">{t('tk.f.missed.late')}</option>
        </select>
        <small class="help" id="tk-missed-help">{t('tk.f.missedHelp')}</small>
      </div>
      <FieldShell id="tk-budget" label={t('tk.f.budget')} help={t('tk.f.budgetHelp')} messages={msgs('budget')} testid="tk-budget">
        <input id="tk-budget" type="number" min={0} step="any" inputMode="decimal" data-testid="tk-budget" value={f.budget} {...invalid('budget')} aria-describedby={described('tk-budget', 'budget', true)} onInput={e => set({ budget: value(e) })} />
      </FieldShell>
      <div class="field sf-field">
        <label class="check"><input type="checkbox" data-testid="tk-keep" checked={f.keepHistory} aria-describedby="tk-keep-help" onChange={e => set({ keepHistory: (e.target as HTMLInputElement).checked })} />{t('tk.f.keep')}</label>
        <small class="help" id="tk-keep-help">{t('tk.f.keepHelp')}</small>
      </div>
      <fieldset class="sf-group tk-tools" data-testid="tk-tools" aria-describedby="tk-tools-help">
        <legend>{t('tk.f.tools')}</legend>
        <small class="help" id="tk-tools-help">{t('tk.f.toolsHelp')}</small>
        {toolNames.length === 0 ? <p class="muted">{tools.loading ? t('loading') : t('tk.f.noTools')}</p>
          : <div class="tk-tool-list">{toolNames.map(name => <label key={name} class="check"><input type="checkbox" data-testid={`tk-tool-${name}`} checked={f.tools.includes(name)}
            onChange={e => set({ tools: (e.target as HTMLInputElement).checked ? [...f.tools, name] : f.tools.filter(x => x !== name) })} /><code>{name}</code></label>)}</div>}
      </fieldset>
      {formError && <div class="sf-wide" data-testid="tk-form-error"><ErrorBox error={formError} /></div>}
      <div class="sf-actions sf-wide">
        <button type="submit" class="primary" data-testid="tk-save" disabled={busy} aria-busy={busy || undefined}>{t(task ? 'tk.save' : 'tk.create')}</button>
        <button type="button" data-testid="tk-cancel" onClick={() => onDone(false)}>{t('tk.cancel')}</button>
      </div>
    </form>
  </Card>
}
