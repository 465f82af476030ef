import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-sender reply limits and what sending costs.
 *
 * - `sender_limits`: one row per user, the latest stretch in which their texts went unanswered
 *   because they were over a reply limit (the counting itself is in Redis); admins read it.
 * - `messages.sms_cost`, `users.total_sms_cost`: the provider's price of an outbound message,
 *   written once when the provider accepts it (sms-spend/sms-spend.ts). Nothing is backfilled: the
 *   price of earlier sends is unknown, and they stay null.
 * - `sms_spend_buckets`: SMS cost per 15 minutes, added to in the statement that records a send
 *   (eight shards, chosen by backend, so concurrent sends never wait on one row), so a day's SMS
 *   spend in any time zone is a sum of at most 96 x 8 rows.
 */
export class SenderLimitsAndSmsCost1797300000000 implements MigrationInterface {
  name = 'SenderLimitsAndSmsCost1797300000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE "sender_limits" (
        "user_id" uuid NOT NULL,
        "limit_window" varchar NOT NULL,
        "reply_limit" integer NOT NULL,
        "limited_at" timestamptz NOT NULL,
        "limited_until" timestamptz NOT NULL,
        "refused" integer NOT NULL DEFAULT 0,
        CONSTRAINT "pk_sender_limits" PRIMARY KEY ("user_id"),
        CONSTRAINT "fk_sender_limits_user_id" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE,
        CONSTRAINT "chk_sender_limits_window" CHECK ("limit_window" IN ('minute', 'hour', 'day'))
      )`,
      `CREATE INDEX "idx_sender_limits_limited_until" ON "sender_limits" ("limited_until")`,
      `ALTER TABLE "messages" ADD COLUMN "sms_cost" numeric(14,6)`,
      `ALTER TABLE "users" ADD COLUMN "total_sms_cost" numeric(14,6) NOT NULL DEFAULT 0`,
      `CREATE TABLE "sms_spend_buckets" (
        "bucket" timestamptz NOT NULL,
        "shard" smallint NOT NULL,
        "cost" numeric(14,6) NOT NULL DEFAULT 0,
        "segments" integer NOT NULL DEFAULT 0,
        "messages" integer NOT NULL DEFAULT 0,
        CONSTRAINT "pk_sms_spend_buckets" PRIMARY KEY ("bucket", "shard")
      )`,
    ];
    for (const statement of statements) await queryRunner.query(statement);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `DROP TABLE "sms_spend_buckets"`,
      `ALTER TABLE "users" DROP COLUMN "total_sms_cost"`,
      `ALTER TABLE "messages" DROP COLUMN "sms_cost"`,
      `DROP TABLE "sender_limits"`,
    ];
    for (const statement of statements) await queryRunner.query(statement);
  }
}
