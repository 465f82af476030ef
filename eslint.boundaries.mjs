// The allowed dependency graph between projects, in one place. Each project's package.json names its
// tags under "nx"; @nx/enforce-module-boundaries refuses any import the constraints below do not allow,
// an import of another project by relative path, and an import circle between projects.
//
//   layer:contracts  zod only, safe in a browser
//   layer:data       domain (every table's statements): may use contracts
//   layer:core       gardening, llm, sms: may use contracts and data
//   layer:platform   Nest, BullMQ, HTTP glue: may use contracts, data and core
//   layer:testing    harnesses and fakes for tests: may use every layer above
//   layer:ui         the web apps' design system: contracts only
//   type:service     contracts, core, platform; never another service (services talk through queues)
//   type:app-web     contracts and ui only: server code stays on the server
//   type:tool        scripts, benches and drills: any lib, and a service by its package (the drills run the edge)
//   type:e2e         the whole product under test: anything
//
// Tests may also use layer:testing, and web app tests the core libs they check screens against.
import nx from '@nx/eslint-plugin';

const code = ['**/*.{ts,tsx,mts,cts}'];
const tests = ['**/test/**/*.{ts,tsx}', '**/*.test.{ts,tsx}'];

const serverLibs = ['layer:contracts', 'layer:data', 'layer:core', 'layer:platform'];

const depConstraints = (forTests) => [
  { sourceTag: 'layer:contracts', onlyDependOnLibsWithTags: forTests ? ['layer:testing'] : [] },
  {
    sourceTag: 'layer:data',
    onlyDependOnLibsWithTags: ['layer:contracts', ...(forTests ? ['layer:testing'] : [])],
  },
  {
    sourceTag: 'layer:core',
    onlyDependOnLibsWithTags: ['layer:contracts', 'layer:data', ...(forTests ? ['layer:testing'] : [])],
  },
  {
    sourceTag: 'layer:platform',
    onlyDependOnLibsWithTags: [
      'layer:contracts',
      'layer:data',
      'layer:core',
      ...(forTests ? ['layer:testing'] : []),
    ],
  },
  { sourceTag: 'layer:testing', onlyDependOnLibsWithTags: [...serverLibs, 'layer:testing'] },
  {
    sourceTag: 'layer:ui',
    onlyDependOnLibsWithTags: ['layer:contracts', ...(forTests ? ['layer:testing'] : [])],
  },
  {
    sourceTag: 'type:service',
    onlyDependOnLibsWithTags: [...serverLibs, ...(forTests ? ['layer:testing'] : [])],
  },
  {
    sourceTag: 'type:app-web',
    onlyDependOnLibsWithTags: [
      'layer:contracts',
      'layer:ui',
      ...(forTests ? ['layer:testing', 'layer:core'] : []),
    ],
  },
  { sourceTag: 'type:tool', onlyDependOnLibsWithTags: [...serverLibs, 'layer:testing', 'type:service'] },
  { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['*'] },
];

const rule = (forTests, allow = []) => [
  'error',
  {
    depConstraints: depConstraints(forTests),
    // A package's own tests import it by its name, as its users do.
    allowCircularSelfDependency: true,
    allow,
  },
];

export const moduleBoundaries = [
  { files: code, plugins: { '@nx': nx }, rules: { '@nx/enforce-module-boundaries': rule(false) } },
  { files: tests, rules: { '@nx/enforce-module-boundaries': rule(true) } },
  {
    // e2e runs the services in-process and the benches drive them directly: both import a service's
    // sources by path, which no service or lib may do.
    files: ['e2e/**/*.ts', 'tools/bench/**/*.ts', 'tools/*/test/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': rule(true, ['^\\.\\./\\.\\./services/[a-z-]+/src/']) },
  },
  {
    // The edge's tests put it in front of a real sms-gateway app, as it is deployed.
    files: ['services/edge/test/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': rule(true, ['^\\.\\./\\.\\./sms-gateway/src/app$']) },
  },
];
