import { type Db, managerOf } from '../db';
import { SIMULATOR_MESSAGE_COLUMNS, type SimulatorMessageRow } from '../users/test-users';

/** A message as the console's simulator shows it, with its response time. */
export interface SimulatorReplyRow extends SimulatorMessageRow {
  response_time_ms: number | null;
}

/** The reply (or keyword confirmation) a simulator message got, or null. */
export async function simulatorReply(db: Db, replyId: string): Promise<SimulatorReplyRow | null> {
  const rows = await managerOf(db).query<SimulatorReplyRow[]>(
    `SELECT ${SIMULATOR_MESSAGE_COLUMNS}, response_time_ms FROM messages WHERE id = $1`,
    [replyId],
  );
  return rows[0] ?? null;
}
