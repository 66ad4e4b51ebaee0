// The overview's storage card: where the data lives (the data folder's files or PostgreSQL), the Redis
// shared with other copies of the plugin, and the copies seen in the last minute with their last heartbeat
// (GET /api/system/instances; README "Several bots"). Refreshed every 30 s.
import { useEffect } from 'preact/hooks'
import { locale, t } from './i18n'
import { Card, Table, View, useLoad } from './ui'

interface Instance { id: string, name: string, version: string, startedAt: number, lastSeen: number, self: boolean }
interface Instances {
  instances: Instance[]
  storage: { database: 'files' | 'postgresql', redis: { address: string, from: string } | null }
}

const ago = (ms: number): string => {
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000))
  return s < 60 ? t('st.secondsAgo').replace('{n}', String(s)) : new Date(ms).toLocaleTimeString(locale())
}

export function InstancesCard () {
  const load = useLoad<Instances>('/api/system/instances')
  useEffect(() => {
    const timer = setInterval(() => load.reload(), 30_000)
    return () => clearInterval(timer)
  }, [])
  return <Card title={t('st.title')} testid="instances-card">
    <View load={load} isEmpty={() => false}>{d => <div>
      <div class="grid">
        <div class="stat">{t('st.database')}<b data-testid="storage-database">{t(`st.db.${d.storage.database}`)}</b></div>
        <div class="stat">{t('st.redis')}<b data-testid="storage-redis">{d.storage.redis ? d.storage.redis.address : t('st.none')}</b>
          {d.storage.redis && <span class="muted">{d.storage.redis.from}</span>}</div>
        <div class="stat">{t('st.instances')}<b data-testid="instance-count">{d.instances.length}</b></div>
      </div>
      <Table cols={[t('st.name'), t('version'), t('st.started'), t('st.lastSeen')]} rows={d.instances.map(i => [
        <span data-testid="instance-name">{i.name}{i.self && <span class="muted"> ({t('st.self')})</span>}</span>,
        i.version, new Date(i.startedAt).toLocaleString(locale()), ago(i.lastSeen)])} />
    </div>}</View>
  </Card>
}
