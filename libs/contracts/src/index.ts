// @sprout/contracts is browser-safe: zod and types only, no bullmq, no Node APIs. The endpoint
// table (`api`) defines every HTTP endpoint once; web apps and the api-gateway derive from it.
// Services import job names and payload schemas from here and add/consume jobs through
// @sprout/platform (JobQueues, startWorkers, @OnJob), which holds the BullMQ code.
export * from './jobs';
export * from './http';
export * from './api';
export * from './web-pages';
export * from './sms-circuit';
export * from './wall-clock';
export * from './sms-keywords';
