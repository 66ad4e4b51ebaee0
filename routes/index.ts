// The web part of the plugin: every group's router in order, and the web server's start as one part
// of the composition root (lib/plugin.ts). Earlier routers win where paths overlap (the variant that
// owns a path in docs/api.md, Groups of routes, comes first).
import type Router from '@koa/router'
import { errorText } from '../lib/core/errors.js'
import { publishAddress, withdrawAddress } from '../lib/auth/terminal-links.js'
import type { Domain, Runtime } from '../lib/runtime.js'
import { startWebServer, type WebServer } from './_http/server.js'
import { openapiRoutes } from './_http/openapi.js'
import { authRoutes } from './auth.js'
import { channelRoutes } from './channels.js'
import { configRoutes } from './config.js'
import { logsRoutes } from './logs.js'
import { statsRoutes } from './stats.js'
import { systemRoutes } from './system.js'
import { systemInstanceRoutes } from './system-instances.js'
import { testPanelRoutes } from './test-panel.js'
import { skillsRoutes } from './skills.js'
import { skillToolRoutes } from './skills-tools.js'
import { mcpRoutes } from './mcp.js'
import { mcpEndpointRoutes } from './mcp-endpoint.js'
import { presetRoutesB } from './presets.js'
import { presetRoutesA } from './presets-a.js'
import { drawingRoutes } from './drawing.js'
import { gameRoutes } from './game.js'
import { conversationRoutesB } from './conversations.js'
import { chatRoutesA } from './chat.js'
import { chatWhyRoutes } from './chat-why.js'
import { toolsRoutes } from './tools.js'
import { toolFileRoutes } from './tools-files.js'
import { toolRoutesA } from './tools-a.js'
import { memoryRoutes } from './memory.js'
import { memoryReviewRoutes } from './memory-review.js'
import { memoriesRoutesA } from './memories-a.js'
import { knowledgeRoutes } from './knowledge.js'
import { knowledgeBaseRoutes } from './knowledge-bases.js'
import { knowledgeEmbeddingRoutes } from './knowledge-embedding.js'
import { remindersRoutes } from './reminders.js'
import { tasksRoutes } from './tasks.js'
import { backupRoutes } from './backup.js'
import { guardRoutes } from './guard.js'
import { governanceRoutes } from './governance.js'

/** The web server when it runs, or why it does not (the bot keeps running without it). */
type WebState = { server: WebServer; error?: undefined } | { server?: undefined; error: string }

declare module '../lib/runtime.js' {
  interface Services { web: WebState }
}

export function buildRouters (rt: Runtime): Router[] {
  // Order matters where paths overlap: the variant that owns a path in docs/api.md comes first.
  return [
    mcpEndpointRoutes(rt), // first: /mcp overlaps nothing, and tool calls skip the /api routers' matching
    authRoutes(rt),
    openapiRoutes(rt), // GET /api/openapi.json, the document of every router here
    systemRoutes(rt),
    systemInstanceRoutes(rt),
    statsRoutes(rt),
    logsRoutes(rt),
    channelRoutes(rt), // before configRoutes: /api/config/:section would take /api/config/channels
    testPanelRoutes(rt),
    ...presetRoutesB(rt), // before configRoutes (GET /api/config/presets) and before variant A (/api/presets/config)
    presetRoutesA(rt),
    drawingRoutes(rt),
    gameRoutes(rt),
    conversationRoutesB(rt), // before chatRoutesA: B's /api/conversations/list and DELETE :id win
    chatRoutesA(rt),
    chatWhyRoutes(rt),
    configRoutes(rt),
    skillsRoutes(rt),
    skillToolRoutes(rt), // the tool side of /api/skills
    toolsRoutes(rt), // B's fixed paths, custom/js, then A's /api/tools/:name last (it would take them)
    toolFileRoutes(rt),
    toolRoutesA(rt),
    ...mcpRoutes(rt),
    memoryReviewRoutes(rt), // before memoryRoutes: its GET /api/memory/:id would take /pending
    memoryRoutes(rt),
    memoriesRoutesA(rt),
    knowledgeEmbeddingRoutes(rt), // before /api/knowledge/:id
    knowledgeBaseRoutes(rt), // before /api/knowledge/:id
    knowledgeRoutes(rt),
    remindersRoutes(rt),
    tasksRoutes(rt),
    backupRoutes(rt),
    guardRoutes(rt),
    governanceRoutes(rt)
  ]
}

/**
 * Starts the web server over every router. A server that cannot listen (the port and the next ones
 * taken, an address not available) is logged and leaves the bot running: `#lx面板` then says so.
 */
async function startWeb (rt: Runtime): Promise<void> {
  const routers = buildRouters(rt)
  let server: WebServer
  try {
    server = await startWebServer(rt, routers)
  } catch (err) {
    const error = errorText(err)
    rt.log.error(`The web server could not start (${error}); the bot commands keep working without the dashboard and the API`, {}, err)
    rt.provide('web', { error })
    return
  }
  rt.provide('web', { server })
  rt.onStop.push(() => server.close())
  // For `npm run login-link` (lib/auth/terminal-links.ts): the links it prints, and that a plugin runs.
  await publishAddress(rt.paths.dataDir, { localUrl: server.localUrl, urls: server.baseUrls() })
    .catch((err: unknown) => rt.log.warn(`The dashboard address for npm run login-link was not written (${errorText(err)})`))
  rt.onStop.push(() => withdrawAddress(rt.paths.dataDir).catch(() => undefined))
}

/** After every domain whose routes it serves (each router reaches its service when it is used). */
export const webPart: Domain = {
  name: 'web',
  provides: ['web'],
  needs: [],
  optional: ['channels', 'conversations', 'tools', 'skills', 'presets', 'presetResolver', 'drawing', 'game', 'memory', 'memoryExtractor', 'knowledge', 'mcp', 'mcpEndpoint'],
  start: startWeb
}
