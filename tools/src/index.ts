// @sprout/tools: the pieces of the local stack other code may reuse (the edge, the demo seed).
export { createEdge, forwardedHeaders, upstreamFor, type EdgeOptions, type EdgeUpstream } from './edge';
export {
  DEMO_SEEDED_SETTING,
  isDemoSeeded,
  seedDemoData,
  type SeedOptions,
  type SeedResult,
} from './seed/seed-demo';
