// @sprout/contracts is browser-safe: zod and types only, no bullmq, no Node APIs. Web apps import
// the API answer types from here; services import job names and payload schemas from here and
// add/consume jobs through @sprout/platform (JobQueues, startWorkers, @OnJob), which holds the
// BullMQ code. `./api` is also usable on its own (libs/contracts/src/api/index.ts).
export * from './jobs';
export * from './api';
