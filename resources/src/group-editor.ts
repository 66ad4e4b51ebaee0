// The state of a per-group settings editor (chat settings, voice replies): the group id typed, the
// group's view once opened and its save, through GET/PUT /api/config/groups/:groupId.
import { useState } from 'preact/hooks'
import { api, errText } from './api'
import type { GroupView } from './contracts'

export function useGroupEditor () {
  const [gid, setGid] = useState('')
  const [view, setView] = useState<GroupView | null>(null)
  const [error, setError] = useState<string | null>(null)
  const path = (id: string): string => `/api/config/groups/${encodeURIComponent(id)}`
  const open = async (): Promise<void> => {
    setError(null); setView(null)
    try { setView(await api<GroupView>(path(gid.trim()))) } catch (e) { setError(errText(e)) }
  }
  /** PUTs a patch of the opened group's settings and shows what the server answered */
  const save = async (patch: unknown): Promise<void> => {
    if (view) setView(await api<GroupView>(path(view.groupId), { method: 'PUT', json: patch }))
  }
  return { gid, setGid, view, error, open, save }
}
