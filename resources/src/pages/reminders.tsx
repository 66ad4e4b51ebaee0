// Reminders (GET /api/reminders, DELETE /api/reminders/:id): the pending reminders users set in chat,
// soonest first, filtered by user or group, paged; each can be cancelled.
import { useState } from 'preact/hooks'
import { api } from '../api'
import { t, tv } from '../i18n'
import { Pager, usePage } from '../paging'
import type { Reminder } from '../../../lib/reminders/types'
import { Act, Card, EmptyState, PageButton, Table, View, confirmDanger, toast } from '../ui'

/** A reminder as GET /api/reminders answers it (routes/reminders.ts). */
type ReminderItem = Reminder & { next: string, repeat?: string, timeZone: string }

export default function Reminders () {
  const [user, setUser] = useState('')
  const [group, setGroup] = useState('')
  const [filter, setFilter] = useState('')
  const list = usePage<ReminderItem>(`/api/reminders${filter}`)
  const apply = (): void => {
    const q = new URLSearchParams()
    if (user.trim()) q.set('userId', user.trim())
    if (group.trim()) q.set('groupId', group.trim())
    setFilter(q.size ? `?${q.toString()}` : '')
  }
  return <div>
    <Card title={t('reminders')} extra={<button data-testid="rm-refresh" onClick={list.reload}>{t('refresh')}</button>}>
      <p class="muted">{t('rm.hint')}</p>
      <div class="row">
        <input data-testid="rm-user" aria-label={t('rm.filterUser')} placeholder={t('rm.filterUser')} value={user} onInput={e => setUser((e.target as HTMLInputElement).value)} onKeyDown={e => { if (e.key === 'Enter') apply() }} />
        <input data-testid="rm-group" aria-label={t('rm.filterGroup')} placeholder={t('rm.filterGroup')} value={group} onInput={e => setGroup((e.target as HTMLInputElement).value)} onKeyDown={e => { if (e.key === 'Enter') apply() }} />
        <button data-testid="rm-filter" onClick={apply}>{t('rm.filter')}</button>
      </div>
      <View load={list} isEmpty={d => d.items.length === 0} empty={<EmptyState text={t('es.reminders')} action={<PageButton page="chat" testid="rm-empty-chat" kind="">{t('es.toChat')}</PageButton>} />}>{d => <Table cols={[t('rm.next'), t('rm.message'), t('rm.user'), t('rm.chat'), t('rm.repeat'), '']}
        rows={d.items.map((r: ReminderItem) => [
          <span data-testid={`rm-next-${r.id}`} title={r.timeZone}>{r.next}</span>,
          <span data-testid={`rm-msg-${r.id}`}>{r.message}</span>,
          r.nickname ? `${r.nickname} (${r.userId})` : r.userId,
          r.groupId ? tv('rm.group', { id: r.groupId }) : t('rm.private'),
          r.repeat ? <span>{r.repeat}{r.fired ? <span class="muted"> · {tv('rm.fired', { n: r.fired })}</span> : null}</span> : t('rm.once'),
          <Act kind="danger" testid={`rm-cancel-${r.id}`} run={async () => {
            if (!await confirmDanger(tv('cf.cancelReminder', { message: r.message }))) return
            await api(`/api/reminders/${encodeURIComponent(r.id)}`, { method: 'DELETE' })
            toast(t('rm.cancelled'))
            list.reload()
          }}>{t('rm.cancel')}</Act>])} />}</View>
      <Pager page={list} testid="rm-pager" />
    </Card>
  </div>
}
