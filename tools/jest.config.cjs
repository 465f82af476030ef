// Each of the four folders (stack, seed, bench, drills) keeps its tests beside it, in <folder>/test.
const preset = require('../jest.preset.cjs')(__dirname);

module.exports = { ...preset, testMatch: ['<rootDir>/*/test/**/*.test.ts'] };
