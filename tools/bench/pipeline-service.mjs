// One service of the pipeline benchmark in a process of its own (so its RSS and CPU are its own):
// `node pipeline-service.mjs <sms-gateway | ai-responder | api-gateway | edge | bare>`, configured by the environment
// the benchmark passes. Talks to the benchmark over IPC: sends { ready, port } once listening;
// answers { profile: 'start' } / { profile: 'stop' } with a CPU profile summarised by step
// (pipeline-profile.mjs), and exits on { stop: true }.
import { createRequire } from 'node:module';
import { Session } from 'node:inspector/promises';
import { summariseProfile } from './pipeline-profile.mjs';

const require = createRequire(import.meta.url);

const which = process.argv[2];
// With BENCH_FROM_DIST the services run from their builds, as the image starts them (no SWC, no
// inline source maps): `npx nx run-many -t build -p sms-gateway ai-responder` first.
const fromDist = process.env.BENCH_FROM_DIST === '1' && which !== 'bare';
if (!fromDist) require('../stack/lib/ts-loader.cjs').register();
// BENCH_SERVICES_ROOT: another checkout whose builds run instead (this benchmark against an older commit).
const root = fromDist && process.env.BENCH_SERVICES_ROOT ? process.env.BENCH_SERVICES_ROOT : '../..';
const modules = {
  'sms-gateway': `${root}/services/sms-gateway/${fromDist ? 'dist/app.js' : 'src/app.ts'}`,
  'ai-responder': `${root}/services/ai-responder/${fromDist ? 'dist/app.js' : 'src/app.ts'}`,
  'api-gateway': `${root}/services/api-gateway/${fromDist ? 'dist/app.js' : 'src/app.ts'}`,
  edge: `${root}/services/edge/${fromDist ? 'dist/index.js' : 'src/index.ts'}`,
  bare: './pipeline-bare.ts',
};
if (modules[which] === undefined) {
  console.error(`unknown service ${which}`);
  process.exit(2);
}
// Loading (SWC-compiling) the sources is most of a start on a busy machine: done first, and with
// BENCH_DEFER_START the service itself starts only when the benchmark says go (a replica kept ready).
const loaded = require(modules[which]);
const listening = (server, port, host) =>
  new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
const starters = {
  bare: () => loaded.startBare(process.env),
  // api-gateway's createApp does not listen: its main.ts listens after adding the OpenAPI routes.
  'api-gateway': async () => {
    const app = await loaded.createApp({});
    await app.listen({ port: Number(process.env.PORT), host: process.env.HOST });
    return app;
  },
  // The edge as its main.ts runs it (configured by loadEdgeConfig), without the metrics listener.
  edge: async () => {
    const config = loaded.loadEdgeConfig(process.env);
    const edge = loaded.createEdge(config.edge);
    await (edge.spool?.opened() ?? Promise.resolve());
    await listening(edge, config.port, config.host);
    return {
      close: () =>
        new Promise((resolve) => {
          edge.close(resolve);
          edge.closeAllConnections();
        }),
    };
  },
};
const start = () => (starters[which] ?? (() => loaded.createApp({}, process.env)))();
if (process.env.BENCH_DEFER_START === '1') {
  process.send({ loaded: true });
  await new Promise((resolve) => {
    const listener = (message) => {
      if (message.go) {
        process.off('message', listener);
        resolve();
      }
    };
    process.on('message', listener);
  });
}

// The benchmark went away (finished or killed): so does this service.
process.on('disconnect', () => process.exit(0));

const session = new Session();
session.connect();

const app = await start();
process.send({ ready: true, port: Number(process.env.PORT) });

process.on('message', async (message) => {
  try {
    if (message.profile === 'start') {
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 500 });
      await session.post('Profiler.start');
      process.send({ id: message.id, ok: true });
    } else if (message.profile === 'stop') {
      const { profile } = await session.post('Profiler.stop');
      await session.post('Profiler.disable');
      process.send({ id: message.id, summary: summariseProfile(profile, which) });
    } else if (message.stop) {
      await app.close().catch(() => undefined);
      process.exit(0);
    }
  } catch (error) {
    process.send({ id: message.id, error: String(error?.stack ?? error) });
  }
});
