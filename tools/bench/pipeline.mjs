// `npm run bench:pipeline` (see pipeline-bench.ts for what it measures and its options). Runs the
// TypeScript sources directly through ts-loader.cjs: no build of dist/ needed.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
require('./ts-loader.cjs').register();
const { main } = require('./pipeline-bench.ts');

main(process.argv.slice(2)).then(
  () => process.exit(process.exitCode ?? 0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
