import {
  type ConfigOf,
  conversationIdleTimeoutField,
  defineConfig,
  field,
  integerSchema,
  loadConfig,
} from '@sprout/platform';

/**
 * The simulator's own settings, validated once when the module starts (the error names the variable).
 * SIMULATOR_REPLY_TIMEOUT_MS: how long POST /api/simulator/message waits for the pipeline's reply.
 * CONVERSATION_IDLE_TIMEOUT_MS: the gap that opens a new conversation, as for an SMS.
 */
const simulatorConfig = defineConfig({
  replyTimeoutMs: field('SIMULATOR_REPLY_TIMEOUT_MS', integerSchema(30_000, 100, 10 * 60_000)),
  conversationIdleTimeoutMs: conversationIdleTimeoutField,
});
export type SimulatorConfig = ConfigOf<typeof simulatorConfig>;

/** Injection token of the loaded SimulatorConfig. */
export const SIMULATOR_CONFIG = Symbol('sprout:simulator-config');

export const loadSimulatorConfig = (env: Record<string, string | undefined> = process.env): SimulatorConfig =>
  loadConfig(simulatorConfig, env);
