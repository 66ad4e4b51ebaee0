// Issue 5 target: a skill file change is reflected in the skill registry in under 300 ms (real files,
// real chokidar watcher, measured from the write to the registry's skill-changed event).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { systemClock } from '../lib/core/clock.js'
import { EventBus } from '../lib/core/event-bus.js'
import { PluginLogger } from '../lib/core/logger.js'
import { SkillService } from '../lib/skills/service.js'
import { percentile, type BenchRow } from './types.js'

const noop = (): void => {}
const ROUNDS = 20

export async function run (): Promise<BenchRow[]> {
  const root = mkdtempSync(join(tmpdir(), 'lingxi-bench-skills-'))
  const dir = join(root, 'skills')
  mkdirSync(join(dir, 'bench'), { recursive: true })
  // A realistic folder: 30 skills besides the one edited.
  for (let i = 0; i < 30; i++) writeFileSync(join(dir, `s${i}.skill.yaml`), `name: s${i}\ndescription: skill ${i}\ninstructions: do ${i}\n`)
  const file = join(dir, 'bench', 'SKILL.md')
  writeFileSync(file, '---\nname: bench\n---\nv0\n')
  const bus = new EventBus()
  const log = new PluginLogger({ host: () => ({ trace: noop, debug: noop, info: noop, warn: noop, error: noop, fatal: noop, mark: noop }), bus })
  const svc = await SkillService.open({ roots: () => [{ dir, origin: 'user' }], watch: () => true, dataDir: root, bus, log, clock: systemClock })
  try {
    await svc.start()
    const times: number[] = []
    for (let i = 1; i <= ROUNDS; i++) {
      const seen = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => { off(); reject(new Error('no skill-changed event within 5 s')) }, 5000)
        const off = bus.on('skills', (name, d) => {
          if (name === 'skill-changed' && d.name === 'bench' && svc.get('bench')?.instructions === `v${i}`) { clearTimeout(timer); off(); resolve() }
        })
      })
      const t0 = performance.now()
      writeFileSync(file, `---\nname: bench\n---\nv${i}\n`)
      await seen
      times.push(performance.now() - t0)
    }
    const p50 = percentile(times, 50)
    const max = Math.max(...times)
    return [
      { name: 'skills: file change -> registry updated (p50)', figure: Math.round(p50), unit: 'ms', target: '< 300 ms', pass: p50 < 300 },
      { name: 'skills: file change -> registry updated (max of 20)', figure: Math.round(max), unit: 'ms', target: '< 300 ms', pass: max < 300 }
    ]
  } finally {
    await svc.stop()
    rmSync(root, { recursive: true, force: true })
  }
}
