import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaCode } from '../schema-code';

const ROLLUP_METRIC = (
  calendar: boolean,
): string => `CREATE OR REPLACE FUNCTION rollup_message_metric(direction varchar, kind varchar)
RETURNS varchar LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $function$
SELECT CASE
  WHEN direction = 'inbound' THEN 'messages_inbound'
  WHEN kind ${calendar ? "IN ('survey', 'calendar')" : "= 'survey'"} THEN 'messages_proactive'
  ELSE 'messages_reply'
END
$function$`;

const KINDS = `'reply', 'consent', 'onboarding', 'validation', 'survey', 'command', 'system'`;
const CONSENT_TYPES = `'opt_out', 'opt_in', 'help', 'maybe_opt_out'`;

/**
 * The garden calendar: dated tips and frost/heat alerts that subscribers asked for by text.
 *
 * - `users.tips_status` ('none', 'offered', 'subscribed', 'declined', 'unsubscribed') and
 *   `tips_status_at`, kept by a trigger on `consent_events` (sql/garden_calendar.sql), which gain
 *   the types tips_opt_in, tips_opt_out and tips_decline;
 * - `calendar_sends`: each tip or alert a user is due, once (UNIQUE user and task key), with when
 *   it goes out in their daytime and, once sent, its message (delivery status and cost);
 * - `weather_alerts`: a forecast freeze or heat extreme per NWS grid and day, raised once;
 * - message kind 'calendar', counted with surveys as proactive in the admin rollups.
 */
export class GardenCalendar1797400000000 implements MigrationInterface {
  name = 'GardenCalendar1797400000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `ALTER TABLE "users" ADD COLUMN "tips_status" varchar NOT NULL DEFAULT 'none'`,
      `ALTER TABLE "users" ADD COLUMN "tips_status_at" timestamptz`,
      `ALTER TABLE "users" ADD CONSTRAINT "chk_users_tips_status" CHECK ("tips_status" IN ('none', 'offered', 'subscribed', 'declined', 'unsubscribed'))`,
      // The scheduler walks the subscribers; they are few beside all users.
      `CREATE INDEX "idx_users_tips_subscribed" ON "users" ("id") WHERE "tips_status" = 'subscribed'`,
      `ALTER TABLE "consent_events" DROP CONSTRAINT "chk_consent_events_type"`,
      `ALTER TABLE "consent_events" ADD CONSTRAINT "chk_consent_events_type" CHECK ("type" IN (${CONSENT_TYPES}, 'tips_opt_in', 'tips_opt_out', 'tips_decline'))`,
      `ALTER TABLE "messages" DROP CONSTRAINT "chk_messages_kind"`,
      `ALTER TABLE "messages" ADD CONSTRAINT "chk_messages_kind" CHECK ("kind" IN (${KINDS}, 'calendar'))`,
      ROLLUP_METRIC(true),
      `CREATE TABLE "weather_alerts" (
        "id" uuid NOT NULL DEFAULT gen_random_uuid(),
        "grid_key" varchar NOT NULL,
        "kind" varchar NOT NULL,
        "event_date" date NOT NULL,
        "low_f" integer,
        "high_f" integer,
        "forecast" text NOT NULL,
        "raised_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "pk_weather_alerts" PRIMARY KEY ("id"),
        CONSTRAINT "uq_weather_alerts_grid_kind_date" UNIQUE ("grid_key", "kind", "event_date"),
        CONSTRAINT "chk_weather_alerts_kind" CHECK ("kind" IN ('freeze', 'heat'))
      )`,
      `CREATE INDEX "idx_weather_alerts_raised_at" ON "weather_alerts" ("raised_at")`,
      `CREATE TABLE "calendar_sends" (
        "id" uuid NOT NULL DEFAULT gen_random_uuid(),
        "user_id" uuid NOT NULL,
        "kind" varchar NOT NULL,
        "task_key" varchar NOT NULL,
        "scheduled_for" timestamptz NOT NULL,
        "status" varchar NOT NULL DEFAULT 'scheduled',
        "skip_reason" varchar,
        "body" text NOT NULL,
        "message_id" uuid,
        "weather_alert_id" uuid,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "sent_at" timestamptz,
        CONSTRAINT "pk_calendar_sends" PRIMARY KEY ("id"),
        CONSTRAINT "uq_calendar_sends_user_task" UNIQUE ("user_id", "task_key"),
        CONSTRAINT "fk_calendar_sends_user_id" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE,
        CONSTRAINT "fk_calendar_sends_message_id" FOREIGN KEY ("message_id") REFERENCES "messages" ("id") ON DELETE SET NULL,
        CONSTRAINT "fk_calendar_sends_weather_alert_id" FOREIGN KEY ("weather_alert_id") REFERENCES "weather_alerts" ("id") ON DELETE SET NULL,
        CONSTRAINT "chk_calendar_sends_kind" CHECK ("kind" IN ('tip', 'frost_alert', 'heat_alert')),
        CONSTRAINT "chk_calendar_sends_status" CHECK ("status" IN ('scheduled', 'sent', 'skipped', 'cancelled'))
      )`,
      // The sender's walk: due rows only.
      `CREATE INDEX "idx_calendar_sends_due" ON "calendar_sends" ("scheduled_for") WHERE "status" = 'scheduled'`,
      `CREATE INDEX "idx_calendar_sends_user_scheduled" ON "calendar_sends" ("user_id", "scheduled_for")`,
      `CREATE INDEX "idx_calendar_sends_sent_at" ON "calendar_sends" ("sent_at") WHERE "sent_at" IS NOT NULL`,
      `CREATE INDEX "idx_calendar_sends_message_id" ON "calendar_sends" ("message_id")`,
      `CREATE INDEX "idx_calendar_sends_weather_alert_id" ON "calendar_sends" ("weather_alert_id")`,
    ];
    for (const statement of statements) await queryRunner.query(statement);
    await queryRunner.query(schemaCode('garden_calendar'));
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `DROP TRIGGER "trg_consent_events_tips_status" ON "consent_events"`,
      `DROP FUNCTION tips_status_from_consent()`,
      `DROP TABLE "calendar_sends"`,
      `DROP TABLE "weather_alerts"`,
      `DELETE FROM "messages" WHERE "kind" = 'calendar'`,
      ROLLUP_METRIC(false),
      `ALTER TABLE "messages" DROP CONSTRAINT "chk_messages_kind"`,
      `ALTER TABLE "messages" ADD CONSTRAINT "chk_messages_kind" CHECK ("kind" IN (${KINDS}))`,
      `DELETE FROM "consent_events" WHERE "type" IN ('tips_opt_in', 'tips_opt_out', 'tips_decline')`,
      `ALTER TABLE "consent_events" DROP CONSTRAINT "chk_consent_events_type"`,
      `ALTER TABLE "consent_events" ADD CONSTRAINT "chk_consent_events_type" CHECK ("type" IN (${CONSENT_TYPES}))`,
      `DROP INDEX "idx_users_tips_subscribed"`,
      `ALTER TABLE "users" DROP CONSTRAINT "chk_users_tips_status"`,
      `ALTER TABLE "users" DROP COLUMN "tips_status_at"`,
      `ALTER TABLE "users" DROP COLUMN "tips_status"`,
    ];
    for (const statement of statements) await queryRunner.query(statement);
  }
}
