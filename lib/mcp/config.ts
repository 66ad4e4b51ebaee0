// The `mcp` section: the plugin's own MCP endpoint (/mcp) and the MCP servers the bot uses (edited on
// the MCP servers page; lib/mcp/manager.ts writes it). lib/config/README.md, "A domain's section".
import { z } from 'zod'
import { toDict } from '../core/dict.js'
import { doc } from '../config/field-doc.js'

export const mcpSection = doc(z.strictObject({
  server: doc(z.strictObject({
    apiKey: doc(z.string(), ['Endpoint API key', '接口 API 密钥', 'The endpoint is off until a key is set. Shown masked; a mask sent back keeps the key.', '设置密钥前接口关闭。显示为掩码；保持掩码不变即保留原密钥。'], { default: '' }),
    tools: doc(z.array(z.string()).default([]), ['Exposed tools', '开放的工具', 'Empty: every enabled tool.', '留空：所有已启用的工具。'], {
      note: 'Tools exposed (empty: every enabled tool).'
    }),
    offeredTools: doc(z.array(z.string()).default([]), ['Tools switched on for /mcp', '在 /mcp 开放的工具', 'fetch_url, custom tools and script tools are offered to MCP clients only when listed here (registry names).', 'fetch_url、自定义工具和脚本工具只有列在这里（注册名）时才开放给 MCP 客户端。'], {
      note: 'Per-tool switch "offered on /mcp" (registry names). fetch_url, custom tools and script tools are off until listed in offeredTools; any other tool listed in withheldTools is not offered.'
    }),
    withheldTools: doc(z.array(z.string()).default([]), ['Tools switched off for /mcp', '在 /mcp 关闭的工具', 'Other tools listed here (registry names) are not offered to MCP clients.', '列在这里（注册名）的其他工具不开放给 MCP 客户端。'])
  }), ['MCP endpoint', 'MCP 接口', 'The plugin\'s own MCP endpoint at /mcp.', '插件自己的 MCP 接口 /mcp。'], {
    note: 'Our own MCP endpoint at /mcp: off until an API key is set.'
  }),
  servers: doc(z.record(z.string(), z.record(z.string(), z.unknown())).transform((s) => toDict(s)), ['MCP servers', 'MCP 服务器', 'Edited on the MCP servers page.', '在“MCP 服务”页面编辑。'], { default: {} })
}), ['MCP', 'MCP', 'Our own MCP endpoint and the MCP servers the bot uses.', '本插件的 MCP 接口，以及机器人使用的 MCP 服务器。'])
