// The bot in a chat (issue 18): how answers go out, what the bot reads, the group log, proactive replies and
// event reactions, globally (GET/PUT /api/config) and per group (GET/PUT /api/config/groups/:groupId, where
// an unset field inherits the global value).
import { api } from '../api'
import type { Config } from '../contracts'
import { useGroupEditor } from '../group-editor'
import { t } from '../i18n'
import { getAt, SettingsForm, type FieldSection, type SettingsField as Field } from '../form-engine'
import { Card, ErrorBox, View, useLoad } from '../ui'

const DELIVERY: Field[] = [
  { path: 'delivery.markdown', group: 'delivery.markdown' },
  { path: 'delivery.longAnswer', group: 'delivery.longAnswer' },
  { path: 'delivery.longAnswerChars', group: 'delivery.longAnswerChars' },
  { path: 'delivery.splitSentences', group: 'delivery.splitSentences' },
  { path: 'delivery.sentenceDelayMs', group: 'delivery.sentenceDelayMs' },
  { path: 'delivery.quote', group: 'delivery.quote' },
  { path: 'delivery.atSender', group: 'delivery.atSender' },
  { path: 'delivery.thinkingNoticeMs', group: 'delivery.thinkingNoticeMs' },
  { path: 'delivery.thinkingNoticeText', group: 'delivery.thinkingNoticeText' },
  { path: 'delivery.stream', group: 'delivery.stream' },
  { path: 'delivery.streamMinChars', group: 'delivery.streamMinChars' },
  { path: 'delivery.streamMaxPieces', group: 'delivery.streamMaxPieces' }
]
const CONVERSATION: Field[] = [
  { path: 'chat.groupConversation', group: 'conversation' },
  { path: 'chat.burstWindowMs', group: 'burstWindowMs' },
  { path: 'trigger.keywords', group: 'trigger.keywords' }
]
const INPUT: Field[] = [
  { path: 'input.quoted' },
  { path: 'input.forwardMaxMessages' },
  { path: 'input.captionChannel', channel: true },
  { path: 'input.captionModel' },
  { path: 'input.transcription.baseUrl' },
  { path: 'input.transcription.apiKey' },
  { path: 'input.transcription.model' }
]
const GROUP_LOG: Field[] = [
  { path: 'groupLog.enabled' },
  { path: 'groupLog.maxMessages' },
  { path: 'groupLog.contextMessages', group: 'contextMessages' },
  { path: 'groupLog.excludeUsers' },
  { path: 'groupLog.excludeGroups' }
]
const PROACTIVE: Field[] = [
  { path: 'proactive.enabled', group: 'proactive.enabled' },
  { path: 'proactive.probability', group: 'proactive.probability' },
  { path: 'proactive.busyMessages', group: 'proactive.busyMessages' },
  { path: 'proactive.busyMultiplier', group: 'proactive.busyMultiplier' },
  { path: 'proactive.quietMessages', group: 'proactive.quietMessages' },
  { path: 'proactive.quietMultiplier', group: 'proactive.quietMultiplier' },
  { path: 'proactive.hourlyCap', group: 'proactive.hourlyCap' },
  { path: 'proactive.dailyCap', group: 'proactive.dailyCap' },
  { path: 'proactive.cooldownSeconds', group: 'proactive.cooldownSeconds' }
]
const EVENTS: Field[] = [
  { path: 'tools.eventProbability' },
  { path: 'tools.eventProbabilities.poke', group: 'events.poke' },
  { path: 'tools.eventProbabilities.join', group: 'events.join' },
  { path: 'tools.eventProbabilities.recall', group: 'events.recall' }
]

// issue 19: who may ask the bot to act on a group (the QQ action tools); the cap and the approval tier are global only
const QQ_ACTIONS: Field[] = [
  { path: 'qqActions.enabled', group: 'qqActions.enabled' },
  { path: 'qqActions.allowedUsers', group: 'qqActions.allowedUsers' },
  { path: 'qqActions.adminsMayAsk', group: 'qqActions.adminsMayAsk' },
  { path: 'qqActions.membersMaySend', group: 'qqActions.membersMaySend' },
  { path: 'qqActions.maxMuteSeconds' },
  { path: 'qqActions.approvalRisk' }
]

// issue 20: the account-risk guard (lib/guard), globally and per group
const GUARD: Field[] = [
  { path: 'guard.enabled', group: 'guard.enabled' },
  { path: 'guard.maxPerMinute', group: 'guard.maxPerMinute' },
  { path: 'guard.maxPerHour', group: 'guard.maxPerHour' },
  { path: 'guard.longChars', group: 'guard.longChars' },
  { path: 'guard.maxLongPerHour', group: 'guard.maxLongPerHour' },
  { path: 'guard.repeatWindowMinutes', group: 'guard.repeatWindowMinutes' },
  { path: 'guard.maxRepeats', group: 'guard.maxRepeats' },
  { path: 'guard.maxLinksPerHour', group: 'guard.maxLinksPerHour' },
  { path: 'guard.maxFailuresPerHour', group: 'guard.maxFailuresPerHour' },
  { path: 'guard.riskAt', group: 'guard.riskAt' },
  { path: 'guard.recoverBelow', group: 'guard.recoverBelow' },
  { path: 'guard.coolDownMinutes', group: 'guard.coolDownMinutes' },
  { path: 'guard.slowDownMs', group: 'guard.slowDownMs' },
  { path: 'guard.forwardAboveChars', group: 'guard.forwardAboveChars' },
  { path: 'guard.forwardAs', group: 'guard.forwardAs' },
  { path: 'guard.pauseProactive', group: 'guard.pauseProactive' },
  { path: 'guard.tellMaster', group: 'guard.tellMaster' }
]

// issue 19: how many tools go to the model per request, and the reminders' limits (global only)
const TOOLS: Field[] = [
  { path: 'tools.maxToolsPerRequest' },
  { path: 'tools.alwaysOnTools' }
]
const REMINDERS: Field[] = [
  { path: 'reminders.enabled' },
  { path: 'reminders.timezone' },
  { path: 'reminders.maxPerUser' },
  { path: 'reminders.maxPerGroup' },
  { path: 'reminders.minIntervalMinutes' },
  { path: 'reminders.maxMessageChars' },
  { path: 'reminders.groupRecurringNeedsAdmin' },
  { path: 'reminders.lateAfterSeconds' }
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
