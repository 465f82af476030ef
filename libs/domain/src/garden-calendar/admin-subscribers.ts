import { type Db, managerOf } from '../db';

export interface GardenCalendarSubscriberRow {
  userId: string;
  phoneNumber: string;
  zipCode: string | null;
  hardinessZone: string | null;
  since: Date | null;
  tipsSent: number;
}

/** Users subscribed to tips, latest first, one page (offset paging: a few thousand at most). */
export async function gardenCalendarSubscribers(
  db: Db,
  page: number,
  pageSize: number,
): Promise<{ rows: GardenCalendarSubscriberRow[]; total: number }> {
  const manager = managerOf(db);
  const [rows, [count]] = await Promise.all([
    manager.query<
      Array<{
        id: string;
        phone_number: string;
        zip_code: string | null;
        hardiness_zone: string | null;
        tips_status_at: Date | null;
        tips_sent: number;
      }>
    >(
      `SELECT u."id", u."phone_number", u."zip_code", u."hardiness_zone", u."tips_status_at",
              (SELECT count(*)::int FROM "calendar_sends" s
                WHERE s."user_id" = u."id" AND s."kind" = 'tip' AND s."status" = 'sent') AS tips_sent
         FROM "users" u
        WHERE u."tips_status" = 'subscribed'
        ORDER BY u."tips_status_at" DESC NULLS LAST, u."id"
        LIMIT $1 OFFSET $2`,
      [pageSize, (page - 1) * pageSize],
    ),
    manager.query<Array<{ total: number }>>(
      `SELECT count(*)::int AS total FROM "users" WHERE "tips_status" = 'subscribed'`,
    ),
  ]);
  return {
    rows: rows.map((r) => ({
      userId: r.id,
      phoneNumber: r.phone_number,
      zipCode: r.zip_code,
      hardinessZone: r.hardiness_zone,
      since: r.tips_status_at,
      tipsSent: r.tips_sent,
    })),
    total: count?.total ?? 0,
  };
}
