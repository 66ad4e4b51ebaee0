// Group management on the standalone accounts, with the method names each host gives plugins (icqq's
// Group for Miao, TRSS's OneBot group): muteMember, muteAll, kickMember, setCard, setTitle, pokeMember,
// the notice (TRSS sendNotice, icqq announce), icqq's shareMusic and sendFile (Miao only), and the
// account's setEssenceMessage. Every call is recorded in `actions` (what a test checks reached the
// host); like QQ, a call the bot's role does not allow then fails (the plugin should never get there).
import type { Id, Member, Profile } from './types.js'

export interface GroupAction {
  action: 'mute' | 'muteAll' | 'kick' | 'card' | 'title' | 'poke' | 'notice' | 'music' | 'file' | 'essence'
  groupId: string
  userId?: string
  params: Record<string, unknown>
}

interface Deps {
  profile: Profile
  botId: Id
  actions: GroupAction[]
  role(groupId: Id, userId: Id): Member['role']
}

type Fn = (...a: never[]) => Promise<boolean>

/** The management methods of group `groupId`. */
export function groupActions (deps: Deps, groupId: Id): Record<string, Fn> {
  const gid = String(groupId)
  const botRole = (): Member['role'] => deps.role(groupId, deps.botId)
  /** records the call, then answers as QQ would: only the owner acts on admins, nobody on the owner */
  const act = (action: GroupAction['action'], params: Record<string, unknown>, userId?: Id, needs?: 'admin' | 'owner'): Promise<boolean> => {
    deps.actions.push({ action, groupId: gid, ...(userId !== undefined ? { userId: String(userId) } : {}), params })
    const mine = botRole()
    const target = userId === undefined ? undefined : deps.role(groupId, userId)
    const need = target === 'admin' || target === 'owner' ? 'owner' : needs
    if (target === 'owner' && String(userId) !== String(deps.botId)) return Promise.reject(new Error('cannot act on the group owner'))
    if (need === 'owner' && mine !== 'owner') return Promise.reject(new Error('the bot is not the group owner'))
    if (need === 'admin' && mine === 'member') return Promise.reject(new Error('the bot is not an admin'))
    return Promise.resolve(true)
  }
  const methods: Record<string, Fn> = {
    muteMember: ((userId: Id, duration: number) => act('mute', { duration }, userId, 'admin')) as Fn,
    muteAll: ((enable: boolean) => act('muteAll', { enable }, undefined, 'admin')) as Fn,
    kickMember: ((userId: Id) => act('kick', {}, userId, 'admin')) as Fn,
    setCard: ((userId: Id, card: string) => act('card', { card }, userId, String(userId) === String(deps.botId) ? undefined : 'admin')) as Fn,
    setTitle: ((userId: Id, title: string, duration: number) => act('title', { title, duration }, userId, 'owner')) as Fn,
    pokeMember: ((userId: Id) => act('poke', {}, userId)) as Fn
  }
  const notice = ((content: string) => act('notice', { content }, undefined, 'admin')) as Fn
  if (deps.profile === 'trss') methods.sendNotice = notice
  else {
    methods.announce = notice
    methods.shareMusic = ((platform: string, id: string) => act('music', { platform, id })) as Fn
    methods.sendFile = ((file: string, _pid: unknown, name?: string) => act('file', { file, name })) as Fn
  }
  return methods
}

/** The account's setEssenceMessage (TRSS and icqq put it on the account, by message id alone). */
export function essenceAction (actions: GroupAction[]): (id: Id) => Promise<boolean> {
  return (id) => {
    actions.push({ action: 'essence', groupId: '', params: { message_id: String(id) } })
    return Promise.resolve(true)
  }
}
