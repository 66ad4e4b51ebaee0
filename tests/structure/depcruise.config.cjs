// The seams of the architecture as dependency-cruiser rules: what may import what (lib/README.md,
// routes/README.md, apps/README.md, lib/host/README.md, lib/web/README.md, boot/README.md, each domain's
// README "May import" line) and no import circles. tests/structure/*.test.ts run one cruise with it
// (./cruise.ts); the CLI takes it too (`npx depcruise --config tests/structure/depcruise.config.cjs
// index.js index.ts boot apps lib routes standalone`), but lists the type-only imports that the tests
// drop (below).
//
// Paths are as dependency-cruiser writes them: relative to the repository, `/` separators; a package
// as the file it resolves to under node_modules/; a Node built-in by its name without `node:`.
// The sources are read with swc (TypeScript 7 has no JS compiler API for the tsc parser), which
// reports `import type` like any import. Type-only imports count everywhere (a circle of types is
// still a circle; lib/ naming koa's types still knows HTTP) except in the rules whose comment ends
// with TYPES_FREE: there cruise.ts drops the violations that swc's own syntax tree marks type-only.
const { INLINE } = require('../../boot/deps.mjs')

/** The closing words of a rule whose type-only imports do not count (cruise.ts reads them). */
const TYPES_FREE = 'Type-only imports do not count.'

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
/** A package by name, wherever it resolves (node_modules/<name>/...). */
const pkg = (...names) => `(^|/)node_modules/(${names.map(esc).join('|')})/`
const NPM = '(^|/)node_modules/'
/** Node's HTTP modules (a built-in is named without `node:`). */
const NODE_HTTP = '^(http|https|http2)$'
/** Koa and its middleware: the web layer's framework. */
const KOA = '(^|/)node_modules/(koa|koa-[^/]+|@koa/[^/]+)/'
/** The MCP SDK's HTTP server transports (our /mcp endpoint is served by routes/_http/mcp-transport.ts). */
const MCP_HTTP_SERVER = pkg('@modelcontextprotocol/sdk') + '.*/server/(sse|streamableHttp)\\.'
/** The server sources: what the bundle runs inside the host. */
const SERVER = '^(index\\.ts$|apps/|lib/|routes/)'

/** A lib/ folder (or file) list as one pattern: `chat/contracts.ts` is that file, `core` the folder. */
const libParts = (parts) => `^lib/(${parts.map((p) => p.endsWith('.ts') ? esc(p) + '$' : esc(p) + '/').join('|')})`

/**
 * What each domain may import of lib/ besides its own folder, lib/core (the foundation every domain
 * builds on, lib/core/README.md), lib/host (lib/host/README.md: "everything else in lib/ may import
 * it") and lib/config/field-doc.ts (how a domain's config.ts documents its section): its README's
 * "May import" line, plus the uses another README names (`Used by ...`, a caller list). The domains
 * not listed here follow lib/README.md's general rule (DOMAIN_SHARED below).
 */
const MAY_IMPORT = {
  auth: { readme: 'lib/auth/README.md', parts: [] },
  backup: { readme: 'lib/backup/README.md', parts: ['config', 'storage/settings.ts', 'storage/ported.ts', 'storage/copy.ts', 'storage/pg/migrate.ts', 'storage/pg/pool.ts'] },
  config: { readme: 'lib/config/README.md ("imports only lib/core") and lib/config/schema.ts (the one schema, composed from the section each domain declares in its config.ts, governance\'s in its schema.ts)', parts: ['governance/schema.ts'], pathNot: ['^lib/[^/]+/config\\.ts$'] },
  delivery: { readme: 'lib/delivery/README.md', parts: ['config', 'i18n.ts', 'chat/reasoning.ts', 'chat/contracts.ts', 'tts/voice.ts'] },
  drawing: { readme: 'lib/drawing/README.md; the remote preset source is a caller of the outbound fetcher (lib/web/README.md)', parts: ['config', 'templates', 'chat/contracts.ts', 'web/outbound.ts'] },
  game: { readme: 'lib/game/README.md', parts: ['config', 'presets/resolver.ts', 'chat/contracts.ts'] },
  governance: { readme: 'lib/governance/README.md', parts: ['config', 'i18n.ts', 'reminders/zoned.ts', 'chat/contracts.ts'] },
  grouplog: { readme: 'lib/grouplog/README.md', parts: ['config', 'chat/contracts.ts', 'chat/scope.ts', 'chat/trigger.ts', 'chat/reasoning.ts', 'storage/open.ts'] },
  guard: { readme: 'lib/guard/README.md', parts: ['config', 'i18n.ts'] },
  input: { readme: 'lib/input/README.md', parts: ['config', 'chat/scope.ts', 'chat/reasoning.ts', 'chat/contracts.ts', 'web/outbound.ts'] },
  knowledge: { readme: 'lib/knowledge/README.md; a URL import is a caller of the outbound fetcher, HTML is read with the web reader\'s parsers (lib/web/README.md)', parts: ['search', 'chat/contracts.ts', 'web/outbound.ts', 'web/readable.ts', 'storage/open.ts', 'storage/records.ts', 'storage/settings.ts', 'storage/pg/pool.ts'] },
  mcp: { readme: 'lib/mcp/README.md', parts: ['config', 'tools/types.ts', 'tools/alias.ts', 'chat/contracts.ts'] },
  presets: { readme: 'lib/presets/README.md', parts: ['config', 'templates', 'chat/contracts.ts', 'storage/open.ts', 'storage/records.ts', 'storage/settings.ts'] },
  initiative: { readme: 'lib/initiative/README.md', parts: ['config', 'chat/contracts.ts', 'chat/store.ts', 'grouplog/types.ts', 'grouplog/record.ts', 'i18n.ts', 'governance/gate.ts', 'delivery/answer.ts', 'proactive/prompt.ts', 'proactive/unasked.ts', 'reminders/zoned.ts', 'storage/open.ts', 'storage/records.ts'] },
  proactive: { readme: 'lib/proactive/README.md; lib/governance/README.md names gate.ts\'s mayReact for proactive replies', parts: ['config', 'chat/contracts.ts', 'chat/scope.ts', 'chat/trigger.ts', 'chat/reasoning.ts', 'grouplog/types.ts', 'grouplog/record.ts', 'i18n.ts', 'governance/gate.ts', 'chat/store.ts', 'delivery/answer.ts'] },
  reminders: { readme: 'lib/reminders/README.md', parts: ['config', 'delivery', 'i18n.ts', 'storage/open.ts', 'storage/records.ts', 'storage/due.ts', 'storage/pg/claims.ts'] },
  tasks: { readme: 'lib/tasks/README.md', parts: ['config', 'chat/contracts.ts', 'chat/store.ts', 'delivery', 'governance/gate.ts', 'grouplog/record.ts', 'i18n.ts', 'proactive/unasked.ts', 'reminders/parse.ts', 'reminders/recurrence.ts', 'reminders/zoned.ts', 'reminders/types.ts', 'stats/cost.ts', 'storage/open.ts', 'storage/records.ts', 'storage/due.ts', 'storage/pg/claims.ts'] },
  skills: { readme: 'lib/skills/README.md', parts: ['search', 'tools/types.ts', 'tools/views.ts', 'tools/switches.ts', 'tools/preset-filter.ts', 'chat/contracts.ts'] },
  stats: { readme: 'lib/stats/README.md ("lib/core only")', parts: [] },
  system: { readme: 'lib/system/README.md', parts: ['runtime.ts'] },
  tts: { readme: 'lib/tts/README.md', parts: ['config'] },
  update: { readme: 'lib/update/README.md', parts: ['i18n.ts'], pathNot: ['^boot/deps\\.mjs$'] }
}

/**
 * lib/README.md: a domain reaches another through the runtime and the contracts in
 * lib/chat/contracts.ts and lib/tools/types.ts; the bottom layer (core, search, templates, host) is
 * below every domain; the configuration is every domain's to read (lib/config/README.md); the one
 * outbound fetcher serves every caller (lib/web/README.md); i18n.ts holds every reply text; a durable
 * domain opens its records through the storage port (lib/storage/README.md: open.ts, records.ts).
 */
const DOMAIN_SHARED = ['core', 'host', 'search', 'templates', 'config', 'runtime.ts', 'i18n.ts', 'chat/contracts.ts', 'tools/types.ts', 'web/outbound.ts', 'storage/open.ts', 'storage/records.ts']

/** The documented uses between the domains without a "May import" line (the README that names each). */
const DOCUMENTED_USES = [
  { from: 'channels', to: ['stats/cost.ts', 'chat/reasoning.ts'], readme: 'lib/channels/README.md (the budget reads lib/stats/cost.ts; reasoning tags as lib/chat/reasoning.ts)' },
  { from: 'chat', to: ['delivery/media.ts'], readme: 'lib/delivery/README.md (the turn\'s images come from the chat pipeline as `media`, lib/chat/service.ts)' },
  { from: 'memory', to: ['chat/reasoning.ts', 'chat/scope.ts'], readme: 'lib/memory/README.md (reasoning blocks of the model\'s answer are ignored: the one stripper, lib/chat/reasoning.ts; no memory summary in a group\'s shared conversation: lib/chat/scope.ts)' },
  { from: 'tools', to: ['drawing/draw.ts', 'drawing/types.ts', 'reminders', 'tts/service.ts', 'grouplog/format.ts', 'web'], readme: 'lib/drawing, lib/reminders, lib/tts, lib/grouplog and lib/web READMEs (their built-in tools in lib/tools/builtin/)' },
  { from: 'web', to: ['channels/keys.ts'], readme: 'lib/web/README.md (search.ts rotates keys with lib/channels/keys.ts)' }
]
const BOTTOM = ['core', 'search', 'templates', 'host']
const ownRule = new Set([...Object.keys(MAY_IMPORT), ...BOTTOM])

const domainRules = [
  ...Object.entries(MAY_IMPORT).map(([domain, { readme, parts, pathNot = [] }]) => ({
    name: `lib-${domain}-may-import`,
    severity: 'error',
    comment: `lib/${domain} imports of lib/ only what ${readme} lists (besides lib/core, lib/host and lib/config/field-doc.ts). ${TYPES_FREE}`,
    from: { path: `^lib/${domain}/` },
    to: { path: '^(lib|boot)/', pathNot: [`^lib/${domain}/`, libParts(['core', 'host', 'config/field-doc.ts', ...parts]), ...pathNot] }
  })),
  ...DOCUMENTED_USES.map(({ from, to, readme }) => ({
    name: `lib-${from}-may-import`,
    severity: 'error',
    comment: `lib/${from} has no "May import" line: lib/README.md's rule (runtime, contracts, bottom layer, config, the outbound fetcher, i18n) plus the uses ${readme} names. ${TYPES_FREE}`,
    from: { path: `^lib/${from}/` },
    to: { path: '^(lib|boot)/', pathNot: [`^lib/${from}/`, libParts([...DOMAIN_SHARED, ...to])] }
  })),
  {
    name: 'lib-domains-meet-through-the-runtime',
    severity: 'error',
    comment: `lib/README.md: a domain reaches another through the runtime (rt.need, rt.optional) and the contracts in lib/chat/contracts.ts and lib/tools/types.ts, over the bottom layer, the configuration, the outbound fetcher and i18n.ts. For the domains with neither a "May import" line nor a documented use. ${TYPES_FREE}`,
    from: { path: '^lib/([^/]+)/', pathNot: `^lib/(${[...ownRule, ...DOCUMENTED_USES.map((u) => u.from)].join('|')})/` },
    to: { path: '^(lib|boot)/', pathNot: ['^lib/$1/', libParts(DOMAIN_SHARED)] }
  }
]

/**
 * Where the tree does not (yet) do what the docs say: each is reported by the lead and fixed in the
 * code or in the README it contradicts, then dropped here (tests/structure/layers.test.ts fails on an
 * entry that no longer occurs). This list may only shrink.
 */
const KNOWN = [
  { rule: 'bottom-layer-core', from: 'lib/core/packages.ts', to: 'boot/deps.mjs', why: 'which packages are installed is read from the loader (README, Updating); lib/core/README.md lists neither packages.ts nor boot/deps.mjs' }
]

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Files that import each other in a circle: an order of evaluation that depends on who is imported first, and a knot a reader has to untangle (types included).',
      from: {},
      to: { circular: true }
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'Every import resolves to a file (a source, a built-in or an installed package): a typo or a removed file fails here, not at a user\'s start.',
      from: {},
      to: { couldNotResolve: true }
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment: 'A module that imports nothing and that nothing imports is dead code, or wiring someone forgot (declaration files aside).',
      from: { orphan: true, pathNot: '\\.d\\.m?ts$' },
      to: {}
    },
    {
      name: 'production-not-to-tests-or-bench',
      severity: 'error',
      comment: 'tests/ and bench/ are never shipped code\'s dependencies: the plugin, its loader and the standalone host run without them (README, Layout).',
      from: { pathNot: '^(tests|bench)/' },
      to: { path: '^(tests|bench)/' }
    },
    {
      name: 'lib-not-to-outer-layers',
      severity: 'error',
      comment: 'lib/README.md: lib/ never imports apps/, routes/ or standalone/ (nor the dashboard or the entry); the domain knows neither the bot commands nor HTTP. lib/plugin.ts has its own rule.',
      from: { path: '^lib/', pathNot: '^lib/plugin\\.ts$' },
      to: { path: '^(apps|routes|standalone|resources)/|^index\\.(ts|js)$' }
    },
    {
      name: 'lib-plugin-starts-only-the-web-part',
      severity: 'error',
      comment: 'lib/README.md: the one exception to lib/ importing no outer layer is lib/plugin.ts, which imports routes/index.ts to start the web server as a part.',
      from: { path: '^lib/plugin\\.ts$' },
      to: { path: '^(apps|routes|standalone|resources)/|^index\\.(ts|js)$', pathNot: '^routes/index\\.ts$' }
    },
    {
      name: 'lib-speaks-no-http',
      severity: 'error',
      comment: 'lib/README.md, lib/core/README.md, lib/mcp/README.md: no koa in lib/ and no node:http (lib/web/README.md: "lib/ may not import node:http"), nor the MCP SDK\'s HTTP server transports; HTTP lives in routes/.',
      from: { path: '^lib/' },
      to: { path: [KOA, NODE_HTTP, MCP_HTTP_SERVER] }
    },
    {
      name: 'apps-reach-only-lib',
      severity: 'error',
      comment: 'apps/README.md: the bot commands may import lib/ (services through the runtime); never routes/, standalone/, koa or node:http.',
      from: { path: '^apps/' },
      to: { path: ['^(routes|standalone|resources|boot)/|^index\\.(ts|js)$', KOA, NODE_HTTP] }
    },
    {
      name: 'apps-are-thin',
      severity: 'error',
      comment: 'apps/README.md: one plugin class per file, each standing alone; what they share is apps/context.ts (contextOf: plugin, session, reply texts) and apps/command.ts (the prefix, commandPattern), never another handler.',
      from: { path: '^apps/' },
      to: { path: '^apps/', pathNot: '^apps/(context|command)\\.ts$' }
    },
    {
      name: 'routes-reach-only-lib-and-the-web-layer',
      severity: 'error',
      comment: 'routes/README.md: a route parses its input, calls lib/ and wraps the result; routes/ may import lib/ and routes/_http/, never the bot commands, the standalone host or the loader.',
      from: { path: '^routes/' },
      to: { path: '^(apps|standalone|resources|boot)/|^index\\.(ts|js)$' }
    },
    {
      name: 'route-files-do-not-import-route-files',
      severity: 'error',
      comment: 'routes/README.md: one file per group of routes; route files do not import each other (shared helpers live in routes/_http/ or lib/); routes/index.ts assembles them.',
      from: { path: '^routes/[^/]+\\.ts$', pathNot: '^routes/index\\.ts$' },
      to: { path: '^routes/[^/]+\\.ts$' }
    },
    {
      name: 'web-layer-below-route-files',
      severity: 'error',
      comment: 'routes/README.md: routes/_http/ holds the web layer\'s own helpers that the route files use; a helper never reaches up into a route group.',
      from: { path: '^routes/_http/' },
      to: { path: '^routes/[^/]+\\.ts$' }
    },
    {
      name: 'host-port-imports-only-node',
      severity: 'error',
      comment: 'lib/host/README.md: the one port to the bot host may import Node built-ins only, so every other module can import it and the host stays behind it.',
      from: { path: '^lib/host/' },
      to: { pathNot: '^lib/host/', dependencyTypesNot: ['core'] }
    },
    {
      name: 'bottom-layer-core',
      severity: 'error',
      comment: 'lib/README.md, lib/core/README.md: lib/core imports no domain: Node built-ins, lowdb, opencc-js, the host types (lib/host/types.ts) and which keys are secrets (lib/config/secrets.ts).',
      from: { path: '^lib/core/' },
      to: { path: ['^(lib|boot)/', NPM], pathNot: ['^lib/(core/|host/types\\.ts$|config/secrets\\.ts$)', pkg('lowdb', 'opencc-js')] }
    },
    {
      name: 'bottom-layer-search',
      severity: 'error',
      comment: 'lib/README.md, lib/search/README.md: the search index imports nothing outside its folder.',
      from: { path: '^lib/search/' },
      to: { pathNot: '^lib/search/' }
    },
    {
      name: 'bottom-layer-templates',
      severity: 'error',
      comment: 'lib/README.md, lib/templates/README.md: the templates import lib/core/dict.ts and Node built-ins only.',
      from: { path: '^lib/templates/' },
      to: { pathNot: '^lib/(templates/|core/dict\\.ts$)', dependencyTypesNot: ['core'] }
    },
    {
      name: 'domain-list-imports-domain-entries',
      severity: 'error',
      comment: 'lib/README.md: lib/domains.ts lists the domains; it reaches each through its index.ts (what it provides, needs and uses when present), never a domain\'s internals.',
      from: { path: '^lib/domains\\.ts$' },
      to: { path: '^lib/[^/]+/', pathNot: '^lib/[^/]+/index\\.ts$' }
    },
    {
      name: 'domains-do-not-import-the-composition-root',
      severity: 'error',
      comment: 'lib/README.md: lib/plugin.ts (the composition root), lib/domains.ts (the list) and lib/lifecycle.ts (the running instance) sit above the domains; a domain gets what it needs through the runtime.',
      from: { path: '^lib/[^/]+/' },
      to: { path: '^lib/(plugin|domains|lifecycle)\\.ts$' }
    },
    ...domainRules,
    {
      name: 'config-sections-are-leaves',
      severity: 'error',
      comment: 'lib/config/schema.ts composes the schema from the section each domain declares in its own config.ts (zod shape, defaults, texts; lib/config/field-doc.ts): a section imports zod, lib/core and field-doc.ts only, so lib/config reaching into the domains for them brings nothing else along.',
      from: { path: '^lib/[^/]+/config\\.ts$', pathNot: '^lib/config/' },
      to: { path: '^(lib|boot)/', pathNot: ['^lib/(core/|config/field-doc\\.ts$)'] }
    },
    {
      name: 'outbound-http-through-the-fetchers',
      severity: 'error',
      comment: 'README (Security model), lib/web/README.md: every server-side request to an address someone else chose goes through the one outbound fetcher, lib/web/outbound.ts; the model channels have theirs, lib/channels/fetch.ts. They alone import the HTTP client, undici (its connector is how a connection is pinned to the checked address).',
      from: { path: SERVER, pathNot: '^lib/(web/outbound|channels/fetch)\\.ts$' },
      to: { path: pkg('undici') }
    },
    {
      name: 'node-http-only-in-the-web-layer',
      severity: 'error',
      comment: 'routes/README.md, lib/web/README.md: node:http (and https, http2) serves the API in routes/_http/ (server.ts listens, the MCP transports and the TRSS mount take its request types); no other server module imports it, so no request leaves by another way than the fetchers.',
      from: { path: SERVER, pathNot: '^routes/_http/' },
      to: { path: NODE_HTTP }
    },
    {
      name: 'no-eager-optional-package',
      severity: 'error',
      comment: `README (Updating), lib/core/packages.ts: no server module imports a package outside INLINE (boot/deps.mjs: what every start needs, bundled) at module evaluation; the others are imported where they are used, through import() (importOptional), so a missing one turns off its features, never the start. ${TYPES_FREE}`,
      from: { path: SERVER },
      to: { path: NPM, pathNot: pkg(...INLINE), dependencyTypesNot: ['dynamic-import'] }
    },
    {
      name: 'boot-imports-node-and-its-tools',
      severity: 'error',
      comment: 'boot/README.md: the loader may import Node built-ins and esbuild, tsx and semver only, nothing of lib/: it runs before the packages are checked.',
      from: { path: '^boot/' },
      to: { pathNot: ['^boot/', pkg('esbuild', 'tsx', 'semver')], dependencyTypesNot: ['core'] }
    },
    {
      name: 'standalone-loads-the-plugin-as-a-host-does',
      severity: 'error',
      comment: 'standalone/README.md: the standalone host loads plugins/lingxi-plugin/index.js by file URL exactly as a host does; of the plugin it imports only the host surface it emulates (lib/host/types.ts).',
      from: { path: '^standalone/' },
      to: { path: '^(apps|lib|routes|boot|resources)/|^index\\.(ts|js)$', pathNot: '^lib/host/types\\.ts$' }
    }
  ],
  options: {
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    // not read, only seen as targets: packages, the tests and benchmarks, and the dashboard (TSX that
    // Vite builds with its own config; swc here reads no JSX)
    doNotFollow: { path: ['(^|/)node_modules/', '^(tests|bench|resources)/'] },
    knownViolations: KNOWN.map(({ rule, from, to, why }) => ({ type: 'dependency', rule: { name: rule, severity: 'error' }, from, to, comment: why })),
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings']
    }
  }
}
