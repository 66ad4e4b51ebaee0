// Installs the host globals before the plugin is imported and puts the
// previous values back on stop, so hosts can follow one another in a test process.
type Globals = Record<string, unknown>

export class GlobalScope {
  private saved = new Map<string, PropertyDescriptor | undefined>()

  install(values: Globals): void {
    const g = globalThis as unknown as Globals
    for (const [name, value] of Object.entries(values)) {
      if (!this.saved.has(name)) this.saved.set(name, Object.getOwnPropertyDescriptor(globalThis, name))
      g[name] = value
    }
  }

  restore(): void {
    for (const [name, desc] of this.saved) {
      if (desc) Object.defineProperty(globalThis, name, desc)
      else delete (globalThis as unknown as Globals)[name]
    }
    this.saved.clear()
  }
}
