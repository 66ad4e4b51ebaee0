// Timers the host arms on behalf of plugins (reply recalls, cron); all cleared on stop().
type Timer = ReturnType<typeof setTimeout>

export class TimerSet {
  private timers = new Set<Timer>()

  after(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t)
      fn()
    }, ms)
    this.timers.add(t)
  }

  clear(): void {
    for (const t of this.timers) clearTimeout(t)
    this.timers.clear()
  }
}
