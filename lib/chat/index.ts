// Start-up of the chat domain: the conversation store and the chat pipeline on the runtime.
import type { Domain, Runtime } from '../runtime.js'
import { ChatPipeline } from './service.js'
import { ConversationStore } from './store.js'

interface ConversationsDomain {
  store: ConversationStore
  pipeline: ChatPipeline
}

declare module '../runtime.js' {
  interface Services { conversations: ConversationsDomain }
}

async function initChat (rt: Runtime): Promise<void> {
  const store = await ConversationStore.open(rt)
  const pipeline = new ChatPipeline(rt, store)
  rt.provide('conversations', { store, pipeline })
}

export const chatDomain: Domain = { name: 'chat', provides: ['conversations'], needs: [], start: initChat }
