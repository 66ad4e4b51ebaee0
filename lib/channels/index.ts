// Start-up of the channels domain: channel service, model gateway and batch tests on the runtime.
import type { Domain, Runtime } from '../runtime.js'
import { BatchTests } from './batch-test.js'
import { ChannelGateway } from './gateway.js'
import { ChannelService } from './service.js'

interface ChannelsDomain {
  service: ChannelService
  gateway: ChannelGateway
  tests: BatchTests
}

declare module '../runtime.js' {
  interface Services { channels: ChannelsDomain }
}

function initChannels (rt: Runtime): void {
  const service = new ChannelService(rt)
  const gateway = new ChannelGateway(rt, service)
  rt.provide('channels', { service, gateway, tests: new BatchTests(rt, service, gateway) })
  rt.chat.models = gateway
}

export const channelsDomain: Domain = { name: 'channels', provides: ['channels'], needs: [], start: initChannels }
