// Runs dependency-cruiser's API with tests/structure/depcruise.config.cjs over the paths given as
// arguments and writes the cruise result (JSON) to stdout. A plain-Node child of the structure tests
// (cruise.ts): under tsx's loader, dependency-cruiser's swc extractor gets the wrong default export of
// @swc/core/Visitor.js (the class instead of the module) and fails on the first file.
import { join } from 'node:path'
import { cruise } from 'dependency-cruiser'
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options'

const root = join(import.meta.dirname, '..', '..')
const options = await extractDepcruiseOptions(join(root, 'tests/structure/depcruise.config.cjs'))
const { output } = await cruise(process.argv.slice(2), { ...options, baseDir: root, outputType: 'json' })
process.stdout.write(typeof output === 'string' ? output : JSON.stringify(output))
