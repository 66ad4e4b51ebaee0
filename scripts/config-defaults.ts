// `npm run config:defaults`: writes config/default.yaml from the configuration schema (each domain's
// config.ts, composed in lib/config/schema.ts; lib/config/README.md, "config/default.yaml"). With
// --check it writes nothing and fails when the committed file differs.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { defaultYaml } from '../lib/config/default-yaml.js'

const file = join(import.meta.dirname, '..', 'config', 'default.yaml')
const text = defaultYaml()
if (process.argv.includes('--check')) {
  const same = readFileSync(file, 'utf8').replace(/\r\n/g, '\n') === text
  console.log(same ? 'config/default.yaml is up to date' : 'config/default.yaml differs from the schema: run npm run config:defaults')
  process.exitCode = same ? 0 : 1
} else {
  writeFileSync(file, text)
  console.log('config/default.yaml written')
}
