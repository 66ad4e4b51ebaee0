// Numbers and formats that differ between the emulated hosts.
import type { Profile } from './types.js'

export interface LimitDefaults {
  /** ms a group stays quiet after a message (TRSS groupCD / Miao groupGlobalCD) */
  groupCD: number
  /** ms a user stays quiet in a group after a message (singleCD) */
  singleCD: number
  /** ms within which an identical raw_message from the same user is dropped */
  duplicateMs: number
  /** TRSS arms cooldowns when a message passes the @/alias gate, Miao only after a rule consumed it */
  armOn: 'gate' | 'handled'
}

export const LIMITS: Record<Profile, LimitDefaults> = {
  miao: { groupCD: 0, singleCD: 1000, duplicateMs: 200, armOn: 'handled' },
  trss: { groupCD: 500, singleCD: 2000, duplicateMs: 1000, armOn: 'gate' }
}

export const HOST_PACKAGE_NAME: Record<Profile, string> = { miao: 'miao-yunzai', trss: 'trss-yunzai' }
export const HOST_VERSION = '3.1.3'

export const REFUSAL_MASTER = '暂无权限，只有主人才能操作'
export const REFUSAL_OWNER = '暂无权限，只有群主才能操作'
export const REFUSAL_ADMIN = '暂无权限，只有管理员才能操作'
export const MIAO_MEMBER_LOADING = '数据加载中，请稍后再试'
export const CONTEXT_TIMEOUT_TEXT = '操作超时已取消'
