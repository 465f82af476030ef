/** A conversation is a run of messages with gaps under this (6 h). */
export const DEFAULT_CONVERSATION_IDLE_TIMEOUT_MS = 6 * 60 * 60 * 1000;

/**
 * SQL of the conversation a user's message at a time continues: the user's latest conversation,
 * when it has not ended and its last message is within the idle timeout of that time. Zero or one
 * row (`id`). The caller holds the user's row lock, so concurrent messages agree on it.
 */
export const continuedConversationSql = (userId: string, at: string, idleTimeoutMs: string): string => `
  SELECT latest.id FROM (
    SELECT id, ended_at, last_message_at FROM conversations WHERE user_id = ${userId}
    ORDER BY last_message_at DESC, id DESC LIMIT 1
  ) latest
  WHERE latest.ended_at IS NULL
    AND latest.last_message_at BETWEEN ${at} - ${idleTimeoutMs}::float8 * interval '1 millisecond'
                                   AND ${at} + ${idleTimeoutMs}::float8 * interval '1 millisecond'`;
