// One Jest setup for every package: SWC transpiles TS (decorator metadata included) and
// @sprout/* imports resolve to library sources, so tests never need a build first.
const fs = require('node:fs');
const path = require('node:path');

const root = __dirname;
const swcrc = JSON.parse(fs.readFileSync(path.join(root, '.swcrc'), 'utf8'));

module.exports = (projectDir) => ({
  rootDir: projectDir,
  displayName: path.relative(root, projectDir),
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/**/*.test.ts', '<rootDir>/test/**/*.test.tsx', '<rootDir>/src/**/*.test.ts'],
  transform: {
    '^.+\\.(t|j)sx?$': [
      '@swc/jest',
      {
        ...swcrc,
        jsc: {
          ...swcrc.jsc,
          parser: { syntax: 'typescript', decorators: true, tsx: true },
          transform: { ...swcrc.jsc.transform, react: { runtime: 'automatic' } },
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  // ESM-only packages are transpiled to CommonJS for Jest.
  transformIgnorePatterns: ['/node_modules/(?!(eld)/)'],
  moduleNameMapper: {
    '^@sprout/testing/browser$': path.join(root, 'libs/testing/src/browser/index.ts'),
    '^@sprout/edge$': path.join(root, 'services/edge/src/index.ts'),
    '^@sprout/platform/security-headers$': path.join(root, 'libs/platform/src/http/security-headers.ts'),
    '^@sprout/(platform|domain|contracts|gardening|llm|sms|ui|testing)$': path.join(
      root,
      'libs/$1/src/index.ts',
    ),
  },
  testTimeout: 60_000,
});
