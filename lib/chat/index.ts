// Start-up of the chat domain: the conversation store and the chat pipeline on the runtime.
import type { Domain, Runtime } from '../runtime.js'
import { Bursts } from './burst.js'
import { ChatPipeline } from './service.js'
import { ConversationStore } from './store.js'
import { chatSteps } from './turn-steps.js'

interface ConversationsDomain {
  store: ConversationStore
  pipeline: ChatPipeline
  /** a user's messages arriving close together, merged into one turn (burst.ts) */
  bursts: Bursts
}

declare module '../runtime.js' {
  interface Services { conversations: ConversationsDomain }
}

async function initChat (rt: Runtime): Promise<void> {
  const store = await ConversationStore.open(rt)
  const pipeline = new ChatPipeline(rt, store)
  const bursts = new Bursts(rt.clock)
  rt.provide('conversations', { store, pipeline, bursts })
  rt.chat.steps.push(...chatSteps(rt, pipeline, bursts))
  rt.onStop.push(() => bursts.flush())
}

export const chatDomain: Domain = { name: 'chat', provides: ['conversations'], needs: [], optional: ['models'], start: initChat }
