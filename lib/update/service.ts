// The update service: the plugin's version and checkout, the remote check on demand, the update itself
// and the dependency report (lib/core/packages.ts) with the features it turns off.
import { dependencyReport, FEATURE_TEXT, featuresOff, type DependencyReport, type Feature } from '../core/packages.js'
import type { Runtime } from '../runtime.js'
import { updatePlugin, type UpdateOptions, type UpdateResult } from './updater.js'
import { checkRemote, versionInfo, type RemoteCheck, type VersionInfo } from './version.js'

export interface DependencyView extends DependencyReport {
  featuresOff: Array<{ feature: Feature; packages: string[]; text: string }>
}

export class UpdateService {
  /** The last remote check (the dashboard shows it until the next one). */
  lastCheck: RemoteCheck | undefined

  constructor (private readonly rt: Runtime, readonly root: string) {}

  version (): Promise<VersionInfo> {
    return versionInfo(this.root)
  }

  async check (): Promise<RemoteCheck> {
    this.lastCheck = await checkRemote(this.root, () => this.rt.clock.now())
    return this.lastCheck
  }

  async update (opts: Omit<UpdateOptions, 'log'>): Promise<UpdateResult> {
    const result = await updatePlugin(this.root, { ...opts, log: (line) => this.rt.log.info(`[update] ${line}`) })
    this.lastCheck = undefined
    return result
  }

  dependencies (): DependencyView {
    const lang = this.rt.config.get().language === 'en' ? 'en' : 'zh'
    return {
      ...dependencyReport(),
      featuresOff: featuresOff().map((f) => ({ ...f, text: FEATURE_TEXT[f.feature][lang] }))
    }
  }
}
