// @sprout/tools: the pieces of the local stack other code may reuse (the demo seed).
export {
  DEMO_SEEDED_SETTING,
  isDemoSeeded,
  seedDemoData,
  type SeedOptions,
  type SeedResult,
} from './seed-demo';
