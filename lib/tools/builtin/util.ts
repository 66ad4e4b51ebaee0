import type { ChatScope, ToolResult } from '../../chat/contracts.js'
import { dependencyReport, featureAvailable, missingFor, type Feature } from '../../core/packages.js'
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

/**
 * Why the tools of `feature` cannot work now (a package it needs is not installed, lib/core/packages.ts),
 * or undefined when they can; `what` names the feature in the text.
 */
export function featureOff (feature: Feature, what: string): string | undefined {
  if (featureAvailable(feature)) return undefined
  return `${what} unavailable: the package ${missingFor(feature).join(', ')} is not installed (run: ${dependencyReport().command})`
}
