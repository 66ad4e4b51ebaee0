// The one rule for a tool's name (custom tools, script tools, the model-facing aliases): OpenAI's
// function-name rule, ^[a-zA-Z0-9_-]{1,64}$, stricter than MCP's (which also allows `.`, up to 128),
// so a name that passes serves the chat and our /mcp endpoint as it is.
import { z } from 'zod'
import { AppError } from '../core/errors.js'

export const TOOL_NAME_MAX = 64
const CHARS = 'a-zA-Z0-9_-'
const TOOL_NAME = new RegExp(`^[${CHARS}]{1,${TOOL_NAME_MAX}}$`)
/** every character a tool name may not hold (alias.ts replaces them) */
export const NON_NAME_CHARS = new RegExp(`[^${CHARS}]`, 'g')
const TOOL_NAME_MESSAGE = `name must be 1-${TOOL_NAME_MAX} letters, digits, _ or -`

export const isToolName = (name: string): boolean => TOOL_NAME.test(name)

/** `name` when it is a valid tool name, else INVALID_ARGS (`hint` adds to the message). */
export function checkToolName (name: string, hint = ''): string {
  if (!isToolName(name)) throw new AppError('INVALID_ARGS', `${TOOL_NAME_MESSAGE}${hint}`)
  return name
}

/** The same rule as a zod field (the custom tool schema; schemas.ts `toolNameField` names an existing tool). */
export const toolNameSchema = z.string({ error: 'name is required' }).regex(TOOL_NAME, TOOL_NAME_MESSAGE)
