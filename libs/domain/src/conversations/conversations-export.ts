import type { Statement } from '../cursor';

export interface ConversationsExportScope {
  testData: boolean;
  /** One LIKE pattern per search word (each must be in the conversation's search text). */
  wordPatterns: string[];
  /** With words: the search as a phone LIKE pattern, matched instead of them; null when it cannot be one. */
  phonePattern: string | null;
}

/** Every conversation of the kind matching the search (the list's rule), newest activity first. */
export const conversationsExportStatement = ({
  testData,
  wordPatterns,
  phonePattern,
}: ConversationsExportScope): Statement => {
  const values: unknown[] = [testData];
  const param = (value: unknown): string => `$${values.push(value)}`;
  const conditions: string[] = [];
  if (wordPatterns.length > 0) {
    const text = wordPatterns.map((w) => `c.search_text LIKE lower(${param(w)})`).join(' AND ');
    conditions.push(
      phonePattern === null ? `(${text})` : `((${text}) OR u.phone_number LIKE ${param(phonePattern)})`,
    );
  }
  const text = `SELECT c.id, c.user_id, u.phone_number, u.is_active AS user_active, c.message_count,
        c.started_at, c.ended_at, c.last_message_at, c.sentiment, c.topics, c.region, c.experience_level,
        c.model_used, c.summary
      FROM conversations c JOIN users u ON u.id = c.user_id
     WHERE c.is_test_user = $1 ${conditions.map((c) => `AND ${c}`).join(' ')}
     ORDER BY c.last_message_at DESC, c.id DESC`;
  return { text, values };
};

/** One user's conversations (oldest first) with their messages (oldest first). */
export const userConversationsExportStatement = (userId: string): Statement => ({
  text: `SELECT c.id AS conversation_id, c.started_at, c.ended_at, c.summary, u.phone_number,
        m.id AS message_id, m.created_at, m.direction, m.status, m.content, m.cost, m.token_usage, m.model_used
      FROM conversations c JOIN users u ON u.id = c.user_id
      LEFT JOIN messages m ON m.conversation_id = c.id
     WHERE c.user_id = $1
     ORDER BY c.started_at, c.id, m.created_at, m.id`,
  values: [userId],
});
