// The provider's model list for a channel that is not saved yet (the dashboard's channel form asks for
// it before the first save, issue 21): the form's address, keys, path and headers as a one-off channel.
// Channels may point anywhere over http(s) (local models at 127.0.0.1 are usual), so no address is
// refused here that a saved channel could use.
import { channelSchema, type ChannelConfig } from '../config/schema.js'
import { keepMaskedSecrets } from '../config/secrets.js'
import type { Runtime } from '../runtime.js'
import type { ChannelGateway } from './gateway.js'
import type { ChannelService } from './service.js'

/** What the form has: the connection fields of a channel, and the saved channel it edits (if any). */
export interface ProbeInput {
  baseUrl: string
  type?: ChannelConfig['type'] | undefined
  apiKey?: string | undefined
  apiKeys?: Array<{ name?: string | undefined; key: string; enabled?: boolean | undefined }> | undefined
  customPath?: string | undefined
  headersTemplate?: Record<string, string> | undefined
  timeoutMs?: number | undefined
  /** the saved channel being edited: masked keys sent back stand for its stored ones */
  channel?: string | undefined
}

let probes = 0

export async function probeModels (rt: Runtime, service: ChannelService, gateway: ChannelGateway, input: ProbeInput): Promise<string[]> {
  const { channel, ...fields } = input
  const saved = channel ? service.get(channel) : undefined
  const filled = saved ? keepMaskedSecrets(fields, saved) : fields
  const parsed = channelSchema.parse({ name: 'probe', ...filled, keyCooldownMs: 0 })
  // A name no saved channel can have: the key rotation and cooldowns of real channels stay untouched.
  const ch: ChannelConfig = { ...parsed, name: `${saved?.name ?? 'new'} (unsaved)` }
  // The keys typed in the form are not stored secrets yet: registered with the redactor while the
  // request runs, so a provider echoing one in its error never puts it into the answer or the log.
  const source = `channel-probe-${++probes}`
  rt.redactor.set(source, [ch.apiKey, ...ch.apiKeys.map((k) => k.key)])
  try {
    return await gateway.listModels(ch)
  } finally {
    rt.redactor.remove(source)
  }
}
