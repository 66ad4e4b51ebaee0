// Skill files in every form, read from real files in a temp folder.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import { parseSkill } from '../../lib/skills/parse.js'
import { scanSkillDir } from '../../lib/skills/scan.js'

describe('skills: scanning skill files', () => {
  let dir: string
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'lingxi-skills-scan-')) })
  afterEach(() => { rmSync(dir, { recursive: true, force: true }) })

  const write = (rel: string, text: string): void => {
    mkdirSync(join(dir, rel, '..'), { recursive: true })
    writeFileSync(join(dir, rel), text)
  }

  it('reads SKILL.md, *.skill.yaml|yml|json and skill.yaml|json in a folder', async () => {
    write('alpha/SKILL.md', '---\nname: alpha\ndescription: A\ntriggers: [foo, bar]\nallowedTools: [get_time]\ndisallowedTools: [send_message]\npriority: 7\nautoActivate: true\ncreated: 2024-01-02\n---\n# Alpha\nDo alpha things.\n')
    write('beta.skill.yaml', 'name: beta\ndescription: B\ninstructions: Be beta.\n')
    write('gamma.skill.yml', 'description: G\ninstructions: Be gamma.\ntriggers: "x, y"\n')
    write('delta.skill.json', JSON.stringify({ name: 'delta', instructions: 'Be delta.', capabilities: ['c1'] }))
    write('eps/skill.yaml', 'description: E\ninstructions: Be eps.\n')
    write('zeta/nested/skill.json', JSON.stringify({ name: 'zeta', description: 'Z' }))
    write('alpha/helper.py', 'print(1)')
    write('notes.md', '# not a skill')
    write('.hidden/SKILL.md', '---\nname: hidden\n---\nx')
    const r = await scanSkillDir(dir, 'user')
    expect(r.errors).to.deep.equal([])
    const byName = Object.fromEntries(r.skills.map((s) => [s.name, s]))
    expect(Object.keys(byName).sort()).to.deep.equal(['alpha', 'beta', 'delta', 'eps', 'gamma', 'zeta'])
    const a = byName.alpha!
    expect(a).to.include({ description: 'A', priority: 7, autoActivate: true, format: 'SKILL.md', origin: 'user', instructions: '# Alpha\nDo alpha things.' })
    expect(a.triggers).to.deep.equal(['foo', 'bar'])
    expect(a.allowedTools).to.deep.equal(['get_time'])
    expect(a.disallowedTools).to.deep.equal(['send_message'])
    expect(a.directory).to.equal(join(dir, 'alpha'))
    expect(byName.gamma!.triggers).to.deep.equal(['x', 'y'])
    expect(byName.gamma!.format).to.equal('skill-file')
    expect(byName.delta!.capabilities).to.deep.equal(['c1'])
    expect(byName.eps!.format).to.equal('folder-file')
    expect(byName.eps!.instructions).to.equal('Be eps.')
  })

  it('refuses JavaScript front matter without running it, and reports it', async () => {
    const g = globalThis as { lingxiPwned?: number }
    delete g.lingxiPwned
    write('evil/SKILL.md', '---js\n{ name: (globalThis.lingxiPwned = 1, "evil") }\n---\nbody')
    write('evil2/SKILL.md', '---javascript\n{ name: (globalThis.lingxiPwned = 2, "evil2") }\n---\nbody')
    write('good/SKILL.md', '---\nname: good\n---\nok')
    const r = await scanSkillDir(dir, 'user')
    expect(g.lingxiPwned).to.equal(undefined)
    expect(r.skills.map((s) => s.name)).to.deep.equal(['good'])
    expect(r.errors).to.have.length(2)
    expect(r.errors[0]!.message).to.match(/JavaScript front matter is not allowed/)
  })

  it('reports broken YAML, wrong field types, bad names and duplicates; keeps the rest', async () => {
    write('a/SKILL.md', '---\nname: [unclosed\n---\nx')
    write('b.skill.yaml', 'name: b\npriority: high\n')
    write('c.skill.json', '{ not json')
    write('d.skill.yaml', 'name: "../etc"\n')
    write('e.skill.yaml', '- a list\n')
    write('f1/skill.yaml', 'name: same\n')
    write('f2/skill.yaml', 'name: same\n')
    const r = await scanSkillDir(dir, 'user')
    expect(r.skills.map((s) => s.name)).to.deep.equal(['same'])
    const msgs = r.errors.map((e) => e.message).join('\n')
    expect(r.errors).to.have.length(6)
    expect(msgs).to.match(/priority/)
    expect(msgs).to.match(/already defined/)
    expect(msgs).to.match(/mapping/)
  })

  it('a missing folder is an empty result, not an error', async () => {
    const r = await scanSkillDir(join(dir, 'nope'), 'user')
    expect(r).to.deep.equal({ skills: [], errors: [] })
  })

  it('parseSkill rejects a non-skill file name', () => {
    expect(() => parseSkill('/x/readme.md', 'x', 'user')).to.throw(/not a skill/)
  })

  it('the bundled skills all load', async () => {
    const r = await scanSkillDir(join(import.meta.dirname, '../../skills'), 'bundled')
    expect(r.errors).to.deep.equal([])
    expect(r.skills.length).to.be.greaterThanOrEqual(3)
    for (const s of r.skills) expect(s.instructions.length, s.name).to.be.greaterThan(100)
  })
})
