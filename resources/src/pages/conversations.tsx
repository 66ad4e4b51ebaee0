import { useState } from 'preact/hooks'
import { api } from '../api'
import { t } from '../i18n'
import { Act, Card, Table, View, asArray, useLoad } from '../ui'

function Messages ({ id }: { id: string }) {
  const msgs = useLoad(`/api/conversations/${encodeURIComponent(id)}/messages?limit=200`)
  return <Card title={id} testid="conv-messages">
    <View load={msgs} isEmpty={d => asArray(d, 'messages').length === 0}>{d => <div>{asArray(d, 'messages').map((m: any, i) =>
      <p key={i}><b>{m.role}</b> <span class="muted">{m.timestamp ? new Date(m.timestamp).toLocaleString() : ''}</span><br />{typeof m.content === 'string' ? m.content : JSON.stringify(m.content)}</p>)}</div>}</View>
  </Card>
}

export default function Conversations () {
  const list = useLoad('/api/conversations/list')
  const [sel, setSel] = useState<string | null>(null)
  return <div>
    <Card title={t('conversations')} extra={<>
      <button onClick={list.reload}>{t('refresh')}</button>
      <Act kind="danger" run={async () => { if (confirm(t('confirmDelete'))) { await api('/api/conversations/clear-all', { method: 'DELETE' }); setSel(null); list.reload() } }}>{t('clearAll')}</Act></>}>
      <View load={list} isEmpty={d => asArray(d, 'conversations').length === 0}>{d => <Table cols={['id', t('userId'), t('groupId'), t('messages'), '']}
        rows={asArray(d, 'conversations').map((c: any) => [<a href="#" data-testid={`conv-${c.id ?? c.conversationId}`} onClick={e => { e.preventDefault(); setSel(c.id ?? c.conversationId) }}>{c.id ?? c.conversationId}</a>,
          c.userId, c.groupId, c.messageCount,
          <div class="row">
            <Act run={async () => { await api('/api/context/clear', { json: { conversationId: c.id ?? c.conversationId } }); list.reload() }}>{t('clear')}</Act>
            <Act kind="danger" testid={`conv-delete-${c.id ?? c.conversationId}`} run={async () => { await api(`/api/conversations/${encodeURIComponent(c.id ?? c.conversationId)}`, { method: 'DELETE' }); if (sel === (c.id ?? c.conversationId)) setSel(null); list.reload() }}>{t('delete')}</Act>
          </div>])} />}</View>
    </Card>
    {sel && <Messages key={sel} id={sel} />}
  </div>
}
