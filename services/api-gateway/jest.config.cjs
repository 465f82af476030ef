const preset = require('../../jest.preset.cjs')(__dirname);

// @fastify/static 10 requires content-disposition 3, which ships ESM only: Node 20.19+ loads it
// with require(esm), Jest does not, so Jest transpiles it like the preset's other ESM packages.
module.exports = {
  ...preset,
  transformIgnorePatterns: [
    '/node_modules/(?!(eld|content-disposition)/)(?!.*/node_modules/content-disposition/)',
  ],
};
