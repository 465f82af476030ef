import type { DataSource } from 'typeorm';

// Reads of the Image monitoring screen: messages carrying media (partial index
// idx_messages_with_media_created_at).

export interface ImageMessageRow {
  id: string;
  phone_number: string;
  content: string;
  created_at: Date;
  image_processed: boolean | null;
  image_content_type: string | null;
  image_url: string | null;
  image_analysis: string | null;
  token_usage: number;
  cost: string | number;
  model_used: string | null;
  image_processing_error: string | null;
}

export interface ImageStatsRow {
  total: string;
  processed: string;
  failed: string;
  cost: string;
  tokens: string;
  avg_ms: string | null;
}

/** The newest messages with media, with their user's phone and the first image. */
export async function recentImageMessages(dataSource: DataSource, limit: number): Promise<ImageMessageRow[]> {
  return dataSource.query<ImageMessageRow[]>(
    `SELECT m.id, u.phone_number, m.content, m.created_at, m.image_processed, m.image_content_type,
              m.media->0->>'url' AS image_url, m.image_analysis, m.token_usage, m.cost, m.model_used,
              m.image_processing_error
         FROM messages m JOIN users u ON u.id = m.user_id
        WHERE m.media <> '[]'::jsonb
        ORDER BY m.created_at DESC, m.id DESC
        LIMIT $1`,
    [limit],
  );
}

/** Inbound messages with media: processed, failed (settled without an analysis), cost, tokens, and the average latency of successful image calls. */
export async function imageStats(dataSource: DataSource): Promise<ImageStatsRow | undefined> {
  const [row] = await dataSource.query<ImageStatsRow[]>(
    `SELECT count(*) AS total,
              count(*) FILTER (WHERE m.image_processed IS TRUE) AS processed,
              count(*) FILTER (WHERE m.image_processed IS FALSE) AS failed,
              coalesce(sum(m.cost), 0) AS cost,
              coalesce(sum(m.token_usage), 0) AS tokens,
              (SELECT avg(c.latency_ms)
                 FROM messages i JOIN llm_calls c ON c.message_id = i.id
                WHERE i.media <> '[]'::jsonb AND c.purpose = 'image' AND c.error IS NULL) AS avg_ms
         FROM messages m
        WHERE m.media <> '[]'::jsonb AND m.direction = 'inbound'`,
  );
  return row;
}

/** What went wrong analysing the message's image, as recorded on it (null: nothing, or no such message). */
export async function imageProcessingError(
  dataSource: DataSource,
  messageId: string,
): Promise<string | null> {
  const [row] = await dataSource.query<{ image_processing_error: string | null }[]>(
    'SELECT image_processing_error FROM messages WHERE id = $1',
    [messageId],
  );
  return row?.image_processing_error ?? null;
}
