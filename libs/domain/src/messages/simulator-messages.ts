import { type Db, managerOf } from '../db';
import type { MessageMedia } from '../types';

/** A message as the console's simulator shows it, with its response time. */
export interface SimulatorReplyRow {
  id: string;
  direction: 'inbound' | 'outbound';
  content: string;
  media: MessageMedia[] | null;
  image_analysis: string | null;
  created_at: Date;
  token_usage: number;
  cost: string | number;
  response_time_ms: number | null;
}

/** The reply (or keyword confirmation) a simulator message got, or null. */
export async function simulatorReply(db: Db, replyId: string): Promise<SimulatorReplyRow | null> {
  const rows = await managerOf(db).query<SimulatorReplyRow[]>(
    `SELECT id, direction, content, media, image_analysis, created_at, token_usage, cost, response_time_ms
       FROM messages WHERE id = $1`,
    [replyId],
  );
  return rows[0] ?? null;
}
