// The costly reads (a transcription, image descriptions: model requests of their own) count against the
// user's chat rate limit (chat.userRateLimitPerMinute) before they run: the pipeline would refuse the
// turn anyway, and a user over the limit must not make the bot pay for requests that lead nowhere.
import { RateLimiter } from '../core/rate-limit.js'
import type { Runtime } from '../runtime.js'

const limiters = new WeakMap<Runtime, RateLimiter>()

/** Counts one costly read for `userId`; false when the user is over the limit (nothing counted). */
export function admitCostlyRead (rt: Runtime, userId: string): boolean {
  let limiter = limiters.get(rt)
  if (!limiter) {
    limiter = new RateLimiter(() => rt.config.get().chat.userRateLimitPerMinute, 60_000, rt.clock)
    limiters.set(rt, limiter)
  }
  return limiter.take(userId)
}
