import type { DataSource } from 'typeorm';

/**
 * The user's and their conversations' counters as stored, and as their messages add them up: a
 * test expects the two to be equal after every path that records messages.
 */
export const countersOf = async (
  dataSource: DataSource,
  userId: string,
): Promise<{ stored: unknown; counted: unknown }> => {
  const [row] = await dataSource.query<{ stored: unknown; counted: unknown }[]>(
    `SELECT
       json_build_object(
         'messages', u.total_messages, 'tokens', u.total_tokens, 'cost', u.total_cost, 'last', u.last_message_at,
         'conversations', (SELECT json_agg(json_build_object('id', c.id, 'messages', c.message_count,
                                                            'last', c.last_message_at) ORDER BY c.id)
                             FROM conversations c WHERE c.user_id = u.id)) AS stored,
       json_build_object(
         'messages', (SELECT count(*) FROM messages m WHERE m.user_id = u.id),
         'tokens', (SELECT coalesce(sum(token_usage), 0) FROM messages m WHERE m.user_id = u.id),
         'cost', (SELECT coalesce(sum(cost), 0) FROM messages m WHERE m.user_id = u.id),
         'last', (SELECT max(created_at) FROM messages m WHERE m.user_id = u.id),
         'conversations', (SELECT json_agg(json_build_object('id', c.id,
                                    'messages', (SELECT count(*) FROM messages m WHERE m.conversation_id = c.id),
                                    'last', (SELECT max(created_at) FROM messages m WHERE m.conversation_id = c.id))
                                  ORDER BY c.id)
                             FROM conversations c WHERE c.user_id = u.id)) AS counted
     FROM users u WHERE u.id = $1`,
    [userId],
  );
  if (row === undefined) throw new Error(`No user ${userId}`);
  return row;
};
