import type { DataSource, EntityManager } from 'typeorm';
import type { InboundSender } from '../messages/message-writer';
import type { ConsentEventType } from '../types';

/**
 * The consent a text is recorded with. A maybe-opt-out is answered by asking for STOP, which a
 * sender already opted out must not get (they are sent nothing but opt-out and HELP answers): for
 * them it is dropped and the text is recorded as any other, which nothing answers.
 */
export async function consentToRecord<T extends { type: ConsentEventType }>(
  db: DataSource | EntityManager,
  from: InboundSender,
  consent: T | null,
): Promise<T | null> {
  if (consent?.type !== 'maybe_opt_out') return consent;
  const rows = await db.query<{ opted_out: boolean }[]>(
    'userId' in from
      ? `SELECT opted_out FROM users WHERE id = $1`
      : `SELECT opted_out FROM users WHERE phone_number = $1`,
    ['userId' in from ? from.userId : from.phoneNumber],
  );
  return rows[0]?.opted_out === true ? null : consent;
}
