// The `web` section: the embedded web server of the dashboard and the API (routes/, started by
// lib/plugin.ts), its sessions and the private hosts that server-side fetches may reach
// (lib/web/outbound.ts). Not `webTools` (lib/web/config.ts). lib/config/README.md, "A domain's section".
import { z } from 'zod'
import { doc } from './field-doc.js'

export const webServerSection = doc(z.strictObject({
  host: doc(z.string().min(1), ['Listen address', '监听地址', 'Address of the web server (0.0.0.0: every interface). Applies after a restart.', 'Web 服务监听的地址（0.0.0.0：所有网卡）。重启后生效。'], {
    default: '0.0.0.0',
    note: 'Address of the embedded web server (0.0.0.0: every interface; dashboard at /, API at /api). Applies after a restart.'
  }),
  port: doc(z.number().int().min(0).max(65535), ['Port', '端口', 'Port of the dashboard and API (0-65535). Applies after a restart.', '控制台和 API 的端口（0-65535）。重启后生效。'], { default: 2537 }),
  sharePort: doc(z.boolean(), ['Share the host\'s port', '共享宿主端口', 'Under TRSS-Yunzai: also serve on the host\'s own port under /lingxi.', 'TRSS-Yunzai 下：同时在宿主自己的端口的 /lingxi 下提供服务。'], { default: true }),
  publicUrl: doc(z.union([z.literal(''), z.url({ protocol: /^https?$/ })]), ['Public address', '公开地址', 'Address used in login links, e.g. https://bot.example.com (empty: detected).', '登录链接中使用的地址，如 https://bot.example.com（留空：自动检测）。'], { default: '' }),
  allowedOrigins: doc(z.array(z.url()), ['Allowed origins (CORS)', '允许的来源（CORS）', 'Web origins allowed to call the API from a browser; empty: none.', '允许在浏览器中调用 API 的网页来源；留空：不允许。'], { default: [] }),
  sessionTtlHours: doc(z.number().min(0.05).max(24 * 365), ['Session lifetime (hours)', '登录有效期（小时）', 'How long a dashboard login lasts.', '控制台登录后保持有效的时间。'], {
    default: 24,
    note: 'Session lifetime after login, in hours.'
  }),
  bodyLimitKb: doc(z.number().int().min(16).max(102400), ['Request body limit (KB)', '请求体上限（KB）', 'Largest request body the API accepts.', 'API 接受的最大请求体。'], {
    default: 1024,
    note: 'Largest accepted request body, in kilobytes.'
  }),
  loginRateLimit: doc(z.number().int().min(1).max(1000), ['Login attempts per minute', '每分钟登录尝试次数', 'Failed logins (and MCP key attempts) allowed per minute and client address.', '每个客户端地址每分钟允许的失败登录（以及 MCP 密钥）尝试次数。'], { default: 10 }),
  trustProxy: doc(z.boolean().default(false), ['Behind a reverse proxy', '位于反向代理之后', 'Take the client address from X-Forwarded-For / X-Real-IP. Leave off when the port is reached directly.', '从 X-Forwarded-For / X-Real-IP 读取客户端地址。端口直接对外时请保持关闭。'], {
    note: 'Behind a reverse proxy (nginx, Caddy...): true takes the client address from X-Forwarded-For (last entry) or X-Real-IP, so each client gets its own rate-limit bucket. Leave false when the port is reached directly: those headers could then be forged by anyone.'
  }),
  /** host names or addresses that server-side fetches of chosen URLs may reach although not public (lib/web/outbound.ts) */
  allowPrivateHosts: doc(z.array(z.string().trim().min(1).max(253)).max(100).default([]), ['Private hosts allowed for fetches', '允许访问的内网主机', 'Host names or addresses that links from users, models and other servers (images, voice, custom tools, remote presets) may reach although not public, e.g. a LAN image server. Empty (recommended): only public addresses.', '用户、模型或其他服务器给出的链接（图片、语音、自定义工具、远程预设）可以访问的内网主机名或地址，如局域网里的图片服务器。留空（推荐）：只允许公网地址。'], {
    note: 'Host names or addresses (e.g. a LAN image server) that URLs chosen by users, models or other servers may reach although not public: images, voice messages, custom tools, remote presets. Empty (recommended): loopback, LAN, link-local and metadata addresses are refused.'
  })
}), ['Web server', 'Web 服务', 'The embedded web server of the dashboard and the API.', '控制台和 API 所在的内置 Web 服务。'])
