// The layer rule of src/ (docs/architecture.md "The layers"), checked by `npm run lint`.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-runtime-cycle',
      comment: 'A runtime import cycle can leave a module half-initialised. Type-only imports vanish at build time, and a lazy import() runs later.',
      severity: 'error',
      from: {},
      to: { circular: true, dependencyTypesNot: ['type-only', 'dynamic-import'], viaOnly: { dependencyTypesNot: ['type-only', 'dynamic-import'] } },
    },
    {
      name: 'layers-run-one-way',
      comment: 'Nothing below the commands imports src/commands or src/cli, not even a type or lazily.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(commands|cli|sea)/|^src/[^/]+\\.tsx?$' },
      to: { path: '^src/(commands|cli)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.d\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs'] },
  },
};
