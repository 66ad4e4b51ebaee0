// The plugin's npm dependencies (lib/core/packages.ts, boot/deps.mjs): every one is bundled into the
// plugin (INLINE: what every start needs) or says which features it serves (PACKAGE_FEATURES). That no
// module of the server sources imports a package outside INLINE at module evaluation (a package an
// update named but nobody installed then turns off its features, never the plugin's start) is the
// dependency-cruiser rule `no-eager-optional-package` (depcruise.config.cjs, checked in layers.test.ts).
import { expect } from 'chai'
import { INLINE } from '../../boot/deps.mjs'
import { PACKAGE_FEATURES } from '../../lib/core/packages.js'
import { read } from './sources.js'

const declared = (): string[] => Object.keys((JSON.parse(read('package.json')) as { dependencies?: Record<string, string> }).dependencies ?? {})

describe('structure: dependencies', () => {
  it('every dependency in package.json is bundled (INLINE) or says what it serves (PACKAGE_FEATURES), and every package listed there is a dependency', () => {
    const deps = declared()
    expect(deps.length, 'package.json dependencies').to.be.greaterThan(5)
    const unaccounted = deps.filter((d) => !INLINE.includes(d) && !PACKAGE_FEATURES.has(d))
    expect(unaccounted, `dependencies neither in INLINE (boot/deps.mjs) nor in PACKAGE_FEATURES (lib/core/packages.ts):\n${unaccounted.join('\n')}`).to.deep.equal([])
    const stale = [...PACKAGE_FEATURES.keys(), ...INLINE].filter((p) => !deps.includes(p))
    expect(stale, `packages in PACKAGE_FEATURES or INLINE that package.json does not list:\n${stale.join('\n')}`).to.deep.equal([])
    const both = INLINE.filter((p) => PACKAGE_FEATURES.has(p))
    expect(both, 'packages both bundled and optional').to.deep.equal([])
  })
})
