import type { ChatScope, ToolResult } from '../../chat/contracts.js'
import type { RegisteredTool } from '../types.js'

export const text = (value: unknown, isError = false): ToolResult => ({
  content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value, null, 2) }],
  isError
})

export const str = (v: unknown): string | undefined => typeof v === 'string' && v.trim() ? v.trim() : undefined

export type BuiltinTool = Omit<RegisteredTool, 'source'>

/** Tools about the current group (its history, its info): offered in group chats only. */
export const inGroup = (s: ChatScope): boolean => s.groupId !== undefined && s.groupId !== ''
/** Tools that act in the current QQ chat (send, speak, reminders): a chat through the bot, not the API or MCP. */
export const inQqChat = (s: ChatScope): boolean => s.via === 'bot'
