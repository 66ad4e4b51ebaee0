// The live skill set: real chokidar watching real temp folders; waits on bus events, never sleeps.
import { mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import { systemClock } from '../../lib/core/clock.js'
import { EventBus } from '../../lib/core/event-bus.js'
import type { ChatHooks, ResolvedPreset } from '../../lib/chat/contracts.js'
import { skillsPromptSection } from '../../lib/skills/activation.js'
import { guardChatTools } from '../../lib/skills/chat-tools.js'
import { SkillService } from '../../lib/skills/service.js'
import { skillTools } from '../../lib/skills/tools.js'
import { nextSkillEvent, quietLogger } from './helpers.js'

const md = (name: string, body: string, extra = ''): string => `---\nname: ${name}\ndescription: ${name} skill\n${extra}---\n${body}\n`

describe('skills: service and watcher', () => {
  let root: string
  let bundled: string
  let user: string
  let bus: EventBus
  let svc: SkillService

  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'lingxi-skills-svc-'))
    bundled = join(root, 'bundled')
    user = join(root, 'user')
    mkdirSync(join(bundled, 'one'), { recursive: true })
    writeFileSync(join(bundled, 'one', 'SKILL.md'), md('one', 'bundled one'))
    writeFileSync(join(bundled, 'shared.skill.yaml'), 'name: shared\ninstructions: from bundled\n')
    bus = new EventBus()
    const log = quietLogger(bus)
    svc = await SkillService.open({
      roots: () => [{ dir: bundled, origin: 'bundled' }, { dir: user, origin: 'user' }],
      watch: () => true,
      dataDir: root,
      bus,
      log,
      clock: systemClock
    })
  })
  afterEach(async () => {
    await svc.stop()
    rmSync(root, { recursive: true, force: true })
  })

  it('scans both roots; the user folder overrides a bundled skill of the same name', async () => {
    mkdirSync(user, { recursive: true })
    writeFileSync(join(user, 'shared.skill.yaml'), 'name: shared\ninstructions: from user\n')
    await svc.start()
    expect(svc.list().map((s) => s.name).sort()).to.deep.equal(['one', 'shared'])
    expect(svc.get('shared')).to.include({ origin: 'user', instructions: 'from user' })
  })

  it('sees a new skill, a change and a deletion', async () => {
    await svc.start()
    expect(svc.watching).to.equal(true)
    let ev = nextSkillEvent(bus, 'skill-added', (d) => d.name === 'fresh')
    mkdirSync(join(user, 'fresh'))
    writeFileSync(join(user, 'fresh', 'SKILL.md'), md('fresh', 'v1'))
    await ev
    expect(svc.get('fresh')?.instructions).to.equal('v1')

    ev = nextSkillEvent(bus, 'skill-changed', (d) => d.name === 'fresh')
    writeFileSync(join(user, 'fresh', 'SKILL.md'), md('fresh', 'v2'))
    await ev
    expect(svc.get('fresh')?.instructions).to.equal('v2')

    ev = nextSkillEvent(bus, 'skill-removed', (d) => d.name === 'fresh')
    unlinkSync(join(user, 'fresh', 'SKILL.md'))
    await ev
    expect(svc.get('fresh')).to.equal(undefined)
  })

  it('watches a root whose own name starts with a dot', async () => {
    const dotted = join(root, '.my-skills')
    const svc2 = await SkillService.open({ roots: () => [{ dir: dotted, origin: 'user' }], watch: () => true, dataDir: join(root, 'd2'), bus, log: quietLogger(bus), clock: systemClock })
    mkdirSync(join(root, 'd2'))
    try {
      await svc2.start()
      const ev = nextSkillEvent(bus, 'skill-added', (d) => d.name === 'dot')
      writeFileSync(join(dotted, 'dot.skill.yaml'), 'name: dot\ninstructions: x\n')
      await ev
      expect(svc2.get('dot')).to.not.equal(undefined)
    } finally { await svc2.stop() }
  })

  it('handles an editor-style atomic save (write a temp file, rename over)', async () => {
    mkdirSync(user, { recursive: true })
    writeFileSync(join(user, 'atom.skill.yaml'), 'name: atom\ninstructions: old\n')
    await svc.start()
    const ev = nextSkillEvent(bus, 'skill-changed', (d) => d.name === 'atom')
    const tmp = join(user, '.atom.skill.yaml.swp')
    writeFileSync(tmp, 'name: atom\ninstructions: new\n')
    renameSync(tmp, join(user, 'atom.skill.yaml'))
    await ev
    expect(svc.get('atom')?.instructions).to.equal('new')
    expect(svc.list().filter((s) => s.name === 'atom')).to.have.length(1)
  })

  it('a file that turns invalid is dropped and reported; fixing it brings it back', async () => {
    mkdirSync(user, { recursive: true })
    writeFileSync(join(user, 'flip.skill.yaml'), 'name: flip\ninstructions: ok\n')
    await svc.start()
    let ev = nextSkillEvent(bus, 'skill-removed', (d) => d.name === 'flip')
    writeFileSync(join(user, 'flip.skill.yaml'), 'name: flip\npriority: [\n')
    await ev
    expect(svc.errors().map((e) => e.path)).to.deep.equal([join(user, 'flip.skill.yaml')])
    ev = nextSkillEvent(bus, 'skill-added', (d) => d.name === 'flip')
    writeFileSync(join(user, 'flip.skill.yaml'), 'name: flip\ninstructions: fixed\n')
    await ev
    expect(svc.errors()).to.deep.equal([])
  })

  it('active skills: autoActivate, triggers, global load, per conversation; sorted by priority', async () => {
    mkdirSync(user, { recursive: true })
    writeFileSync(join(user, 'auto.skill.yaml'), 'name: auto\nautoActivate: true\npriority: 1\ninstructions: always on\n')
    writeFileSync(join(user, 'trig.skill.yaml'), 'name: trig\ntriggers: [翻译, "/^tr\\\\b/i"]\npriority: 9\ninstructions: translate\n')
    await svc.start()
    const turn = (input: string, conversationId = 'c1') => ({ scope: { conversationId }, input })
    expect(svc.activeFor(turn('hello')).map((s) => s.name)).to.deep.equal(['auto'])
    expect(svc.activeFor(turn('请翻译这句话')).map((s) => s.name)).to.deep.equal(['trig', 'auto'])
    expect(svc.activeFor(turn('TR this')).map((s) => s.name)).to.deep.equal(['trig', 'auto'])
    expect(svc.activate('c1', 'one')).to.equal(true)
    expect(svc.activate('c1', 'missing')).to.equal(false)
    expect(svc.activeFor(turn('hello')).map((s) => s.name)).to.include('one')
    expect(svc.activeFor(turn('hello', 'c2')).map((s) => s.name)).to.not.include('one')
    expect(await svc.load('shared')).to.equal(true)
    expect(await svc.load('missing')).to.equal(false)
    expect(svc.activeFor(turn('hello', 'c2')).map((s) => s.name)).to.include('shared')
    const section = skillsPromptSection(svc.activeFor(turn('请翻译')))
    expect(section).to.match(/### trig/).and.match(/translate/).and.match(/always on/)
    expect(section!.indexOf('trig')).to.be.lessThan(section!.indexOf('always on'))
  })

  it('allowedTools / disallowedTools filter the tools of a turn', async () => {
    mkdirSync(user, { recursive: true })
    writeFileSync(join(user, 'limit.skill.yaml'), 'name: limit\ntriggers: [limit]\nallowedTools: [get_time, "mcp:web:*"]\ninstructions: x\n')
    writeFileSync(join(user, 'deny.skill.yaml'), 'name: deny\ntriggers: [deny]\ndisallowedTools: [send_message, get_time]\ninstructions: y\n')
    await svc.start()
    const tools = ['get_time', 'send_message', 'mcp:web:fetch', 'mcp:other:x', 'load_skill']
    const t = (input: string) => ({ scope: { conversationId: 'c' }, input })
    expect(svc.filterTools(tools, t('nothing'))).to.deep.equal(tools)
    expect(svc.filterTools(tools, t('limit'))).to.deep.equal(['get_time', 'mcp:web:fetch', 'load_skill'])
    expect(svc.filterTools(tools, t('deny'))).to.deep.equal(['mcp:web:fetch', 'mcp:other:x', 'load_skill'])
    expect(svc.filterTools(tools.map((name) => ({ name })), t('limit deny')).map((x) => x.name)).to.deep.equal(['mcp:web:fetch', 'load_skill'])
    expect(svc.isToolAllowed('send_message', t('deny'))).to.equal(false)
  })

  it('global load state survives a restart (persisted)', async () => {
    await svc.start()
    await svc.load('one')
    await svc.stop()
    const again = await SkillService.open({ roots: () => [{ dir: bundled, origin: 'bundled' }], watch: () => false, dataDir: root, bus, log: quietLogger(bus), clock: systemClock })
    await again.start()
    expect(again.loadedNames()).to.deep.equal(['one'])
    await again.unload('one')
    expect(again.loadedNames()).to.deep.equal([])
    await again.stop()
  })

  it('the model tools list, load and describe skills', async () => {
    await svc.start()
    const [list, load, info] = skillTools(svc)
    const ctx = { scope: { userId: 'u', isMaster: false, via: 'bot' as const, conversationId: 'conv' }, userPermission: 'member' as const, isMaster: false }
    const listed = JSON.parse(((await list!.execute({}, ctx)).content[0] as { text: string }).text)
    expect(listed.count).to.equal(2)
    const loaded = await load!.execute({ name: 'one' }, ctx)
    expect(loaded.isError).to.equal(false)
    expect((loaded.content[0] as { text: string }).text).to.match(/bundled one/)
    expect(svc.activeFor({ scope: { conversationId: 'conv' }, input: '' }).map((s) => s.name)).to.include('one')
    expect((await load!.execute({ name: 'nope' }, ctx)).isError).to.equal(true)
    expect((await load!.execute({}, ctx)).isError).to.equal(true)
    const described = await info!.execute({ name: 'one' }, ctx)
    const doc = JSON.parse((described.content[0] as { text: string }).text)
    expect(doc).to.include({ name: 'one', instructions: 'bundled one' })
    expect(doc).to.not.have.property('path')
    expect((await info!.execute({ name: 'nope' }, ctx)).isError).to.equal(true)
  })
})

describe('skills: chat tool provider guard', () => {
  it('filters definitions and refuses calls the active skills forbid, whenever the provider is assigned', async () => {
    const root = mkdtempSync(join(tmpdir(), 'lingxi-skills-guard-'))
    const bus = new EventBus()
    writeFileSync(join(root, 'deny.skill.yaml'), 'name: deny\ntriggers: [deny]\ndisallowedTools: [send_message]\ninstructions: y\n')
    const svc = await SkillService.open({ roots: () => [{ dir: root, origin: 'user' }], watch: () => false, dataDir: root, bus, log: quietLogger(bus), clock: systemClock })
    await svc.start()
    try {
      const hooks: ChatHooks = { contributors: [], observers: [], steps: [] }
      guardChatTools(hooks, svc)
      const executed: string[] = []
      hooks.tools = {
        definitionsFor: async () => ['get_time', 'send_message'].map((name) => ({ name, description: '', parameters: {} })),
        execute: async (name) => { executed.push(name); return { content: [], isError: false } }
      }
      const turn = (input: string) => ({ scope: { userId: 'u', isMaster: false, via: 'bot' as const, conversationId: 'c' }, preset: {} as ResolvedPreset, input })
      expect((await hooks.tools.definitionsFor(turn('hi'))).map((d) => d.name)).to.deep.equal(['get_time', 'send_message'])
      expect((await hooks.tools.definitionsFor(turn('deny it'))).map((d) => d.name)).to.deep.equal(['get_time'])
      expect((await hooks.tools.execute('send_message', {}, turn('deny it'))).isError).to.equal(true)
      await hooks.tools.execute('send_message', {}, turn('hi'))
      expect(executed).to.deep.equal(['send_message'])
    } finally {
      await svc.stop()
      rmSync(root, { recursive: true, force: true })
    }
  })
})
