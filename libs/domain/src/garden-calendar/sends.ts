import type { EntityManager } from 'typeorm';
import { type Db, managerOf } from '../db';
import { recordOutbound } from '../messages/message-writer';
import { touchConversation } from '../conversations/conversations';
import { getSetting, setSetting } from '../settings/settings';
import type { CalendarSendKind, MessageEncoding, TipsStatus, UserProfile } from '../types';

/** The console's switch: while true no calendar text is scheduled or sent. */
export const GARDEN_CALENDAR_PAUSED_SETTING = 'garden_calendar_paused';

export async function isGardenCalendarPaused(db: Db): Promise<boolean> {
  const value = await getSetting<unknown>(managerOf(db), GARDEN_CALENDAR_PAUSED_SETTING, false);
  return value === true || value === 'true';
}

export async function setGardenCalendarPaused(db: Db, paused: boolean): Promise<void> {
  await setSetting(managerOf(db), GARDEN_CALENDAR_PAUSED_SETTING, paused);
}

/** A subscriber as the scheduler plans for them. */
export interface TipsSubscriber {
  id: string;
  zipCode: string | null;
  isTestUser: boolean;
}

/** Subscribers not opted out, by id after `afterId` (keyset pages). */
export async function tipsSubscribers(
  db: Db,
  afterId: string | null,
  limit: number,
): Promise<TipsSubscriber[]> {
  const rows = await managerOf(db).query<{ id: string; zip_code: string | null; is_test_user: boolean }[]>(
    `SELECT id, zip_code, is_test_user FROM users
      WHERE tips_status = 'subscribed' AND NOT opted_out AND ($1::uuid IS NULL OR id > $1::uuid)
      ORDER BY id LIMIT $2`,
    [afterId, limit],
  );
  return rows.map((r) => ({ id: r.id, zipCode: r.zip_code, isTestUser: r.is_test_user }));
}

/** A user's latest inbound texts, newest first: the crops they talk about. */
export async function recentInboundTexts(db: Db, userId: string, limit: number): Promise<string[]> {
  const rows = await managerOf(db).query<{ content: string }[]>(
    `SELECT content FROM messages WHERE user_id = $1 AND direction = 'inbound'
      ORDER BY created_at DESC LIMIT $2`,
    [userId, limit],
  );
  return rows.map((r) => r.content);
}

/** Which of these task keys a user has a row for already (planned, sent, skipped or cancelled). */
export async function plannedTaskKeys(db: Db, userId: string, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await managerOf(db).query<{ task_key: string }[]>(
    `SELECT task_key FROM calendar_sends WHERE user_id = $1 AND task_key = ANY($2::varchar[])`,
    [userId, keys],
  );
  return new Set(rows.map((r) => r.task_key));
}

/** Tips of a user counted against the monthly cap: scheduled or sent in [from, until). */
export async function tipsCountedBetween(db: Db, userId: string, from: Date, until: Date): Promise<number> {
  const rows = await managerOf(db).query<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM calendar_sends
      WHERE user_id = $1 AND kind = 'tip' AND status IN ('scheduled', 'sent')
        AND scheduled_for >= $2 AND scheduled_for < $3`,
    [userId, from, until],
  );
  return rows[0]?.n ?? 0;
}

export interface CalendarSendDraft {
  userId: string;
  kind: CalendarSendKind;
  taskKey: string;
  scheduledFor: Date;
  body: string;
  /** 'skipped' with a reason: recorded so the task is settled (and shows why), never sent. */
  status?: 'scheduled' | 'skipped';
  skipReason?: string | null;
  weatherAlertId?: string | null;
}

/** Writes the drafts a user has no row for yet (UNIQUE user and task key); answers the task keys written. */
export async function insertCalendarSends(db: Db, drafts: readonly CalendarSendDraft[]): Promise<string[]> {
  if (drafts.length === 0) return [];
  const rows = await managerOf(db).query<{ task_key: string }[]>(
    `INSERT INTO calendar_sends (user_id, kind, task_key, scheduled_for, body, status, skip_reason, weather_alert_id)
     SELECT * FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::timestamptz[], $5::text[], $6::varchar[],
                          $7::varchar[], $8::uuid[])
     ON CONFLICT (user_id, task_key) DO NOTHING
     RETURNING task_key`,
    [
      drafts.map((d) => d.userId),
      drafts.map((d) => d.kind),
      drafts.map((d) => d.taskKey),
      drafts.map((d) => d.scheduledFor),
      drafts.map((d) => d.body),
      drafts.map((d) => d.status ?? 'scheduled'),
      drafts.map((d) => d.skipReason ?? null),
      drafts.map((d) => d.weatherAlertId ?? null),
    ],
  );
  return rows.map((r) => r.task_key);
}

/** Ids of rows due by `now` (oldest first). */
export async function dueCalendarSends(db: Db, now: Date, limit: number): Promise<string[]> {
  const rows = await managerOf(db).query<{ id: string }[]>(
    `SELECT id FROM calendar_sends WHERE status = 'scheduled' AND scheduled_for <= $1
      ORDER BY scheduled_for, id LIMIT $2`,
    [now, limit],
  );
  return rows.map((r) => r.id);
}

/** The row and its user as a send sees them, both locked. */
export interface DueCalendarSend {
  id: string;
  userId: string;
  kind: CalendarSendKind;
  taskKey: string;
  scheduledFor: Date;
  body: string;
  zipCode: string | null;
  optedOut: boolean;
  tipsStatus: TipsStatus;
  isTestUser: boolean;
  region: string | null;
}

export type CalendarSendDecision =
  | { send: true; encoding: MessageEncoding; segments: number }
  | { send: false; status: 'skipped' | 'cancelled'; reason: string; retry?: false }
  /** Not now (outside the user's daytime): left scheduled for later. */
  | { send: false; retry: true };

export type CalendarSendOutcome =
  | { outcome: 'sent'; messageId: string; userId: string }
  | { outcome: 'skipped' | 'cancelled'; reason: string }
  | { outcome: 'later' | 'gone' };

/**
 * Settles one due row in one transaction, holding the row and its user locked (a STOP or TIPS OFF
 * takes the user's lock to record itself, so it is either seen here or comes after the message
 * exists, where the send worker's own opt-out check stops it): `decide` reads the row and user as
 * they are now; to send, the message (kind calendar, queued) is written to the user's current
 * conversation or a new one and the row marked sent with it. The caller enqueues the send.
 */
export async function settleCalendarSend(
  db: Db,
  id: string,
  now: Date,
  idleTimeoutMs: number,
  decide: (row: DueCalendarSend) => CalendarSendDecision | Promise<CalendarSendDecision>,
): Promise<CalendarSendOutcome> {
  return managerOf(db).transaction(async (tx: EntityManager) => {
    const rows = await tx.query<
      {
        id: string;
        user_id: string;
        kind: CalendarSendKind;
        task_key: string;
        scheduled_for: Date;
        body: string;
        zip_code: string | null;
        opted_out: boolean;
        tips_status: TipsStatus;
        is_test_user: boolean;
        region: string | null;
        profile: UserProfile | null;
      }[]
    >(
      `SELECT cs.id, cs.user_id, cs.kind, cs.task_key, cs.scheduled_for, cs.body,
              u.zip_code, u.opted_out, u.tips_status, u.is_test_user, u.region, u.profile
         FROM calendar_sends cs JOIN users u ON u.id = cs.user_id
        WHERE cs.id = $1 AND cs.status = 'scheduled'
        FOR UPDATE OF cs, u SKIP LOCKED`,
      [id],
    );
    const row = rows[0];
    if (row === undefined) return { outcome: 'gone' };
    const due: DueCalendarSend = {
      id: row.id,
      userId: row.user_id,
      kind: row.kind,
      taskKey: row.task_key,
      scheduledFor: row.scheduled_for,
      body: row.body,
      zipCode: row.zip_code,
      optedOut: row.opted_out,
      tipsStatus: row.tips_status,
      isTestUser: row.is_test_user,
      region: row.region,
    };
    const decision = await decide(due);
    if (!decision.send) {
      if (decision.retry === true) return { outcome: 'later' };
      await tx.query(`UPDATE calendar_sends SET status = $2, skip_reason = $3 WHERE id = $1`, [
        id,
        decision.status,
        decision.reason,
      ]);
      return { outcome: decision.status, reason: decision.reason };
    }
    const conversation = await touchConversation(
      tx,
      {
        id: row.user_id,
        isTestUser: row.is_test_user,
        region: row.region,
        profile: row.profile ?? {},
      },
      now,
      idleTimeoutMs,
    );
    const message = await recordOutbound(tx, {
      userId: row.user_id,
      conversationId: conversation.id,
      content: row.body,
      kind: 'calendar',
      encoding: decision.encoding,
      segments: decision.segments,
    });
    if (message === null) throw new Error(`Calendar send ${id}: its message was not written`);
    await tx.query(`UPDATE calendar_sends SET status = 'sent', message_id = $2, sent_at = $3 WHERE id = $1`, [
      id,
      message.id,
      now,
    ]);
    return { outcome: 'sent', messageId: message.id, userId: row.user_id };
  });
}

/** Rows still scheduled for a user (TIPS OFF or STOP): cancelled with the reason. */
export async function cancelScheduledCalendarSends(db: Db, userId: string, reason: string): Promise<number> {
  const rows = await managerOf(db).query<{ id: string }[]>(
    `UPDATE calendar_sends SET status = 'cancelled', skip_reason = $2
      WHERE user_id = $1 AND status = 'scheduled' RETURNING id`,
    [userId, reason],
  );
  return rows.length;
}
