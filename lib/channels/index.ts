// Start-up of the channels domain: channel service, model gateway and batch tests on the runtime.
import type { ModelGateway } from '../chat/contracts.js'
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
  interface Services {
    channels: ChannelsDomain
    /** the one way any domain calls a language model (lib/chat/contracts.ts ModelGateway) */
    models: ModelGateway
  }
}

function initChannels (rt: Runtime): void {
  const service = new ChannelService(rt)
  const gateway = new ChannelGateway(rt, service)
  rt.provide('channels', { service, gateway, tests: new BatchTests(rt, service, gateway) })
  rt.provide('models', gateway)
}

export const channelsDomain: Domain = { name: 'channels', provides: ['channels', 'models'], needs: [], start: initChannels }
