const preset = require('../jest.preset.cjs')(__dirname);

// e2e boots api-gateway in-process: like its own Jest config, content-disposition (ESM only, under
// @fastify/static) is transpiled. Each browser test file launches one Chromium.
module.exports = {
  ...preset,
  transformIgnorePatterns: [
    '/node_modules/(?!(eld|content-disposition)/)(?!.*/node_modules/content-disposition/)',
  ],
  testTimeout: 120_000,
};
