import { type Db, managerOf } from '../db';

export interface HistoryRow {
  direction: 'inbound' | 'outbound';
  content: string;
  image_analysis: string | null;
}

/**
 * What a reply reads of the conversation so far, in one statement: its latest `maxRows` messages
 * before the inbound (newest first, keyword confirmations left out) and the summary of the user's
 * previous conversation, if one was written.
 */
export async function conversationHistory(
  db: Db,
  inbound: { id: string; userId: string; conversationId: string; createdAt: Date },
  maxRows: number,
): Promise<{ rows: HistoryRow[]; earlierSummary: string | null }> {
  const [row] = await managerOf(db).query<Array<{ rows: HistoryRow[] | null; summary: string | null }>>(
    `WITH recent AS (
       SELECT "direction", "content", "image_analysis", "created_at", "id" FROM "messages"
        WHERE "conversation_id" = $1 AND "id" <> $2 AND "created_at" <= $3 AND "kind" <> 'consent'
        ORDER BY "created_at" DESC, "id" DESC
        LIMIT $4)
     SELECT
       (SELECT json_agg(json_build_object('direction', "direction", 'content', "content",
               'image_analysis', "image_analysis") ORDER BY "created_at" DESC, "id" DESC) FROM recent) AS rows,
       (SELECT "summary" FROM "conversations"
         WHERE "user_id" = $5 AND "id" <> $1 AND "summary" IS NOT NULL
         ORDER BY "last_message_at" DESC
         LIMIT 1) AS summary`,
    [inbound.conversationId, inbound.id, inbound.createdAt, maxRows, inbound.userId],
  );
  return { rows: row?.rows ?? [], earlierSummary: row?.summary ?? null };
}
