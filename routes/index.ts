// Starts the plugin's services and web server, with every group's router in order. Earlier routers
// win where paths overlap (DECISIONS part 2: the variant named first wins).
import type Router from '@koa/router'
import { initDomains } from '../lib/domains.js'
import { createRuntime, stopRuntime, type Runtime, type RuntimeOptions } from '../lib/runtime.js'
import { startWebServer, type WebServer } from './_http/server.js'
import { authRoutes } from './auth.js'
import { channelRoutes } from './channels.js'
import { configRoutes } from './config.js'
import { logsRoutes } from './logs.js'
import { statsRoutes } from './stats.js'
import { systemRoutes } from './system.js'
import { testPanelRoutes } from './test-panel.js'
import { skillsRoutes } from './skills.js'
import { mcpRoutes } from './mcp.js'
import { mcpEndpointRoutes } from './mcp-endpoint.js'
import { presetRoutesB } from './presets.js'
import { presetRoutesA } from './presets-a.js'
import { drawingRoutes } from './drawing.js'
import { gameRoutes } from './game.js'
import { conversationRoutesB } from './conversations.js'
import { chatRoutesA } from './chat.js'
import { toolsRoutes } from './tools.js'
import { memoryRoutes } from './memory.js'
import { memoriesRoutesA } from './memories-a.js'
import { knowledgeRoutes } from './knowledge.js'

export interface Lingxi {
  rt: Runtime
  web: WebServer
  stop(): Promise<void>
}

export function buildRouters (rt: Runtime): Router[] {
  // Order matters where paths overlap: the variant named first in DECISIONS part 2 comes first.
  return [
    mcpEndpointRoutes(rt), // first: /mcp overlaps nothing, and tool calls skip the /api routers' matching
    authRoutes(rt),
    systemRoutes(rt),
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
    configRoutes(rt),
    skillsRoutes(rt),
    ...toolsRoutes(rt), // B's fixed paths, custom/js, then A's /api/tools/:name last
    ...mcpRoutes(rt),
    memoryRoutes(rt),
    memoriesRoutesA(rt),
    knowledgeRoutes(rt)
  ]
}

export async function startLingxi (opts: RuntimeOptions = {}): Promise<Lingxi> {
  const rt = await createRuntime(opts)
  try {
    await initDomains(rt)
    const web = await startWebServer(rt, buildRouters(rt))
    let stopped: Promise<void> | undefined
    return {
      rt,
      web,
      stop: () => (stopped ??= (async () => {
        rt.bus.emit('stopping')
        await web.close()
        await stopRuntime(rt)
      })())
    }
  } catch (err) {
    await stopRuntime(rt)
    throw err
  }
}
