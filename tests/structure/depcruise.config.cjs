// dependency-cruiser settings for tests/structure/cycles.test.ts: the server sources' imports, read
// with swc (TypeScript 7 has no JS compiler API) and resolved through tsconfig.json. Type-only
// imports count: a circle of types is still a circle a reader has to untangle.
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'files that import each other in a circle', from: {}, to: { circular: true } }
  ],
  options: {
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|tests|bench|resources|standalone)/' }
  }
}
