import { type Db, managerOf } from '../db';

// What the garden calendar has scheduled, sent and raised, for the console.

export interface ScheduledDayRow {
  /** YYYY-MM-DD in the time zone asked for. */
  date: string;
  tip: number;
  frostAlert: number;
  heatAlert: number;
}

/**
 * Texts still scheduled, counted by kind for each of `days` days from `now`'s day in `timeZone`
 * (every day present, zero when nothing is due).
 */
export async function scheduledSendsByDay(
  db: Db,
  now: Date,
  timeZone: string,
  days: number,
): Promise<ScheduledDayRow[]> {
  const rows = await managerOf(db).query<
    Array<{ date: string; tip: number; frost_alert: number; heat_alert: number }>
  >(
    `WITH span AS (SELECT ($1::timestamptz AT TIME ZONE $2)::date AS first_day),
     due AS (
       SELECT (s."scheduled_for" AT TIME ZONE $2)::date AS day, s."kind"
         FROM "calendar_sends" s, span
        WHERE s."status" = 'scheduled'
          AND s."scheduled_for" >= (span.first_day::timestamp AT TIME ZONE $2)
          AND s."scheduled_for" < ((span.first_day + $3::int)::timestamp AT TIME ZONE $2)
     )
     SELECT to_char(d.day, 'YYYY-MM-DD') AS date,
            count(due.kind) FILTER (WHERE due.kind = 'tip')::int AS tip,
            count(due.kind) FILTER (WHERE due.kind = 'frost_alert')::int AS frost_alert,
            count(due.kind) FILTER (WHERE due.kind = 'heat_alert')::int AS heat_alert
       FROM span, generate_series(0, $3::int - 1) AS n(i)
       CROSS JOIN LATERAL (SELECT span.first_day + n.i AS day) d
       LEFT JOIN due ON due.day = d.day
      GROUP BY d.day ORDER BY d.day`,
    [now, timeZone, days],
  );
  return rows.map((r) => ({ date: r.date, tip: r.tip, frostAlert: r.frost_alert, heatAlert: r.heat_alert }));
}

export interface CalendarSendRow {
  id: string;
  sentAt: Date | null;
  kind: string;
  phoneNumber: string;
  body: string;
  /** The outbound message's status; null when the send has no message. */
  deliveryStatus: string | null;
  /** Dollars; null until the provider accepted the message. */
  smsCost: number | null;
}

/** The latest `limit` texts the calendar sent, newest first, with their message's status and cost. */
export async function recentCalendarSends(db: Db, limit: number): Promise<CalendarSendRow[]> {
  const rows = await managerOf(db).query<
    Array<{
      id: string;
      sent_at: Date | null;
      kind: string;
      phone_number: string;
      body: string;
      status: string | null;
      sms_cost: string | null;
    }>
  >(
    `SELECT s."id", s."sent_at", s."kind", u."phone_number", s."body", m."status", m."sms_cost"
       FROM "calendar_sends" s
       JOIN "users" u ON u."id" = s."user_id"
       LEFT JOIN "messages" m ON m."id" = s."message_id"
      WHERE s."status" = 'sent'
      ORDER BY s."sent_at" DESC NULLS LAST, s."id"
      LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({
    id: r.id,
    sentAt: r.sent_at,
    kind: r.kind,
    phoneNumber: r.phone_number,
    body: r.body,
    deliveryStatus: r.status,
    smsCost: r.sms_cost === null ? null : Number(r.sms_cost),
  }));
}

export interface WeatherAlertRow {
  id: string;
  gridKey: string;
  kind: string;
  eventDate: string;
  lowF: number | null;
  highF: number | null;
  forecast: string;
  raisedAt: Date;
  textsSent: number;
}

/** The latest `limit` weather alerts, newest first, each with the texts sent about it. */
export async function recentWeatherAlerts(db: Db, limit: number): Promise<WeatherAlertRow[]> {
  const rows = await managerOf(db).query<
    Array<{
      id: string;
      grid_key: string;
      kind: string;
      event_date: string;
      low_f: number | null;
      high_f: number | null;
      forecast: string;
      raised_at: Date;
      texts_sent: number;
    }>
  >(
    `SELECT a."id", a."grid_key", a."kind", to_char(a."event_date", 'YYYY-MM-DD') AS event_date,
            a."low_f", a."high_f", a."forecast", a."raised_at",
            (SELECT count(*)::int FROM "calendar_sends" s
              WHERE s."weather_alert_id" = a."id" AND s."status" = 'sent') AS texts_sent
       FROM "weather_alerts" a
      ORDER BY a."raised_at" DESC, a."id"
      LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({
    id: r.id,
    gridKey: r.grid_key,
    kind: r.kind,
    eventDate: r.event_date,
    lowF: r.low_f,
    highF: r.high_f,
    forecast: r.forecast,
    raisedAt: r.raised_at,
    textsSent: r.texts_sent,
  }));
}
