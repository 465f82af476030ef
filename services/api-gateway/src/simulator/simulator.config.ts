import { conversationIdleTimeoutField, field, integerSchema } from '@sprout/platform';
import { moduleConfig, type ModuleConfigOf } from '../common/module-config';

/**
 * The simulator's own settings. SIMULATOR_REPLY_TIMEOUT_MS: how long POST /api/simulator/message
 * waits for the pipeline's reply. CONVERSATION_IDLE_TIMEOUT_MS: the gap that opens a new
 * conversation, as for an SMS.
 */
export const simulatorConfig = moduleConfig('simulator', {
  replyTimeoutMs: field('SIMULATOR_REPLY_TIMEOUT_MS', integerSchema(30_000, 100, 10 * 60_000)),
  conversationIdleTimeoutMs: conversationIdleTimeoutField,
});
export type SimulatorConfig = ModuleConfigOf<typeof simulatorConfig>;
export const SIMULATOR_CONFIG = simulatorConfig.token;
