// The conversations in the bot's store: the list with clear and delete, and one conversation's messages
// (the bot's answers as markdown, safely: markdown.tsx; the others as written, line breaks kept).
import { useState } from 'preact/hooks'
import { api } from '../api'
import { locale, t, tv } from '../i18n'
import { Markdown } from '../markdown'
import { Pager, usePage } from '../paging'
import type { ConversationItem, StoredMessage } from '../contracts'
import { Act, Card, EmptyState, PageButton, Table, View, confirmDanger, useLoad } from '../ui'
import './conversations.css'

function Messages ({ id }: { id: string }) {
  const msgs = useLoad<StoredMessage[]>(`/api/conversations/${encodeURIComponent(id)}/messages?limit=200`)
  return <Card title={id} testid="conv-messages">
    <View load={msgs} isEmpty={d => d.length === 0}>{d => <div class="conv-msgs">{d.map((m, i) => {
      const text = typeof m.content === 'string' ? m.content : JSON.stringify(m.content)
      return <article key={i} class="conv-msg" data-testid="conv-msg" data-role={m.role}>
        <div><b>{t(`role.${m.role}`) === `role.${m.role}` ? m.role : t(`role.${m.role}`)}</b> <span class="muted">{m.timestamp ? new Date(m.timestamp).toLocaleString(locale()) : ''}</span></div>
        {m.role === 'assistant' ? <Markdown text={text} testid="conv-text" /> : <div class="conv-plain" data-testid="conv-text">{text}</div>}
      </article>
    })}</div>}</View>
  </Card>
}

export default function Conversations () {
  const list = usePage<ConversationItem>('/api/conversations/list')
  const [sel, setSel] = useState<string | null>(null)
  return <div>
    <Card title={t('conversations')} extra={<>
      <button onClick={list.reload}>{t('refresh')}</button>
      <Act kind="danger" testid="conv-clear-all" run={async () => { if (await confirmDanger(tv('cf.clearConvs', { n: list.data?.total ?? 0 }))) { await api('/api/conversations/clear-all', { method: 'DELETE' }); setSel(null); list.reload() } }}>{t('clearAll')}</Act></>}>
      <View load={list} isEmpty={d => d.items.length === 0} empty={<EmptyState text={t('es.conversations')} action={<PageButton page="chat" testid="conv-empty-chat">{t('es.toChat')}</PageButton>} />}>{d => <Table cols={['ID', t('userId'), t('groupId'), t('messages'), '']}
        rows={d.items.map((c: ConversationItem) => [<a href="#" data-testid={`conv-${c.id}`} onClick={e => { e.preventDefault(); setSel(c.id) }}>{c.id}</a>,
          c.userId, c.groupId, c.messageCount,
          <div class="row">
            <Act testid={`conv-clear-${c.id}`} run={async () => { if (!await confirmDanger(tv('cf.clearCtx', { name: c.id }))) return; await api('/api/context/clear', { json: { conversationId: c.id } }); list.reload() }}>{t('clear')}</Act>
            <Act kind="danger" testid={`conv-delete-${c.id}`} run={async () => { if (!await confirmDanger(tv('cf.delConv', { name: c.id }))) return; await api(`/api/conversations/${encodeURIComponent(c.id)}`, { method: 'DELETE' }); if (sel === c.id) setSel(null); list.reload() }}>{t('delete')}</Act>
          </div>])} />}</View>
      <Pager page={list} testid="conv-pager" />
    </Card>
    {sel && <Messages key={sel} id={sel} />}
  </div>
}
