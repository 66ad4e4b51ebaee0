// The bot in a chat (issue 18): how answers go out, what the bot reads, the group log, proactive replies and
// event reactions, globally (GET/PUT /api/config) and per group (GET/PUT /api/config/groups/:groupId, where
// an unset field inherits the global value).
import { api } from '../api'
import type { Config } from '../contracts'
import { useGroupEditor } from '../group-editor'
import { t } from '../i18n'
import { getAt, SettingsForm, type Field, type FieldSection } from '../settings'
import { Card, ErrorBox, View, useLoad } from '../ui'

const DELIVERY: Field[] = [
  { path: 'delivery.markdown', kind: 'enum', values: ['plain', 'keep'], group: 'delivery.markdown' },
  { path: 'delivery.longAnswer', kind: 'enum', values: ['forward', 'image', 'off'], group: 'delivery.longAnswer' },
  { path: 'delivery.longAnswerChars', kind: 'int', group: 'delivery.longAnswerChars' },
  { path: 'delivery.splitSentences', kind: 'bool', group: 'delivery.splitSentences' },
  { path: 'delivery.sentenceDelayMs', kind: 'int', group: 'delivery.sentenceDelayMs' },
  { path: 'delivery.quote', kind: 'bool', group: 'delivery.quote' },
  { path: 'delivery.atSender', kind: 'bool', group: 'delivery.atSender' },
  { path: 'delivery.thinkingNoticeMs', kind: 'int', group: 'delivery.thinkingNoticeMs' },
  { path: 'delivery.thinkingNoticeText', kind: 'text', group: 'delivery.thinkingNoticeText' }
]
const CONVERSATION: Field[] = [
  { path: 'chat.groupConversation', kind: 'enum', values: ['user', 'group'], group: 'conversation' },
  { path: 'chat.burstWindowMs', kind: 'int', group: 'burstWindowMs' },
  { path: 'trigger.keywords', kind: 'list', group: 'trigger.keywords' }
]
const INPUT: Field[] = [
  { path: 'input.quoted', kind: 'bool' },
  { path: 'input.forwardMaxMessages', kind: 'int' },
  { path: 'input.captionChannel', kind: 'channel' },
  { path: 'input.captionModel', kind: 'text' },
  { path: 'input.transcription.baseUrl', kind: 'text' },
  { path: 'input.transcription.apiKey', kind: 'secret' },
  { path: 'input.transcription.model', kind: 'text' }
]
const GROUP_LOG: Field[] = [
  { path: 'groupLog.enabled', kind: 'bool' },
  { path: 'groupLog.maxMessages', kind: 'int' },
  { path: 'groupLog.contextMessages', kind: 'int', group: 'contextMessages' },
  { path: 'groupLog.excludeUsers', kind: 'list' },
  { path: 'groupLog.excludeGroups', kind: 'list' }
]
const PROACTIVE: Field[] = [
  { path: 'proactive.enabled', kind: 'bool', group: 'proactive.enabled' },
  { path: 'proactive.probability', kind: 'number', group: 'proactive.probability' },
  { path: 'proactive.busyMessages', kind: 'int', group: 'proactive.busyMessages' },
  { path: 'proactive.busyMultiplier', kind: 'number', group: 'proactive.busyMultiplier' },
  { path: 'proactive.quietMessages', kind: 'int', group: 'proactive.quietMessages' },
  { path: 'proactive.quietMultiplier', kind: 'number', group: 'proactive.quietMultiplier' },
  { path: 'proactive.hourlyCap', kind: 'int', group: 'proactive.hourlyCap' },
  { path: 'proactive.dailyCap', kind: 'int', group: 'proactive.dailyCap' },
  { path: 'proactive.cooldownSeconds', kind: 'int', group: 'proactive.cooldownSeconds' }
]
const EVENTS: Field[] = [
  { path: 'tools.eventProbability', kind: 'number' },
  { path: 'tools.eventProbabilities.poke', kind: 'number', group: 'events.poke' },
  { path: 'tools.eventProbabilities.join', kind: 'number', group: 'events.join' },
  { path: 'tools.eventProbabilities.recall', kind: 'number', group: 'events.recall' }
]

// issue 19: who may ask the bot to act on a group (the QQ action tools); the cap and the approval tier are global only
const QQ_ACTIONS: Field[] = [
  { path: 'qqActions.enabled', kind: 'bool', group: 'qqActions.enabled' },
  { path: 'qqActions.allowedUsers', kind: 'list', group: 'qqActions.allowedUsers' },
  { path: 'qqActions.adminsMayAsk', kind: 'bool', group: 'qqActions.adminsMayAsk' },
  { path: 'qqActions.membersMaySend', kind: 'bool', group: 'qqActions.membersMaySend' },
  { path: 'qqActions.maxMuteSeconds', kind: 'int' },
  { path: 'qqActions.approvalRisk', kind: 'enum', values: ['high', 'medium', 'off'] }
]

// issue 20: the account-risk guard (lib/guard), globally and per group
const GUARD: Field[] = [
  { path: 'guard.enabled', kind: 'bool', group: 'guard.enabled' },
  { path: 'guard.maxPerMinute', kind: 'int', group: 'guard.maxPerMinute' },
  { path: 'guard.maxPerHour', kind: 'int', group: 'guard.maxPerHour' },
  { path: 'guard.longChars', kind: 'int', group: 'guard.longChars' },
  { path: 'guard.maxLongPerHour', kind: 'int', group: 'guard.maxLongPerHour' },
  { path: 'guard.repeatWindowMinutes', kind: 'int', group: 'guard.repeatWindowMinutes' },
  { path: 'guard.maxRepeats', kind: 'int', group: 'guard.maxRepeats' },
  { path: 'guard.maxLinksPerHour', kind: 'int', group: 'guard.maxLinksPerHour' },
  { path: 'guard.maxFailuresPerHour', kind: 'int', group: 'guard.maxFailuresPerHour' },
  { path: 'guard.riskAt', kind: 'int', group: 'guard.riskAt' },
  { path: 'guard.recoverBelow', kind: 'int', group: 'guard.recoverBelow' },
  { path: 'guard.coolDownMinutes', kind: 'number', group: 'guard.coolDownMinutes' },
  { path: 'guard.slowDownMs', kind: 'int', group: 'guard.slowDownMs' },
  { path: 'guard.forwardAboveChars', kind: 'int', group: 'guard.forwardAboveChars' },
  { path: 'guard.forwardAs', kind: 'enum', values: ['forward', 'image'], group: 'guard.forwardAs' },
  { path: 'guard.pauseProactive', kind: 'bool', group: 'guard.pauseProactive' },
  { path: 'guard.tellMaster', kind: 'bool', group: 'guard.tellMaster' }
]

// issue 19: how many tools go to the model per request, and the reminders' limits (global only)
const TOOLS: Field[] = [
  { path: 'tools.maxToolsPerRequest', kind: 'int' },
  { path: 'tools.alwaysOnTools', kind: 'list' }
]
const REMINDERS: Field[] = [
  { path: 'reminders.enabled', kind: 'bool' },
  { path: 'reminders.timezone', kind: 'text' },
  { path: 'reminders.maxPerUser', kind: 'int' },
  { path: 'reminders.maxPerGroup', kind: 'int' },
  { path: 'reminders.minIntervalMinutes', kind: 'int' },
  { path: 'reminders.maxMessageChars', kind: 'int' },
  { path: 'reminders.groupRecurringNeedsAdmin', kind: 'bool' },
  { path: 'reminders.lateAfterSeconds', kind: 'int' }
]

const CARDS: Array<[string, Field[]]> = [['delivery', DELIVERY], ['conversation', CONVERSATION], ['input', INPUT], ['groupLog', GROUP_LOG], ['proactive', PROACTIVE], ['events', EVENTS], ['qqActions', QQ_ACTIONS], ['tools', TOOLS], ['reminders', REMINDERS], ['guard', GUARD]]
const perGroup = (fields: Field[]): Field[] => fields.filter(f => f.group)

/** The global value of a field as a group inherits it: per event type, the general probability when unset. */
function globalValue (cfg: Config, f: Field): unknown {
  const v = getAt(cfg, f.path)
  return v === undefined && f.path.startsWith('tools.eventProbabilities.') ? cfg.tools.eventProbability : v
}

function GroupSettings ({ cfg }: { cfg: Config }) {
  const { gid, setGid, view, error, open, save } = useGroupEditor()
  const sections: FieldSection[] = CARDS.map(([name, fields]) => ({ title: t(`bs.card.${name}`), fields: perGroup(fields) })).filter(s => s.fields.length)
  return <Card title={t('bs.card.group')} testid="group-settings">
    <p class="muted">{t('bs.groupHint')}</p>
    <div class="row">
      <input data-testid="gs-id" aria-label={t('groupId')} placeholder={t('groupId')} inputmode="numeric" value={gid}
        onInput={e => setGid((e.target as HTMLInputElement).value)} onKeyDown={e => { if (e.key === 'Enter' && gid.trim()) void open() }} />
      <button data-testid="gs-open" onClick={open} disabled={!gid.trim()}>{t('bs.groupOpen')}</button>
    </div>
    {error && <ErrorBox error={error} />}
    {view && <>
      <p class="muted" data-testid="gs-state">{view.groupId} · {t(view.custom ? 'bs.groupCustom' : 'bs.groupNew')}</p>
      <SettingsForm key={`${view.groupId}:${JSON.stringify(view.overrides)}`} testid="gs-form" sections={sections}
        read={f => getAt(view.overrides, f.group!)} inherited={f => globalValue(cfg, f)}
        onSave={save} />
    </>}
  </Card>
}

export default function ChatSettings () {
  const load = useLoad<Config>('/api/config')
  return <View load={load} isEmpty={() => false}>{cfg => <div>
    <p class="muted">{t('bs.globalHint')}</p>
    {CARDS.map(([name, fields]) => <Card key={name} title={t(`bs.card.${name}`)} testid={`card-${name}`}>
      <SettingsForm key={JSON.stringify(fields.map(f => getAt(cfg, f.path)))} testid={`cs-${name}`} sections={[{ fields }]}
        read={f => getAt(cfg, f.path)} channels={cfg.channels.map(c => c.name)}
        onSave={async patch => { await api('/api/config', { method: 'PUT', json: patch }); load.reload() }} />
    </Card>)}
    <GroupSettings cfg={cfg} />
  </div>}</View>
}
